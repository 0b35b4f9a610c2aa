import * as fc from 'fast-check';
import { danglingReferences } from '../src/check/rules/dangling-references';
import type { Facts, ObjectFact } from '../src/collect/facts';
import { effectiveNamespace } from '../src/collect/object-identity';
import * as podSpec from '../src/collect/pod-spec';
import { podLabelsOf, selects } from '../src/collect/pod-spec';

/** The Services whose selector matches no workload's pods in their namespace, every workload tried: the oracle, as the rule was. */
function unselectingServices(facts: Facts): string[] {
  const workloads: Array<{ namespace: string; labels: Record<string, string> }> = [];
  for (const o of facts.objects) {
    const labels = podLabelsOf(o.identity.group, o.identity.kind, o.manifest);
    if (labels) workloads.push({ namespace: effectiveNamespace(o.identity) ?? '', labels });
  }
  for (const p of facts.externalPods) workloads.push({ namespace: p.namespace, labels: { ...p.labels } });
  return facts.objects.filter((o) => {
    if (o.identity.group !== '' || o.identity.kind !== 'Service' || o.manifest.spec?.type === 'ExternalName' || o.duplicateOf !== undefined) return false;
    const selector = o.manifest.spec?.selector;
    if (!selector || Object.keys(selector).length === 0) return false;
    return !workloads.some((w) => w.namespace === (effectiveNamespace(o.identity) ?? '') && selects(selector, w.labels));
  }).map((o) => o.declarer);
}

function factsOf(objects: ObjectFact[], externalPods: Facts['externalPods'] = []): Facts {
  return { objects, references: [], externals: [], externalPods } as unknown as Facts;
}

function object(i: number, kind: string, namespace: string | undefined, manifest: any): ObjectFact {
  const group = kind === 'Deployment' ? 'apps' : '';
  return { path: `app/O${i}/Resource`, declarer: `app/O${i}`, chart: 'app', identity: { group, kind, namespace, name: `o${i}` }, key: `${kind}/${i}`, manifest };
}

describe('Services whose selector matches no workload, found through an index of pod labels', () => {
  const key = fc.constantFrom('app', 'tier', 'cdk8s.io/metadata.addr', 'constructor', '__proto__', '0');
  const value = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('web', 'api', 'x') }, { weight: 1, arbitrary: fc.constantFrom(1, null, Number.NaN) });
  const labels = fc.dictionary(key, value, { maxKeys: 3, noNullPrototype: false });
  const odd = fc.oneof(fc.constantFrom('web', ['web']), labels.map((l) => Object.create(l)));
  const member = fc.record({
    kind: fc.constantFrom('Service', 'Service', 'Deployment', 'Pod', 'ConfigMap'),
    namespace: fc.constantFrom('shop', 'lab', '', undefined),
    labels: fc.oneof({ weight: 6, arbitrary: labels }, { weight: 1, arbitrary: odd }),
    type: fc.constantFrom(undefined, undefined, 'ExternalName'),
  });

  test('the Services found are those no workload of their namespace matches, every workload tried, in the same order', () => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(member, { maxLength: 30, size: 'max' }), fc.array(fc.record({ namespace: fc.constantFrom('shop', 'default'), labels }), { maxLength: 2 }), (members, pods) => {
        const objects = members.map((m, i) => m.kind === 'Service'
          ? object(i, 'Service', m.namespace, { spec: { selector: m.labels, ...(m.type ? { type: m.type } : {}) } })
          : m.kind === 'Deployment'
            ? object(i, 'Deployment', m.namespace, { spec: { template: { metadata: { labels: m.labels }, spec: { containers: [] } } } })
            : object(i, m.kind, m.namespace, { metadata: { labels: m.labels } }));
        const facts = factsOf(objects, pods as unknown as Facts['externalPods']);
        const paths = danglingReferences.run({ facts, claims: [] }).map((f) => f.paths[0]);
        expect(paths).toEqual(unselectingServices(facts));
        found += paths.length;
      }),
      { numRuns: 500 },
    );
    expect(found).toBeGreaterThan(100);
  });

  test('2,000 tenants, each a Service and a Deployment of its own labels: each Service is tried on its own pods, not on every workload', () => {
    // GIVEN cdk8s-plus' shape, one namespace; the last Service selects pods nobody has
    const objects: ObjectFact[] = [];
    for (let t = 0; t < 2000; t++) {
      const pods = { 'cdk8s.io/metadata.addr': `tenant${t}` };
      objects.push(object(2 * t, 'Deployment', 'shop', { spec: { template: { metadata: { labels: pods }, spec: { containers: [] } } } }));
      objects.push(object(2 * t + 1, 'Service', 'shop', { spec: { selector: t === 1999 ? { 'cdk8s.io/metadata.addr': 'none' } : { ...pods } } }));
    }
    const compared = jest.spyOn(podSpec, 'selects');
    try {
      // WHEN
      const found = danglingReferences.run({ facts: factsOf(objects), claims: [] });

      // THEN one Service found, with one comparison per Service that has pods (every workload would be about 2,000,000)
      expect(found.map((f) => f.paths)).toEqual([['app/O3999']]);
      expect(compared.mock.calls.length).toBe(1999);
    } finally {
      compared.mockRestore();
    }
  });
});
