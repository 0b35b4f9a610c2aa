// The resource (plural) a field-ownership policy matches a kind by: the CRD's plural when the CRD is in the
// composition, a built-in kind's own, the one `enforce.resources` gives, else Kubernetes' guess, with a warning.
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, CapabilityTesting, RuntimeRouting } from '../src';
import { edgeComposition } from './contract-fixtures';
import { admit, Request } from './enforcement/admission';
import { guessResource, KNOWN_CRD_PLURALS } from '../src/collect/resource-names';

const DEPLOYER = 'system:serviceaccount:flux-system:kustomize-controller';
const STRANGER = 'system:serviceaccount:default:someone';

/** A `Redis` of cache.example.com (its CRD installed by someone else), declared by `cache/Routing/Sessions`. */
function redisApp(enforce: Record<string, unknown> = {}, withCrd?: { plural: string }): CapabilityApp {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER, ...enforce } });
  const routing = new RuntimeRouting(new Capability(app, 'cache'), 'Routing');
  if (withCrd) {
    new ApiObject(routing, 'RedisCrd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${withCrd.plural}.cache.example.com` },
      spec: {
        group: 'cache.example.com',
        scope: 'Namespaced',
        names: { kind: 'Redis', plural: withCrd.plural, singular: 'redis', listKind: 'RedisList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
  }
  new ApiObject(routing, 'Sessions', { apiVersion: 'cache.example.com/v1', kind: 'Redis', metadata: { name: 'sessions', namespace: 'shop' }, spec: { size: 3 } });
  return app;
}

function policies(app: CapabilityApp): any[] {
  const result = CapabilityTesting.synth(app);
  expect(result.violations).toEqual([]);
  return result.runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
}

/** A stranger's update of the Redis `shop/sessions` that changes its size, to the resource the API server serves it as. */
function strangerResizes(resource: string): Request {
  const oldObject = { apiVersion: 'cache.example.com/v1', kind: 'Redis', metadata: { name: 'sessions', namespace: 'shop' }, spec: { size: 3 } };
  const object = { ...oldObject, spec: { size: 1 } };
  return { operation: 'UPDATE', username: STRANGER, group: 'cache.example.com', resource, kind: 'Redis', namespace: 'shop', name: 'sessions', object, oldObject };
}

describe("guessResource is apimachinery's UnsafeGuessKindToResource", () => {
  // Ported from kubernetes/apimachinery pkg/api/meta/restmapper_test.go (commit eed236ce), TestKindToResource and
  // TestRESTMapperResourceSingularizer (whose mapper.Add guesses with UnsafeGuessKindToResource), plus the
  // unpluralizedSuffixes of restmapper.go ("endpoints") and its `y` rule, which looks at no other letter.
  test.each([
    ['Pod', 'pods'],
    ['ReplicationController', 'replicationcontrollers'],
    ['ImageRepository', 'imagerepositories'],
    ['miss', 'misses'],
    ['lowercase', 'lowercases'],
    ['Status', 'statuses'],
    ['lowercases', 'lowercaseses'],
    ['Endpoints', 'endpoints'],
    ['Gateway', 'gatewaies'],
    ['Redis', 'redises'],
    ['', ''],
  ])('%j gives %j', (kind, resource) => {
    expect(guessResource(kind)).toBe(resource);
  });
});

describe('the resource a policy matches a kind by', () => {
  test('a built-in kind the guess gets wrong is matched by its own resource (resource.k8s.io ResourceClaimParameters)', () => {
    // GIVEN a ResourceClaimParameters, which Kubernetes 1.30 serves as resourceclaimparameters
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'gpu'), 'Routing');
    new ApiObject(routing, 'Params', { apiVersion: 'resource.k8s.io/v1alpha2', kind: 'ResourceClaimParameters', metadata: { name: 'a100', namespace: 'ml' }, shareable: true });

    // THEN
    const [policy] = policies(app);
    expect(policy.spec.matchConstraints.resourceRules[0].resources).toEqual(['resourceclaimparameters']);
  });

  test('enforce.resources gives the resource of a kind whose CRD is not in the composition: policy, name and binding use it', () => {
    // WHEN
    const [policy, binding] = policies(redisApp({ resources: { 'Redis.cache.example.com': 'redis' } }));

    // THEN
    expect(policy.metadata.name).toBe('cache.field-owners.redis.cache.example.com');
    expect(policy.spec.matchConstraints.resourceRules).toEqual([{ apiGroups: ['cache.example.com'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['redis'] }]);
    expect(binding.spec.matchResources.resourceRules[0].resources).toEqual(['redis']);
  });

  test("with the resource given, the API server's evaluation denies a stranger's change to a served-as-'redis' object", () => {
    const decision = admit(policies(redisApp({ resources: { 'Redis.cache.example.com': 'redis' } })), strangerResizes('redis'));

    expect(decision.allowed).toBe(false);
    expect(decision.message).toBe("ValidatingAdmissionPolicy 'cache.field-owners.redis.cache.example.com' with binding 'cache.field-owners.redis.cache.example.com' denied request: "
      + `spec.size of cache.example.com/Redis shop/sessions belong to the deployer (${DEPLOYER}): only that identity may change them, not ${STRANGER}`);
  });

  test("with the guess, the same change passes: the policy matches 'redises', which the API server never asks about", () => {
    const guessed = policies(redisApp());

    expect(guessed[0].spec.matchConstraints.resourceRules[0].resources).toEqual(['redises']);
    expect(admit(guessed, strangerResizes('redis'))).toEqual({ allowed: true, warnings: [], audited: [], failures: [] });
  });
});

describe('a guessed resource is a warning', () => {
  test('a kind without its CRD, built-in schema or enforce.resources entry: CAP010 warning naming the kind, the guess and the fix', () => {
    const result = CapabilityTesting.synth(redisApp());

    expect(result.violations).toEqual([]);
    expect(result.warnings).toEqual([{
      code: 'CAP010',
      message: "invalid object: the field-ownership policy of cache.example.com/Redis (declared by 'cache/Routing/Sessions') matches the resource 'redises', a guess from the kind: "
        + 'its CRD is not in the composition. If the CRD names another plural, the policy matches no request and protects nothing. '
        + "Give the CRD's spec.names.plural (kubectl api-resources --api-group=cache.example.com) as CapabilityApp's enforce: { resources: { 'Redis.cache.example.com': '<plural>' } }.",
      paths: ['cache/Routing/Sessions'],
    }]);
  });

  test('none when the resource is given, or the CRD is in the composition, or without enforce', () => {
    expect(CapabilityTesting.synth(redisApp({ resources: { 'Redis.cache.example.com': 'redis' } })).warnings).toEqual([]);
    expect(CapabilityTesting.synth(redisApp({}, { plural: 'redis' })).warnings).toEqual([]);
    const plain = CapabilityTesting.app();
    new ApiObject(new RuntimeRouting(new Capability(plain, 'cache'), 'Routing'), 'Sessions', { apiVersion: 'cache.example.com/v1', kind: 'Redis', metadata: { name: 'sessions' }, spec: { size: 3 } });
    expect(CapabilityTesting.synth(plain).warnings).toEqual([]);
  });
});

describe('a kind whose CRD the library ships has its known plural, no guess', () => {
  const CRDS = '/work/shared/crds';

  test('the table holds the spec.names.plural of each CRD file the library generates classes from', () => {
    const plurals: Record<string, string> = {};
    for (const file of fs.readdirSync(CRDS).filter((f) => f.endsWith('.yaml'))) {
      for (const doc of parseAllDocuments(fs.readFileSync(path.join(CRDS, file), 'utf-8'))) {
        const crd = doc.toJS();
        if (crd?.kind === 'CustomResourceDefinition') plurals[`${crd.spec.group}/${crd.spec.names.kind}`] = crd.spec.names.plural;
      }
    }
    expect(KNOWN_CRD_PLURALS).toEqual(plurals);
  });

  test("consume()'s own ExternalSecret, with enforce, gets no guess warning and its policy matches 'externalsecrets'", () => {
    // GIVEN the contract consumed, under enforce
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const { edge, base, distribution, routing } = edgeComposition({ app });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    edge.consume(routing);

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN
    expect(result.warnings).toEqual([]);
    const policy = result.runtimeObjects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name.includes('externalsecret'));
    expect(policy?.spec.matchConstraints.resourceRules[0].resources).toEqual(['externalsecrets']);
  });

  test("a Gateway (the guess would be 'gatewaies') is matched by 'gateways', without a warning", () => {
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'edge'), 'Routing');
    new ApiObject(routing, 'Gw', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'edge', namespace: 'edge' }, spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] } });

    const result = CapabilityTesting.synth(app);

    expect(result.warnings).toEqual([]);
    const [policy] = policies(app);
    expect(policy.spec.matchConstraints.resourceRules[0].resources).toEqual(['gateways']);
  });
});

