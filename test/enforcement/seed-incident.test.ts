// The seed incident replayed against the emitted admission policy: the pipeline writes `timers`,
// NetOp owns `domains`, and NetOp's full-object Update() without `timers` is what the API server
// now refuses. Requests are built here; the CEL runs in @bufbuild/cel (see ./admission.ts).
import { admit, compileAll, Request } from './admission';
import { APP1, DEPLOYER, live, NETOP, policiesOf, seedApp, STRANGER } from './fixtures';
import { schemaProblems } from '../k8s-schemas';

const policies = policiesOf(seedApp().app);

function update(username: string, change: (o: any) => void, from = live()): Request {
  const object = structuredClone(from);
  change(object);
  return { operation: 'UPDATE', username, group: 'apps.example.com', resource: 'applicationdeployments', kind: 'ApplicationDeployment', namespace: 'apps', name: 'app1', object, oldObject: from };
}

test('the composition emits one policy and one binding for the ApplicationDeployment, and every expression compiles', () => {
  // THEN
  const ads = policies.filter((p) => p.metadata.name.endsWith('.applicationdeployments.apps.example.com'));
  expect(ads.map((p) => `${p.kind} ${p.metadata.name}`)).toEqual([
    'ValidatingAdmissionPolicy platform.field-owners.applicationdeployments.apps.example.com',
    'ValidatingAdmissionPolicyBinding platform.field-owners.applicationdeployments.apps.example.com',
  ]);
  expect(compileAll(policies)).toBeGreaterThan(0);
});

test('the policies and bindings validate against the published admissionregistration.k8s.io/v1 schema', () => {
  expect(policies.length).toBe(4); // the ApplicationDeployment's and the CRD's
  expect(schemaProblems(policies)).toEqual([]);
});

describe('the seed incident', () => {
  test("NetOp's full-object Update() from a struct without timers is denied, naming the fields it dropped and their owner", () => {
    // GIVEN NetOp's typed struct knows spec.applicationId, image, domains and routeTables only
    const request = update(NETOP, (o) => {
      delete o.spec.timers;
      delete o.spec.entityConfigurations;
      o.spec.domains = [...o.spec.domains, 'api.app1.example.com'];
    });

    // WHEN
    const decision = admit(policies, request);

    // THEN
    expect(decision.allowed).toBe(false);
    expect(decision.message).toBe(
      "ValidatingAdmissionPolicy 'platform.field-owners.applicationdeployments.apps.example.com' with binding 'platform.field-owners.applicationdeployments.apps.example.com' denied request: " +
        'spec.entityConfigurations[name=billing].replicas, spec.entityConfigurations[name=orders].replicas, spec.timers.publishTimeout, spec.timers.rolloutTimeout' +
        ` of apps.example.com/ApplicationDeployment apps/app1 belong to the deployer (${DEPLOYER}): only that identity may change them, not ${NETOP}`,
    );
  });

  test('NetOp changing its own domains is allowed', () => {
    expect(admit(policies, update(NETOP, (o) => (o.spec.domains = ['app1.example.com']))).allowed).toBe(true);
  });

  test('the deployer changing timers is allowed', () => {
    expect(admit(policies, update(DEPLOYER, (o) => (o.spec.timers.publishTimeout = '15m'))).allowed).toBe(true);
  });

  test('a third identity changing domains is denied, naming NetOp as the owner', () => {
    // WHEN
    const decision = admit(policies, update(STRANGER, (o) => o.spec.domains.pop()));

    // THEN
    expect(decision.allowed).toBe(false);
    expect(decision.failures).toEqual([
      `spec.domains of apps.example.com/ApplicationDeployment apps/app1 belong to the runtime writer 'platform/Routing/NetOp' (${NETOP}): only that identity may change them, not ${STRANGER}`,
    ]);
  });

  test('the deployer changing domains is denied too: runtime leaves are the runtime writer\'s', () => {
    expect(admit(policies, update(DEPLOYER, (o) => (o.spec.domains = []))).failures).toEqual([
      expect.stringMatching(/^spec\.domains of .* belong to the runtime writer 'platform\/Routing\/NetOp'/),
    ]);
  });

  test('CREATE by the deployer is allowed', () => {
    // GIVEN the object as the pipeline applies it first
    const request: Request = { operation: 'CREATE', username: DEPLOYER, group: 'apps.example.com', resource: 'applicationdeployments', kind: 'ApplicationDeployment', namespace: 'apps', name: 'app1', object: APP1 };

    // THEN
    expect(admit(policies, request)).toEqual({ allowed: true, warnings: [], audited: [], failures: [] });
  });

  test('CREATE by another identity that sets the deployer\'s fields is denied', () => {
    const request: Request = { operation: 'CREATE', username: STRANGER, group: 'apps.example.com', resource: 'applicationdeployments', kind: 'ApplicationDeployment', namespace: 'apps', name: 'app1', object: APP1 };
    expect(admit(policies, request).allowed).toBe(false);
  });

  test('status and fields nobody owns are not constrained', () => {
    // WHEN a stranger writes status and an annotation the composition does not declare
    const decision = admit(policies, update(STRANGER, (o) => {
      o.status.phase = 'Degraded';
      o.metadata.annotations = { 'example.com/note': 'checked' };
    }));

    // THEN
    expect(decision.allowed).toBe(true);
  });

  test('an object of the kind that the composition does not declare is not evaluated', () => {
    const request = { ...update(STRANGER, (o) => delete o.spec.timers), name: 'app2' };
    expect(admit(policies, request).failures).toEqual([]);
  });

  test('an object of the same name in another namespace is not evaluated', () => {
    const request = { ...update(STRANGER, (o) => delete o.spec.timers), namespace: 'other' };
    expect(admit(policies, request).failures).toEqual([]);
  });
});

describe('DELETE', () => {
  const remove = (username: string): Request => ({ operation: 'DELETE', username, group: 'apps.example.com', resource: 'applicationdeployments', kind: 'ApplicationDeployment', namespace: 'apps', name: 'app1', oldObject: live() });

  test('the deployer may delete the object', () => {
    expect(admit(policies, remove(DEPLOYER)).allowed).toBe(true);
  });

  test('the garbage collector may delete it', () => {
    expect(admit(policies, remove('system:serviceaccount:kube-system:generic-garbage-collector')).allowed).toBe(true);
  });

  test('NetOp, which writes fields of it, may not delete it', () => {
    expect(admit(policies, remove(NETOP)).failures).toEqual([
      `${NETOP} writes fields of apps.example.com/ApplicationDeployment apps/app1 but may not delete it: the composition declares it, and the deployer (${DEPLOYER}) removes it`,
    ]);
  });
});

describe('rollout', () => {
  test("with validationActions ['Warn', 'Audit'] the incident's update is let through, with a warning and an audit record", () => {
    // GIVEN
    const warned = policiesOf(seedApp({ validationActions: ['Warn', 'Audit'] }).app);

    // WHEN
    const decision = admit(warned, update(NETOP, (o) => delete o.spec.timers));

    // THEN
    expect(decision.allowed).toBe(true);
    expect(decision.warnings).toEqual([
      expect.stringMatching(/^Validation failed for ValidatingAdmissionPolicy 'platform\.field-owners\.applicationdeployments\.apps\.example\.com' with binding '.*': spec\.timers\.publishTimeout, spec\.timers\.rolloutTimeout of /),
    ]);
    expect(decision.audited).toHaveLength(1);
  });
});
