/**
 * `Reference` declarations a program gets wrong: each is a coded refusal naming the declaration and what it
 * meant, not a declaration that matches nothing (so that the reference it was for stays dangling with no word
 * about it), nor the constructs library's error.
 */
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CompositionError, Reference, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';

afterAll(removeTempDirs);

const FMS = 'fms.example.com/v1';

/** The CAP010 messages (without their title) of synthesizing what `build` declares in a capability's routing chart; fails on any CAP000. */
function refusals(build: (routing: RuntimeRouting) => void): string[] {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  build(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'));
  const violations = app.synthesize().violations;
  expect(violations.filter((v) => v.code === 'CAP000')).toEqual([]);
  return violations.filter((v) => v.code === 'CAP010').map((v) => v.message.replace(/^invalid object: /, ''));
}

/** A pod in namespace shop that reads the Secret tls. */
function podReadingTls(routing: Construct): void {
  new ApiObject(routing, 'Pod', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { containers: [{ name: 'web', image: 'web', envFrom: [{ secretRef: { name: 'tls' } }] }] },
  });
}

/** The one violation of the refusal `make` throws, as code, message and paths; fails unless it is a CompositionError. */
function refusalOf(make: () => unknown): [string, string, readonly string[]] {
  const error = thrownBy(make) as CompositionError;
  expect(CompositionError.isCompositionError(error)).toBe(true);
  expect(error.violations).toHaveLength(1);
  return [error.violations[0].code, error.violations[0].message, error.violations[0].paths];
}

