import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { loadSnippet, pageSection } from './doc-snippets';
import { coded, newSeries, releaseDir, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput, TEARDOWN_AFTER_APPLY } from './util';
import { Capability, CapabilityApp, CapabilityAppProps, Plan, RuntimeRouting } from '../src';
import { formatTeardown } from '../src/cli/format-teardown';
import { main } from '../src/cli/main';

// When each teardown step runs against applying the release that removes what it deletes: the field-ownership
// policies and bindings before (they would refuse its writes), everything else after (the previous release,
// live until then, may still use it).

afterAll(removeReleaseDirs);

const ROOT = path.join(__dirname, '..');

/** The majors migration of docs/releases.md: release 2b removes the ExternalSecret of v1, which worker reads until 2b is applied. */
const section = pageSection(path.join(ROOT, 'docs', 'releases.md'), 'A major bump without breaking readers');
const { release } = loadSnippet(section.snippets[0]) as { release: (name: string, props?: CapabilityAppProps) => CapabilityApp };

let outdirs = 0;

function documented(series: ReleaseSeries, name: string): CapabilityApp {
  return release(name, { lockFile: series.lockFile, outdir: path.join(series.dir, `dist-${++outdirs}`) });
}

/** The plan of release 2b against the lock of release 2. */
function release2b(): Plan {
  const series = newSeries();
  for (const name of ['1', '2']) capturingOutput(() => withUpdateLock('1', () => documented(series, name).synth()));
  const { violations, plan } = documented(series, '2b').synthesize();
  expect(coded(violations)).toEqual([]);
  return plan!;
}

/** After-apply closing lines of a runtime-only teardown. */
const AFTER_APPLY_RUNTIME = TEARDOWN_AFTER_APPLY;

