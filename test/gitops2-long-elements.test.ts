/**
 * gitops2, day 3: a RuntimeWriter added to a ConfigMap under `enforce` adds whole validations to the kind's
 * field-ownership policy. An element added or removed whole is one line with the element as its value; past
 * LONG_VALUE characters of JSON the text plan cuts it, as it cuts a long string, and plan.json keeps it whole.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { coded, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { Capability, CapabilityApp, GitOps, RuntimeRouting, RuntimeWriter } from '../src';
import { formatPlan } from '../src/cli/format-plan';
import { LONG_VALUE, terseFields } from '../src/cli/terse-fields';

afterAll(removeReleaseDirs);

test('an element added whole whose JSON is long is cut in the text, with its length', () => {
  const element = { name: 'v', expression: 'x'.repeat(200) };
  const json = JSON.stringify(element);
  expect(terseFields([{ path: 'spec.validations[1]', after: element }])).toEqual([
    { sign: '+', path: 'spec.validations[1]', text: `: ${json.slice(0, LONG_VALUE)}... (${json.length} characters of JSON; plan.json has it whole)` },
  ]);
  // a short one is shown whole, as before
  expect(terseFields([{ path: 'rules[0]', before: { verbs: ['get'] } }])).toEqual([{ sign: '-', path: 'rules[0]', text: ': {"verbs":["get"]}' }]);
});

test('a RuntimeWriter added to a ConfigMap Flux applies: the policy\'s new validations are one cut line each; plan.json has them whole', () => {
  const series = newSeries();
  let n = 0;
  const app = (reloader: boolean) => {
    const a = new CapabilityApp({
      outdir: path.join(series.dir, `dist-${++n}`),
      lockFile: series.lockFile,
      gitops: GitOps.flux({ sourceRef: { name: 'platform' } }),
      enforce: { deployer: 'system:serviceaccount:flux-system:kustomize-controller' },
    });
    const routing = new RuntimeRouting(new Capability(a, 'shop'), 'Routing');
    const cfg = new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: reloader ? { level: 'info' } : { level: 'info', mode: 'on' } });
    new RuntimeWriter(routing, 'Zoner', { target: cfg, fields: ['data.zone'], identity: 'system:serviceaccount:shop:zoner', manager: 'zoner' });
    if (reloader) new RuntimeWriter(routing, 'Reloader', { target: cfg, fields: ['data.mode'], identity: 'system:serviceaccount:shop:reloader', manager: 'reloader' });
    return a;
  };
  capturingOutput(() => withUpdateLock('1', () => app(false).synth()));
  const { violations, plan } = app(true).synthesize();
  expect(coded(violations)).toEqual([]);
  const lines = formatPlan(plan!).split('\n').filter((l) => l.startsWith('      + spec.validations['));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^ {6}\+ spec\.validations\[\d\]: \{.{150,170}\.\.\. \(\d+ characters of JSON; plan\.json has it whole\)$/);
  const whole = plan!.changes.fields.flatMap((u) => u.fields).filter((f) => /^spec\.validations\[\d\]$/.test(f.path));
  expect(whole.every((f) => typeof (f.after as any).expression === 'string' && (f.after as any).message.length > 0)).toBe(true);
});