describe('enforce.resources is checked', () => {
  test('an entry its CRD in the composition contradicts is CAP010, naming the CRD and the fix', () => {
    const result = CapabilityTesting.synth(redisApp({ resources: { 'Redis.cache.example.com': 'redises' } }, { plural: 'redis' }));

    expect(result.violations).toEqual([{
      code: 'CAP010',
      message: "invalid object: CapabilityApp's enforce.resources gives cache.example.com/Redis the resource 'redises', but its CustomResourceDefinition declared by 'cache/Routing/RedisCrd' names its plural 'redis', "
        + "and the API server matches policies by that name. Remove the entry 'Redis.cache.example.com': a kind whose CRD is in the composition, or a built-in kind, needs none.",
      paths: ['cache/Routing/RedisCrd'],
    }]);
  });

  test('an entry that contradicts a built-in kind is CAP010', () => {
    const result = CapabilityTesting.synth(redisApp({ resources: { 'Deployment.apps': 'deploy' } }));

    expect(result.violations.map((v) => v.message)).toEqual([
      "invalid object: CapabilityApp's enforce.resources gives apps/Deployment the resource 'deploy', but Kubernetes serves the built-in kind as 'deployments', "
        + "and the API server matches policies by that name. Remove the entry 'Deployment.apps': a kind whose CRD is in the composition, or a built-in kind, needs none.",
    ]);
  });

  test('a value that is not a map, a key that is not Kind.group and a value that is no resource name are one CAP010 at construction, naming each', () => {
    const make = (resources: unknown) => () => new CapabilityApp({ enforce: { deployer: DEPLOYER, resources: resources as Record<string, string> } });

    expect(make(['redis'])).toThrow(new Error('The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: \'enforce.resources\' (["redis"]) must map kinds to their resources, such as { \'Redis.cache.example.com\': \'redis\' }'));
    expect(make({ 'redis.cache.example.com': 'redis', 'Redis.cache.example.com': 'Redis' })).toThrow(new Error(
      'The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: \'enforce.resources\' key "redis.cache.example.com" must be a kind and its API group as kubectl writes them, Kind.group, such as "Redis.cache.example.com" (a kind of the core group alone, such as "ConfigMap"); '
        + '\'enforce.resources["Redis.cache.example.com"]\' ("Redis") must be the kind\'s resource as its CRD\'s spec.names.plural gives it: a DNS-1035 label (lowercase letters, digits and \'-\', starting with a letter, at most 63 characters), such as "redis"',
    ));
  });
});