describe('a key the declaration does not take', () => {
  /** A routing chart of a fresh app. */
  const routing = () => new RuntimeRouting(new Capability(new CapabilityApp({ outdir: path.join(tempDir(), 'dist') }), 'cdn'), 'Routing');

  test('is CAP010 as it is declared, naming the key it most likely misspells, not dropped (a misspelt namespace: the object in any namespace)', () => {
    const r = routing();
    expect([
      refusalOf(() => Reference.external(r, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls', namspace: 'shop' } as any)),
      refusalOf(() => Reference.externalPods(r, 'Pods', { namespace: 'shop', labels: { app: 'api' }, selector: { app: 'api' } } as any)),
      refusalOf(() => Reference.clusterScoped(r, 'Issuers', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', name: 'letsencrypt' } as any)),
    ]).toEqual([
      ['CAP010', "invalid object: Reference.external target of 'cdn/Routing/Tls': 'namspace' is not an option (did you mean 'namespace'?); "
        + "the options are 'apiVersion', 'kind', 'name', 'namespace'", ['cdn/Routing/Tls']],
      ['CAP010', "invalid object: Reference.externalPods options of 'cdn/Routing/Pods': 'selector' is not an option; the options are 'namespace', 'labels'", ['cdn/Routing/Pods']],
      ['CAP010', "invalid object: Reference.clusterScoped kind of 'cdn/Routing/Issuers': 'name' is not an option; the options are 'apiVersion', 'kind'", ['cdn/Routing/Issuers']],
    ]);
  });

  test("byName's options and target: a name in the target (an object, where a kind is asked for) is named", () => {
    const r = routing();
    const policy = new ApiObject(r, 'Policy', { apiVersion: FMS, kind: 'FMSPolicy', metadata: { name: 'edge', namespace: 'shop' }, spec: { ruleSetRef: 'baseline' } });
    expect([
      refusalOf(() => Reference.byName(r, 'Rules', { source: policy, field: 'spec.ruleSetRef', target: { apiVersion: FMS, kind: 'NetworkRuleSet', name: 'baseline' } } as any)),
      refusalOf(() => Reference.byName(r, 'Rules2', { source: policy, feild: 'spec.ruleSetRef', target: { apiVersion: FMS, kind: 'NetworkRuleSet' } } as any)),
    ]).toEqual([
      ['CAP010', "invalid object: Reference.byName 'target' of 'cdn/Routing/Rules': 'name' is not an option; the options are 'apiVersion', 'kind'", ['cdn/Routing/Rules']],
      ['CAP010', "invalid object: Reference.byName options of 'cdn/Routing/Rules2': 'feild' is not an option (did you mean 'field'?); the options are 'source', 'field', 'target'", ['cdn/Routing/Rules2']],
    ]);
  });

  test("an ApiObject given as byName's target kind (its apiVersion and kind) is taken, as its type allows", () => {
    expect(refusals((r) => {
      const policy = new ApiObject(r, 'Policy', { apiVersion: FMS, kind: 'FMSPolicy', metadata: { name: 'edge', namespace: 'shop' }, spec: { ruleSetRef: 'baseline' } });
      const baseline = new ApiObject(r, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline', namespace: 'shop' } });
      Reference.byName(r, 'Rules', { source: policy, field: 'spec.ruleSetRef', target: baseline });
    })).toEqual([]);
  });
});

describe('a namespace no object can be in', () => {
  test("an empty namespace is CAP010, not the object in namespace '' that nothing refers to", () => {
    expect(refusals((r) => {
      Reference.external(r, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: '' });
      podReadingTls(r);
    })).toEqual([
      "'cdn/Routing/Tls' failed its own validation: Reference.external's target.namespace (\"\") must be a namespace, a DNS-1123 label "
        + "(lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters) such as \"edge\"",
    ]);
  });

  test('a namespace that is no DNS-1123 label is CAP010 suggesting one', () => {
    expect(refusals((r) => {
      Reference.external(r, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: 'Shop' });
      Reference.externalPods(r, 'Pods', { namespace: 'Shop Pods', labels: { app: 'api' } });
    })).toEqual([
      "'cdn/Routing/Pods' failed its own validation: Reference.externalPods's namespace (\"Shop Pods\") must be a namespace, a DNS-1123 label "
        + "(lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters) such as \"shop-pods\"",
      "'cdn/Routing/Tls' failed its own validation: Reference.external's target.namespace (\"Shop\") must be a namespace, a DNS-1123 label "
        + "(lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters) such as \"shop\"",
    ]);
  });
});

describe('a kind no API serves as written', () => {
  test('a kind in the wrong case, or under a built-in group that does not serve it, is CAP010 naming the kind or group meant', () => {
    expect(refusals((r) => {
      Reference.external(r, 'Lower', { apiVersion: 'v1', kind: 'secret', name: 'tls', namespace: 'shop' });
      Reference.external(r, 'Group', { apiVersion: 'apps/v1', kind: 'Secret', name: 'tls', namespace: 'shop' });
      Reference.external(r, 'Core', { apiVersion: 'core/v1', kind: 'Secret', name: 'tls', namespace: 'shop' });
      Reference.clusterScoped(r, 'Issuers', { apiVersion: 'cert-manager.io/v1', kind: 'clusterissuer' });
    })).toEqual([
      "'cdn/Routing/Core' failed its own validation: Reference.external's target.apiVersion (\"core/v1\") names the core group, which has no name in an apiVersion. Use \"v1\".",
      "'cdn/Routing/Group' failed its own validation: Reference.external's target.kind (\"Secret\") is not a kind of the group \"apps\"; Secret is in the core group. "
        + 'Set apiVersion to "v1" or the version you mean.',
      "'cdn/Routing/Issuers' failed its own validation: Reference.clusterScoped's kind.kind (\"clusterissuer\") must be UpperCamelCase, letters and digits only, as the API names kinds. Fix the kind.",
      "'cdn/Routing/Lower' failed its own validation: Reference.external's target.kind (\"secret\") must be UpperCamelCase, letters and digits only, as the API names kinds such as \"Secret\". Fix the kind.",
    ]);
  });

  test('declared as the API names them, the declarations are accepted and the pod reads the external Secret', () => {
    expect(refusals((r) => {
      Reference.external(r, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: 'shop' });
      Reference.clusterScoped(r, 'Issuers', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer' });
      Reference.externalPods(r, 'Pods', { namespace: 'shop', labels: { app: 'api' } });
      podReadingTls(r);
    })).toEqual([]);
  });
});

describe('a by-name reference whose source no synth of this app checks', () => {
  test('a source in another app is CAP010, not a reference that is never checked', () => {
    expect(refusals((r) => {
      const policy = new ApiObject(new Chart(new App(), 'web'), 'Policy', { apiVersion: FMS, kind: 'FMSPolicy', metadata: { name: 'edge' }, spec: { ruleSetRef: 'baseline' } });
      Reference.byName(r, 'Rules', { source: policy, field: 'spec.ruleSetRef', target: { apiVersion: FMS, kind: 'NetworkRuleSet' } });
    })).toEqual([
      "'cdn/Routing/Rules' failed its own validation: Reference.byName's 'source' ('web/Policy') is not in this app, so no synth of it checks the reference. "
        + 'Declare it in the app of the source, or give a source of this one.',
    ]);
  });
});

test('a second Reference of one id is CAP010 naming both paths, not the constructs error', () => {
  // GIVEN
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
  Reference.external(routing, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: 'shop' });

  // WHEN
  const error = thrownBy(() => Reference.external(routing, 'Tls', { apiVersion: 'v1', kind: 'Secret', name: 'tls-2', namespace: 'shop' })) as CompositionError;

  // THEN
  expect(CompositionError.isCompositionError(error)).toBe(true);
  expect(error.violations.map((v) => [v.code, v.message, v.paths])).toEqual([
    ['CAP010', "invalid object: Reference 'cdn/Routing/Tls': 'cdn/Routing' already has a child of the id 'Tls' (the Reference 'cdn/Routing/Tls'), "
      + "and a construct's id is unique among its siblings. Give the Reference an id of its own", ['cdn/Routing/Tls']],
  ]);
});
