/**
 * gitops2: the plan's field diff of lists that server-side apply replaces whole. The Kubernetes 1.30 schema
 * (vendor/k8s-schema, from client-go) gives RBAC `rules[].resourceNames` and a binding's
 * `matchResources.resourceRules` no keys (`elementRelationship: atomic`): their elements have no identity, so the
 * plan names them by index. Lined up as a text diff lines up lines, a name inserted into the middle is one line,
 * not every later name changed. Keyed lists (containers by name, ports by containerPort and protocol) and sets
 * (finalizers) keep diffing by key and by value.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import * as yaml from 'yaml';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting, RuntimeWriter } from '../src';
import { formatPlan } from '../src/cli/format-plan';
import { lineUpPositionalLists } from '../src/release/positional-lists';

afterAll(removeReleaseDirs);

const SCHEMA = path.join(__dirname, '..', 'vendor', 'k8s-schema', 'k8s-1.30.smd-schema.yaml');

/** The text of the plan of `next` against the lock `first` wrote; `declare` builds each release into a routing chart. */
function planOf<V>(first: V, next: V, declare: (routing: RuntimeRouting, v: V) => void, props: object = {}): string {
  const series = newSeries();
  let n = 0;
  const app = (v: V) => {
    const a = new CapabilityApp({ outdir: path.join(series.dir, `dist-${++n}`), lockFile: series.lockFile, ...props });
    declare(new RuntimeRouting(new Capability(a, 'shop'), 'Routing'), v);
    return a;
  };
  capturingOutput(() => withUpdateLock('1', () => app(first).synth()));
  const { violations, plan } = app(next).synthesize();
  expect(coded(violations)).toEqual([]);
  return formatPlan(plan!);
}

/** The lines under the changed object `unit` in the plan's changes against the lock. */
function changedLines(text: string, unit: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`  ~ ${unit}`);
  expect(start).toBeGreaterThan(-1);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('      '));
  return lines.slice(start + 1, end);
}

const role = (routing: RuntimeRouting, names: string[]) => new ApiObject(routing, 'Role', {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'web-restart', namespace: 'shop' },
  rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'patch'], resourceNames: names.map((t) => `web-${t}`) }],
});
const ROLE = 'rbac.authorization.k8s.io/Role shop/web-restart';

describe('the schema makes these lists atomic, which is why the plan names their elements by index', () => {
  test('PolicyRule.resourceNames and Role.rules are atomic lists; NamedRuleWithOperations (a binding\'s resourceRules) an atomic struct', () => {
    const types = (yaml.parse(fs.readFileSync(SCHEMA, 'utf8')) as any).types as any[];
    const fieldOf = (type: string, field: string) => types.find((t) => t.name === type).map.fields.find((f: any) => f.name === field).type;
    expect(fieldOf('io.k8s.api.rbac.v1.PolicyRule', 'resourceNames')).toEqual({ list: { elementType: { scalar: 'string' }, elementRelationship: 'atomic' } });
    expect(fieldOf('io.k8s.api.rbac.v1.Role', 'rules').list.elementRelationship).toBe('atomic');
    expect(types.find((t) => t.name === 'io.k8s.api.admissionregistration.v1.NamedRuleWithOperations').map.elementRelationship).toBe('atomic');
  });
});

describe('a Role\'s resourceNames', () => {
  test('a name inserted into the middle is one added element, the names after it unchanged', () => {
    const text = planOf(['acme', 'globex', 'umbrella'], ['acme', 'globex', 'initech', 'umbrella'], role);
    expect(changedLines(text, ROLE)).toEqual(['      + rules[0].resourceNames[2]: "web-initech"']);
  });

  test('a name removed from the middle is one removed element, by its index in the lock', () => {
    const text = planOf(['acme', 'old', 'globex', 'umbrella'], ['acme', 'globex', 'umbrella'], role);
    expect(changedLines(text, ROLE)).toEqual(['      - rules[0].resourceNames[1]: "web-old"']);
  });

  test('one name added and another removed elsewhere: + and -, nothing between them shown', () => {
    const text = planOf(['acme', 'globex', 'old', 'umbrella'], ['acme', 'initech', 'globex', 'umbrella'], role);
    expect(changedLines(text, ROLE)).toEqual([
      '      + rules[0].resourceNames[1]: "web-initech"',
      '      - rules[0].resourceNames[2]: "web-old"',
    ]);
  });

  test('a name replaced in place is one change', () => {
    const text = planOf(['acme', 'globex', 'umbrella'], ['acme', 'hooli', 'umbrella'], role);
    expect(changedLines(text, ROLE)).toEqual(['      ~ rules[0].resourceNames[1]: "web-globex" -> "web-hooli"']);
  });

  test('a rule inserted before another is one added rule; the rule after it is compared leaf by leaf', () => {
    const rules = (routing: RuntimeRouting, v: { first?: boolean; verbs: string[] }) => new ApiObject(routing, 'Role', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'web-restart', namespace: 'shop' },
      rules: [
        ...(v.first ? [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] : []),
        { apiGroups: ['apps'], resources: ['deployments'], verbs: v.verbs, resourceNames: ['web-acme'] },
      ],
    });
    expect(changedLines(planOf({ verbs: ['get'] }, { first: true, verbs: ['get'] }, rules), ROLE)).toEqual([
      '      + rules[0]: {"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}',
    ]);
    expect(changedLines(planOf({ verbs: ['get'] }, { verbs: ['get', 'patch'] }, rules), ROLE)).toEqual(['      + rules[0].verbs[1]: "patch"']);
  });
});

