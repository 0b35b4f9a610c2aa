/**
 * The text plan shows a long string (past 160 characters: the CEL expression of a field-ownership policy, an
 * inline document) by where it changed, not whole on both sides; `plan.json` keeps every value whole.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { formatPlan } from '../src/cli/format-plan';
import { terseFields } from '../src/cli/terse-fields';

afterAll(removeReleaseDirs);

const A = 'a'.repeat(200);

describe('a long string in the text plan', () => {
  test('changed in its middle: only the window around the change, with context, lengths and where', () => {
    const before = `${A}old${A}`;
    const after = `${A}newer${A}`;
    expect(terseFields([{ path: 'data.doc', before, after }])).toEqual([{
      sign: '~',
      path: 'data.doc',
      text: `: ..."${'a'.repeat(30)}old${'a'.repeat(30)}"... -> ..."${'a'.repeat(30)}newer${'a'.repeat(30)}"... (403 -> 405 characters, first differing at 201; plan.json has both whole)`,
    }]);
  });

  test('added, removed, or changed from a short value: its first 60 characters and its length', () => {
    const long = `${'x'.repeat(100)}${A}`;
    expect(terseFields([
      { path: 'data.added', after: long },
      { path: 'data.removed', before: long },
      { path: 'data.grown', before: 'short', after: long },
    ]).map((l) => `${l.sign} ${l.path}${l.text}`)).toEqual([
      `+ data.added: "${'x'.repeat(60)}"... (300 characters)`,
      `- data.removed: "${'x'.repeat(60)}"... (300 characters)`,
      `~ data.grown: "short" -> "${'x'.repeat(60)}"... (300 characters)`,
    ]);
  });

  test('a short string, a number and a masked value are shown whole, as before', () => {
    expect(terseFields([
      { path: 'spec.replicas', before: 2, after: 3 },
      { path: 'data.k', before: 'a', after: 'b' },
      { path: 'data.s', before: '(sensitive)', after: '(sensitive, changed)' },
    ]).map((l) => l.text)).toEqual([': 2 -> 3', ': "a" -> "b"', ': (sensitive) -> (sensitive, changed)']);
  });

  test('a cut never splits a surrogate pair', () => {
    const emoji = '\u{1F600}';
    const line = terseFields([{ path: 'data.e', after: `${'x'.repeat(59)}${emoji}${A}` }])[0];
    expect(line.text).toBe(`: "${'x'.repeat(59)}${emoji}"... (261 characters)`);
  });
});

/** A ConfigMap `shop/settings`, enforced, and a RuntimeWriter of one or two of its keys. */
function zoned(series: ReturnType<typeof newSeries>, keys: 1 | 2): CapabilityApp {
  const app = new CapabilityApp({ outdir: path.join(series.dir, `dist-${keys}`), lockFile: series.lockFile, enforce: { deployer: 'system:serviceaccount:flux-system:kustomize-controller' } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'fast' } });
  const fields = keys === 1 ? ['data.zone'] : ['data.zone', 'data.region'];
  new RuntimeWriter(routing, 'Zoner', { target: settings, fields, identity: 'system:serviceaccount:zones:zoner', manager: 'zoner' });
  return app;
}

test("a runtime writer given one more field: the policy's expressions are shown where they changed, plan.json has them whole", () => {
  // GIVEN a release, enforced, whose zoner writes data.zone
  const series = newSeries();
  capturingOutput(() => withUpdateLock('1', () => zoned(series, 1).synth()));

  // WHEN the next one lets it write data.region too
  const { violations, plan } = zoned(series, 2).synthesize();
  expect(violations).toEqual([]);

  // THEN the policy's long expressions changed, each shown by a window of each side, and plan.json holds them whole
  const text = formatPlan(plan!);
  const long = plan!.changes.fields.flatMap((u) => u.fields.filter((f) => typeof f.after === 'string' && f.after.length > 160));
  expect(long.length).toBeGreaterThan(0);
  for (const f of long) expect(text).toContain(`${f.path}: "`);
  expect(text).toMatch(/ \(\d+ -> \d+ characters, first differing at \d+; plan\.json has both whole\)\n/);
  expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThan(600);
});
