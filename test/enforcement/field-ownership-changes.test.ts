// The objects of the field-ownership step (enforce) as objects of the release: added, changed and removed
// ones in `cdk-capability plan` (+, ~, -, exit 2), the lock and the teardown, as for any object.
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, EnforceOptions, RuntimeRouting } from '../../src';
import { main } from '../../src/cli/main';
import { Lock, writeLock } from '../../src/release/lock';
import { newSeries, ReleaseSeries, removeReleaseDirs, withUpdateLock } from '../release-fixtures';
import { capturingOutput, TEARDOWN_AFTER_APPLY } from '../util';

afterAll(removeReleaseDirs);

const DEPLOYER = 'system:serviceaccount:ci:deployer';

/** A release of capability shop: ConfigMap default/cm and, unless left out, ServiceAccount default/sa. */
interface Variant {
  readonly enforce?: EnforceOptions;
  readonly serviceAccount?: boolean;
  readonly configMap?: boolean;
}

const ENFORCED: Variant = { enforce: { deployer: DEPLOYER } };

let outdirs = 0;

function appOf(series: ReleaseSeries, v: Variant): CapabilityApp {
  const app = new CapabilityApp({ outdir: path.join(series.dir, `dist-${++outdirs}`), lockFile: series.lockFile, ...(v.enforce ? { enforce: v.enforce } : {}) });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  if (v.configMap ?? true) new ApiObject(routing, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { a: '1' } });
  if (v.serviceAccount ?? true) new ApiObject(routing, 'Sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'default' }, automountServiceAccountToken: false });
  return app;
}

/** A series whose lock is the one `v` writes with CDK_CAPABILITY_UPDATE_LOCK=1. */
function lockedWith(v: Variant): ReleaseSeries {
  const series = newSeries();
  withUpdateLock('1', () => appOf(series, v).synth());
  return series;
}

/** Synthesizes `v` against the series' lock, then runs `cdk-capability plan --plan` (or `--teardown`) on its plan.json. */
function plan(series: ReleaseSeries, v: Variant, ...flags: string[]): { code: number; stdout: string } {
  const app = appOf(series, v);
  withUpdateLock(undefined, () => app.synth());
  const run = capturingOutput(() => main(['plan', '--plan', path.join(app.outdir, 'plan.json'), ...flags]));
  if (run.stderr !== '') throw new Error(run.stderr);
  return { code: run.result, stdout: run.stdout };
}

/** The series' lock as an earlier version wrote it: `fieldOwnershipPolicies`, and no unit of a policy. */
function legacy(series: ReleaseSeries): void {
  const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')) as Lock;
  const policies = lock.units.filter((u) => u.path === 'field-ownership').length;
  expect(policies).toBe(4);
  writeLock(series.lockFile, {
    ...lock,
    units: lock.units.slice(policies),
    edges: lock.edges.map(([from, to, reason]): [number, number, string] => [from - policies, to - policies, reason]),
  });
}

const POLICY = 'admissionregistration.k8s.io/ValidatingAdmissionPolicy';
const BINDING = 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding';

/** What the plan says under removed policies: the teardown's first step deletes them, which apply runs after its field-ownership step. */
const STILL_REFUSING = '  (the field-ownership policies and bindings removed go on refusing writes until they are deleted: '
  + 'cdk-capability apply deletes them right after its field-ownership step (step 1 of cdk-capability plan --teardown))';

/** The plan's step lines with enforce and both objects. */
const STEPS_ENFORCED = [
  'Steps, in apply order:',
  '  1. runtime field-ownership  (4 objects: runtime/0000-field-ownership.yaml)',
  '  2. runtime shop/Routing  (2 objects: runtime/0001-shop-routing.yaml)',
  '       after field-ownership: field-ownership policy before the objects it protects',
];