/** A release of capability shop with enforce: ConfigMap default/cm and, unless left out, ServiceAccount default/sa. */
function enforced(series: ReleaseSeries, serviceAccount: boolean): CapabilityApp {
  const app = new CapabilityApp({ outdir: path.join(series.dir, `dist-${++outdirs}`), lockFile: series.lockFile, enforce: { deployer: 'system:serviceaccount:ci:deployer' } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { a: '1' } });
  if (serviceAccount) new ApiObject(routing, 'Sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'default' }, automountServiceAccountToken: false });
  return app;
}

/** The plan of the enforced release without its ServiceAccount, against the lock of the one with it. */
function serviceAccountRemoved(): Plan {
  const series = newSeries();
  capturingOutput(() => withUpdateLock('1', () => enforced(series, true).synth()));
  const { violations, plan } = enforced(series, false).synthesize();
  expect(coded(violations)).toEqual([]);
  return plan!;
}

/** `cdk-capability plan --plan <file> ...flags`, with what it printed. */
function planCommand(plan: unknown, ...flags: string[]): { code: number; stdout: string; stderr: string } {
  const file = path.join(releaseDir(), 'plan.json');
  fs.writeFileSync(file, JSON.stringify(plan));
  const run = capturingOutput(() => main(['plan', '--plan', file, ...flags]));
  return { code: run.result, stdout: run.stdout, stderr: run.stderr };
}

describe('teardown timing: each step says whether it runs before or after the release is applied', () => {
  test('release 2b deletes the ExternalSecret worker read only after the release is applied, in plan.json and in the text', () => {
    // GIVEN releases 1 and 2 accepted: worker reads the Secret of shop-edge-interface (v1) until 2b is applied
    // WHEN release 2b moves worker to v2 and removes that ExternalSecret
    const plan = release2b();

    // THEN its one step is after-apply, and the text puts it under that heading and says why
    expect(plan.teardown.steps).toEqual([{
      lifecycle: 'runtime',
      when: 'after-apply',
      units: ['external-secrets.io/ExternalSecret shop-edge-interface'],
      commands: ['kubectl delete --wait=true --ignore-not-found --namespace default externalsecret.external-secrets.io/shop-edge-interface'],
    }]);
    expect(formatTeardown(plan).split('\n')).toEqual([
      'Teardown: 1 to delete, in 1 step, in this order:',
      '',
      'After applying this release:',
      '  1. runtime external-secrets.io/ExternalSecret shop-edge-interface',
      '       $ kubectl delete --wait=true --ignore-not-found --namespace default externalsecret.external-secrets.io/shop-edge-interface',
      '',
      'Kept: stack shop/Base; 3 objects.',
      '',
      ...AFTER_APPLY_RUNTIME,
      '',
    ]);
  });

  test('the field-ownership policies go right after the release\'s field-ownership step, the object they protected after the release', () => {
    // GIVEN the lock of shop with enforce, a ConfigMap and a ServiceAccount
    // WHEN the next release removes the ServiceAccount (and so its policy and binding)
    const plan = serviceAccountRemoved();

    // THEN the policy's step is after-field-ownership, the ServiceAccount's after-apply, each under its heading
    expect(plan.teardown.steps.map((s) => [s.when, s.fieldOwnership ?? false, s.units.length])).toEqual([['after-field-ownership', true, 2], ['after-apply', false, 1]]);
    const text = formatTeardown(plan).split('\n');
    expect(text.filter((l) => !l.startsWith('  ') && l !== '').slice(0, 4)).toEqual([
      'Teardown: 3 to delete, in 2 steps, in this order:',
      'Right after this release\'s field-ownership step (cdk-capability apply runs it):',
      'After applying this release:',
      'Kept: no stack; 3 objects.',
    ]);
    expect(text.slice(text.indexOf('After applying this release:'), text.indexOf('After applying this release:') + 3)).toEqual([
      'After applying this release:',
      '  2. runtime ServiceAccount default/sa',
      '       $ kubectl delete --wait=true --ignore-not-found --namespace default serviceaccount/sa',
    ]);
    expect(text.slice(-(AFTER_APPLY_RUNTIME.length + 1))).toEqual([...AFTER_APPLY_RUNTIME, '']);
  });

  test('a plan.json written before steps said when reads as the timing it told, in the text and in --json', () => {
    // GIVEN the plan above as an earlier version wrote it: no `when` on its steps
    const plan = serviceAccountRemoved();
    const earlier = { ...plan, teardown: { ...plan.teardown, steps: plan.teardown.steps.map(({ when, ...rest }) => rest) } };

    // WHEN plan --teardown reads each, as text and as JSON
    const text = planCommand(earlier, '--teardown');
    const json = planCommand(earlier, '--teardown', '--json');

    // THEN the text is the plan's with the field-ownership step before the release is applied, as those plans told,
    // and the JSON fills `when` in, valid against the schema
    const told = { ...plan, teardown: { ...plan.teardown, steps: plan.teardown.steps.map((s, i) => (i === 0 ? { ...s, when: 'before-apply' as const } : s)) } };
    expect(text).toEqual({ code: 2, stdout: formatTeardown(told), stderr: '' });
    expect(text.stdout.split('\n')).toEqual(expect.arrayContaining([
      'Before applying this release:',
      'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce): run it',
      'before the release is applied (cdk-capability apply, or the commit your GitOps engine applies). Until',
    ]));
    const output = JSON.parse(json.stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'teardown-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(output) ? [] : validate.errors).toEqual([]);
    expect(output.teardown.steps.map((s: any) => s.when)).toEqual(['before-apply', 'after-apply']);
  });

  test('--json of a current plan gives each step its `when`, as plan.json holds it', () => {
    // GIVEN the plan of release 2b
    const plan = release2b();

    // WHEN
    const json = planCommand(plan, '--teardown', '--json');

    // THEN the teardown as plan.json holds it, its one step after-apply
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).teardown).toEqual(plan.teardown);
    expect(JSON.parse(json.stdout).teardown.steps.map((s: any) => s.when)).toEqual(['after-apply']);
  });
});