describe('the field-ownership binding of a kind, bound to its objects by name', () => {
  test('a tenant\'s ConfigMap added in the middle adds its name to resourceNames, and nothing else of the binding', () => {
    const tenants = (routing: RuntimeRouting, names: string[]) => {
      for (const t of names) new ApiObject(routing, `Cfg-${t}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cfg-${t}`, namespace: 'shop' }, data: { level: 'info' } });
      new RuntimeWriter(routing, 'Zoner', { target: { apiVersion: 'v1', kind: 'ConfigMap' }, fields: ['data.zone'], identity: 'system:serviceaccount:shop:zoner', manager: 'zoner' });
    };
    const text = planOf(['acme', 'globex', 'umbrella'], ['acme', 'globex', 'initech', 'umbrella'], tenants,
      { enforce: { deployer: 'system:serviceaccount:flux-system:kustomize-controller' }, gitops: GitOps.flux({ sourceRef: { name: 'platform' } }) });
    expect(changedLines(text, 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding shop.field-owners.configmaps')).toEqual([
      '      + spec.matchResources.resourceRules[0].resourceNames[2]: "cfg-initech"',
    ]);
  });
});

describe('keyed lists and sets keep diffing by key and by value', () => {
  test('a container inserted before another, a port added and a finalizer added: each one line by its key', () => {
    const web = (routing: RuntimeRouting, v: boolean) => new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', finalizers: v ? ['example.com/a', 'example.com/b'] : ['example.com/b'] },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              ...(v ? [{ name: 'proxy', image: 'envoy:1.30' }] : []),
              { name: 'web', image: 'nginx:1.27', ports: v ? [{ containerPort: 80 }, { containerPort: 443 }] : [{ containerPort: 443 }] },
            ],
          },
        },
      },
    });
    expect(changedLines(planOf(false, true, web), 'apps/Deployment shop/web')).toEqual([
      '      + metadata.finalizers[=example.com/a]: "example.com/a"',
      '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}',
      '      + spec.template.spec.containers[name=web].ports[containerPort=80,protocol=TCP]: {"containerPort":80}',
    ]);
  });
});

describe('lineUpPositionalLists', () => {
  test('moves the indexes of the old leaves to the new ones, and names whole elements added and removed', () => {
    const r = lineUpPositionalLists(
      [{ path: 'a[0]', value: 'x' }, { path: 'a[1]', value: 'gone' }, { path: 'a[2]', value: 'y' }, { path: 'b["k[0]"]', value: 1 }],
      [{ path: 'a[0]', value: 'new' }, { path: 'a[1]', value: 'x' }, { path: 'a[2]', value: 'y' }, { path: 'b["k[0]"]', value: 1 }],
    );
    expect(r.oldPaths).toEqual(['a[1]', 'a[1]', 'a[2]', 'b["k[0]"]']);
    expect([...r.oldRemoved]).toEqual([[1, { path: 'a[1]', value: 'gone' }]]);
    expect([...r.newAdded]).toEqual([[0, { path: 'a[0]', value: 'new' }]]);
  });
});

describe('lineUpPositionalLists, for any two lists of names', () => {
  const leaves = (names: string[]) => names.map((value, i) => ({ path: `rules[0].resourceNames[${i}]`, value }));
  test('each old element stays once (at one new index, of an equal or paired element) or is removed whole; each new one is matched or added whole (a list both have)', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 12 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 12 }), (a, b) => {
      const r = lineUpPositionalLists(leaves(a), leaves(b));
      const kept = r.oldPaths.filter((_, n) => !r.oldRemoved.has(n));
      expect(new Set(kept).size).toBe(kept.length);
      const newPaths = new Set(leaves(b).map((l) => l.path));
      for (const p of kept) expect(newPaths.has(p)).toBe(true);
      expect(kept.length + r.newAdded.size).toBe(b.length);
      expect(kept.length + r.oldRemoved.size).toBe(a.length);
      // the elements kept unchanged are at least a longest common subsequence's worth
      const unchanged = r.oldPaths.filter((p, n) => !r.oldRemoved.has(n) && b[Number(/\[(\d+)\]$/.exec(p)![1])] === a[n]).length;
      expect(unchanged).toBe(lcs(a, b));
    }));
  });
  test('equal lists change nothing', () => {
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 20 }), (a) => {
      const r = lineUpPositionalLists(leaves(a), leaves(a));
      expect(r.oldPaths).toEqual(leaves(a).map((l) => l.path));
      expect(r.oldRemoved.size + r.newAdded.size).toBe(0);
    }));
  });
});

/** The length of a longest common subsequence. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  }
  return t[0][0];
}