/** The text of a plan: its summary line, the steps and the rest, each line a line. */
function text(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

/** `deployer` as the policies' first validation writes it: its expression, message and messageExpression. */
function deployerLines(kind: string, deployer: string): string[] {
  return [
    `"request.userInfo.username == '${deployer}' || variables.unchanged_deployer.all(f, variables.unchanged_deployer[f])"`,
    `"fields of ${kind} that belong to the deployer (${deployer}) may be changed only by that identity"`,
    `"variables.unchanged_deployer.filter(f, !variables.unchanged_deployer[f]).join(', ') + ' of ${kind} ' + (request.namespace == '' ? '' : request.namespace + '/') + request.name + ' belong to the deployer (${deployer}): only that identity may change them, not ' + request.userInfo.username"`,
  ];
}

describe('cdk-capability plan against a lock written with enforce', () => {
  const locked = lockedWith(ENFORCED);

  test('the same policies: nothing changes, exit 0', () => {
    // WHEN the release is synthesized again as it was locked
    const run = plan(locked, ENFORCED);

    // THEN
    expect(run).toEqual({ code: 0, stdout: text('Plan: 0 to add, 0 to change, 0 to remove.', '', ...STEPS_ENFORCED, '', 'Changes against the lock:', '  (none)') });
  });

  test('(a) enforce removed: every policy and binding is removed, with what deletes them, exit 2', () => {
    // WHEN the release leaves enforce out
    const run = plan(locked, {});

    // THEN the four objects of the field-ownership step are removed, and nothing refuses their removal
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Plan: 0 to add, 0 to change, 4 to remove.',
        '',
        'Steps, in apply order:',
        '  1. runtime shop/Routing  (2 objects: runtime/0001-shop-routing.yaml)',
        '',
        'Changes against the lock:',
        `  - ${POLICY} shop.field-owners.configmaps`,
        `  - ${BINDING} shop.field-owners.configmaps`,
        `  - ${POLICY} shop.field-owners.serviceaccounts`,
        `  - ${BINDING} shop.field-owners.serviceaccounts`,
        STILL_REFUSING,
      ),
    });
  });

  test('(b) another deployer: each policy changes, with the identity in its expression and messages, exit 2', () => {
    // GIVEN
    const other = 'system:serviceaccount:ci:other';

    // WHEN
    const run = plan(locked, { enforce: { deployer: other } });

    // THEN
    const changed = (kind: string) => {
      const [expression, message, messageExpression] = deployerLines(kind, DEPLOYER);
      const [expression2, message2, messageExpression2] = deployerLines(kind, other);
      return [
        `      ~ spec.validations[0].expression: ${expression} -> ${expression2}`,
        `      ~ spec.validations[0].message: ${message} -> ${message2}`,
        // past 160 characters the text plan shows where the two differ (plan.json has both whole)
        `      ~ spec.validations[0].messageExpression: ..."yer (${DEPLOYER}): only that identity may ch"... -> ..."yer (${other}): only that identity may ch"... `
        + `(${JSON.parse(messageExpression).length} -> ${JSON.parse(messageExpression2).length} characters, first differing at ${firstDifference[kind]}; plan.json has both whole)`,
      ];
    };
    const firstDifference: Record<string, number> = { ConfigMap: 231, ServiceAccount: 236 };
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Plan: 0 to add, 2 to change, 0 to remove.',
        '',
        ...STEPS_ENFORCED,
        '',
        'Changes against the lock:',
        `  ~ ${POLICY} shop.field-owners.configmaps`,
        ...changed('ConfigMap'),
        `  ~ ${POLICY} shop.field-owners.serviceaccounts`,
        ...changed('ServiceAccount'),
      ),
    });
  });

  test("(c) validationActions ['Deny'] to ['Warn', 'Audit'] (the emergency switch): each binding changes, exit 2", () => {
    // WHEN
    const run = plan(locked, { enforce: { deployer: DEPLOYER, validationActions: ['Warn', 'Audit'] } });

    // THEN
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Plan: 0 to add, 2 to change, 0 to remove.',
        '',
        ...STEPS_ENFORCED,
        '',
        'Changes against the lock:',
        `  ~ ${BINDING} shop.field-owners.configmaps`,
        '      + spec.validationActions[=Warn]: "Warn"',
        '      + spec.validationActions[=Audit]: "Audit"',
        '      - spec.validationActions[=Deny]: "Deny"',
        `  ~ ${BINDING} shop.field-owners.serviceaccounts`,
        '      + spec.validationActions[=Warn]: "Warn"',
        '      + spec.validationActions[=Audit]: "Audit"',
        '      - spec.validationActions[=Deny]: "Deny"',
      ),
    });
  });

  test('(e) the only ServiceAccount removed: its policy and binding are removed with it, exit 2', () => {
    // WHEN
    const run = plan(locked, { ...ENFORCED, serviceAccount: false });

    // THEN
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Plan: 0 to add, 0 to change, 3 to remove.',
        '',
        'Steps, in apply order:',
        '  1. runtime field-ownership  (2 objects: runtime/0000-field-ownership.yaml)',
        '  2. runtime shop/Routing  (1 object: runtime/0001-shop-routing.yaml)',
        '       after field-ownership: field-ownership policy before the objects it protects',
        '',
        'Changes against the lock:',
        `  - ${POLICY} shop.field-owners.serviceaccounts`,
        `  - ${BINDING} shop.field-owners.serviceaccounts`,
        '  - ServiceAccount default/sa',
        STILL_REFUSING,
      ),
    });
  });

  test('a policy removed and another added in one release is no rename', () => {
    // GIVEN the lock of the ConfigMap alone, with enforce
    const series = lockedWith({ ...ENFORCED, serviceAccount: false });

    // WHEN the next release has the ServiceAccount instead
    const run = plan(series, { ...ENFORCED, configMap: false });

    // THEN the policies of ConfigMaps go and those of ServiceAccounts come; no construct renamed anything
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Plan: 3 to add, 0 to change, 3 to remove.',
        '',
        'Steps, in apply order:',
        '  1. runtime field-ownership  (2 objects: runtime/0000-field-ownership.yaml)',
        '  2. runtime shop/Routing  (1 object: runtime/0001-shop-routing.yaml)',
        '       after field-ownership: field-ownership policy before the objects it protects',
        '',
        'Changes against the lock:',
        `  + ${POLICY} shop.field-owners.serviceaccounts`,
        `  + ${BINDING} shop.field-owners.serviceaccounts`,
        '  + ServiceAccount default/sa',
        `  - ${POLICY} shop.field-owners.configmaps`,
        `  - ${BINDING} shop.field-owners.configmaps`,
        '  - ConfigMap default/cm',
        STILL_REFUSING,
      ),
    });
  });
});

test('(d) enforce turned on against a lock without it: every policy and binding is added, exit 2', () => {
  // GIVEN a lock written without enforce
  const series = lockedWith({});

  // WHEN
  const run = plan(series, ENFORCED);

  // THEN
  expect(run).toEqual({
    code: 2,
    stdout: text(
      'Plan: 4 to add, 0 to change, 0 to remove.',
      '',
      ...STEPS_ENFORCED,
      '',
      'Changes against the lock:',
      `  + ${POLICY} shop.field-owners.configmaps`,
      `  + ${BINDING} shop.field-owners.configmaps`,
      `  + ${POLICY} shop.field-owners.serviceaccounts`,
      `  + ${BINDING} shop.field-owners.serviceaccounts`,
    ),
  });
});

describe('a lock that records the policies by kind and name only (written before they were units)', () => {
  test('the same release shows each policy changed, saying the lock holds no values of it, exit 2', () => {
    // GIVEN
    const series = lockedWith(ENFORCED);
    legacy(series);

    // WHEN
    const run = plan(series, ENFORCED);

    // THEN
    const note = '      (the lock holds no field values (written by an earlier version); the next lock will)';
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Plan: 0 to add, 4 to change, 0 to remove.',
        '',
        ...STEPS_ENFORCED,
        '',
        'Changes against the lock:',
        `  ~ ${POLICY} shop.field-owners.configmaps`,
        note,
        `  ~ ${BINDING} shop.field-owners.configmaps`,
        note,
        `  ~ ${POLICY} shop.field-owners.serviceaccounts`,
        note,
        `  ~ ${BINDING} shop.field-owners.serviceaccounts`,
        note,
      ),
    });
  });

  test('enforce removed: each policy it recorded is removed, exit 2', () => {
    // GIVEN
    const series = lockedWith(ENFORCED);
    legacy(series);

    // WHEN
    const run = plan(series, {});

    // THEN
    expect(run.code).toBe(2);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('  - ') || l.startsWith('Plan:'))).toEqual([
      'Plan: 0 to add, 0 to change, 4 to remove.',
      `  - ${POLICY} shop.field-owners.configmaps`,
      `  - ${BINDING} shop.field-owners.configmaps`,
      `  - ${POLICY} shop.field-owners.serviceaccounts`,
      `  - ${BINDING} shop.field-owners.serviceaccounts`,
    ]);
  });
});

describe('cdk-capability plan --teardown against a lock written with enforce', () => {
  const locked = lockedWith(ENFORCED);
  const AFTER_FIELD_OWNERSHIP = [
    '',
    'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce).',
    'cdk-capability apply runs it itself, right after the release\'s field-ownership step has put the',
    'release\'s own policies in force, and before it writes any object: until then the old ones protect what',
    'they protected (an object whose policy this release renames included), and from then on none of them',
    'judges a write of the release (docs/enforcement.md). Do not run it before the release is applied.',
  ];
  /** The same, for a release without a field-ownership step of its own (enforce removed). */
  const AT_FIRST_STEP = [
    '',
    'Step 1 deletes the field-ownership policies and bindings this release no longer has (enforce).',
    'cdk-capability apply runs it itself, at the start of its first runtime step, before it writes any',
    'object: from then on none of them judges a write of the release (docs/enforcement.md).',
  ];
  const HEADING = 'Right after this release\'s field-ownership step (cdk-capability apply runs it):';
  const RUN_IN_ORDER = ['', 'Run the steps in order, each after the one before has finished.'];
  const AFTER_APPLY = TEARDOWN_AFTER_APPLY;
  const deleteCommand = (...objects: Array<[kind: string, name: string]>) =>
    `       $ kubectl delete --wait=true --ignore-not-found ${objects.map(([kind, name]) => `${kind.toLowerCase()}.admissionregistration.k8s.io/${name}`).join(' ')}`;

  test('(a) enforce removed: the bindings, then the policies, in one step, exit 2', () => {
    // WHEN
    const run = plan(locked, {}, '--teardown');

    // THEN
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Teardown: 4 to delete, in 1 step, in this order:',
        '',
        HEADING,
        `  1. runtime ${BINDING} shop.field-owners.configmaps, ${BINDING} shop.field-owners.serviceaccounts, ${POLICY} shop.field-owners.configmaps, ${POLICY} shop.field-owners.serviceaccounts`,
        deleteCommand(
          ['ValidatingAdmissionPolicyBinding', 'shop.field-owners.configmaps'],
          ['ValidatingAdmissionPolicyBinding', 'shop.field-owners.serviceaccounts'],
          ['ValidatingAdmissionPolicy', 'shop.field-owners.configmaps'],
          ['ValidatingAdmissionPolicy', 'shop.field-owners.serviceaccounts'],
        ),
        '',
        'Kept: no stack; 2 objects.',
        ...AT_FIRST_STEP,
        ...RUN_IN_ORDER,
      ),
    });
  });

  test('(e) the only ServiceAccount removed: its binding and policy first, then the ServiceAccount, exit 2', () => {
    // WHEN
    const run = plan(locked, { ...ENFORCED, serviceAccount: false }, '--teardown');

    // THEN
    expect(run).toEqual({
      code: 2,
      stdout: text(
        'Teardown: 3 to delete, in 2 steps, in this order:',
        '',
        HEADING,
        `  1. runtime ${BINDING} shop.field-owners.serviceaccounts, ${POLICY} shop.field-owners.serviceaccounts`,
        deleteCommand(['ValidatingAdmissionPolicyBinding', 'shop.field-owners.serviceaccounts'], ['ValidatingAdmissionPolicy', 'shop.field-owners.serviceaccounts']),
        '',
        'After applying this release:',
        '  2. runtime ServiceAccount default/sa',
        '       $ kubectl delete --wait=true --ignore-not-found --namespace default serviceaccount/sa',
        '',
        'Kept: no stack; 3 objects.',
        ...AFTER_FIELD_OWNERSHIP,
        '',
        ...AFTER_APPLY,
      ),
    });
  });

  test('--json marks the step of the policies, valid against docs/teardown-output.schema.json', () => {
    // WHEN
    const run = plan(locked, { ...ENFORCED, serviceAccount: false }, '--teardown', '--json');

    // THEN
    const output = JSON.parse(run.stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'teardown-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(output) ? [] : validate.errors).toEqual([]);
    expect(run.code).toBe(2);
    expect(output.teardown.steps.map((s: any) => [s.units.length, s.fieldOwnership, s.when])).toEqual([[2, true, 'after-field-ownership'], [1, undefined, 'after-apply']]);
  });

  test('changed policies and bindings delete nothing: exit 0', () => {
    // WHEN the deployer and the validation actions change
    const run = plan(locked, { enforce: { deployer: 'system:serviceaccount:ci:other', validationActions: ['Warn', 'Audit'] } }, '--teardown');

    // THEN
    expect(run).toEqual({ code: 0, stdout: 'Teardown: nothing to delete (this release removes nothing from the lock).\n' });
  });

  test('a lock that records them by kind and name only: enforce removed deletes each one it records', () => {
    // GIVEN the lock as an earlier version wrote it
    const series = lockedWith(ENFORCED);
    legacy(series);

    // WHEN
    const run = plan(series, {}, '--teardown');

    // THEN
    expect(run.code).toBe(2);
    expect(run.stdout.split('\n').slice(0, 4)).toEqual([
      'Teardown: 4 to delete, in 1 step, in this order:',
      '',
      HEADING,
      `  1. runtime ${BINDING} shop.field-owners.configmaps, ${BINDING} shop.field-owners.serviceaccounts, ${POLICY} shop.field-owners.configmaps, ${POLICY} shop.field-owners.serviceaccounts`,
    ]);
  });
});

describe('docs/enforcement.md, "Changing enforcement, and turning it off"', () => {
  const page = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'enforcement.md'), 'utf-8');
  const shown = (marker: string) => {
    const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`text\\n([\\s\\S]*?)\`\`\``).exec(page);
    if (!match) throw new Error(`docs/enforcement.md has no block ${marker}`);
    return match[1];
  };
  const locked = lockedWith(ENFORCED);

  test('the switch to Warn and Audit is what plan prints', () => {
    const run = plan(locked, { enforce: { deployer: DEPLOYER, validationActions: ['Warn', 'Audit'] } });
    expect(run.stdout).toContain(`\n${shown('enforce-warn-plan')}`);
  });

  test('enforce removed is what plan prints', () => {
    expect(plan(locked, {}).stdout).toBe(shown('enforce-removed-plan'));
  });

  test('its teardown is what plan --teardown prints, up to the closing lines', () => {
    expect(plan(locked, {}, '--teardown').stdout.startsWith(shown('enforce-removed-teardown'))).toBe(true);
  });
});
