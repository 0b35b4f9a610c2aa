import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { Capability, CapabilityApp, DeploymentAggregate, Plan, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, releaseDir, removeReleaseDirs, ReleaseSeries } from './release-fixtures';
import { capturingOutput } from './util';
import { formatTeardown } from '../src/cli/format-teardown';
import { main } from '../src/cli/main';
import type { Lock } from '../src/release/lock';

// A teardown deletes a stack in the region (and account) it was deployed to, never in the default region of
// the shell that runs it: `delete-stack` of a stack that is not there succeeds silently, and a stack of the same
// name in the default region would be deleted instead.

afterAll(removeReleaseDirs);

const ROOT = path.join(__dirname, '..');

interface Env {
  readonly region?: string;
  readonly account?: string;
}

interface Variant {
  readonly env: Env;
  readonly tenants: string[];
}

/** Capability orders with its env, shared base Base and one tenant stack per name. */
function orders(app: CapabilityApp, v: Variant): void {
  const cap = new Capability(app, 'orders', Object.keys(v.env).length > 0 ? { env: v.env } : {});
  new SharedBase(cap, 'Base');
  for (const t of v.tenants) new DeploymentAggregate(cap, t);
}

/** The plan of the release without tenant globex, against the lock of the release with acme and globex. */
function globexRemoved(env: Env, edit?: (lock: Lock) => Lock): Plan {
  const series = lockedSeries(orders, { env, tenants: ['acme', 'globex'] });
  if (edit) editLock(series, edit);
  const { violations, plan } = nextRelease(series, orders, { env, tenants: ['acme'] });
  expect(coded(violations)).toEqual([]);
  return plan!;
}

function editLock(series: ReleaseSeries, edit: (lock: Lock) => Lock): void {
  const { contentDigest: _digest, ...lock } = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')); // an edited lock, read as one an earlier version wrote: without the contentDigest an edit would no longer match
  fs.writeFileSync(series.lockFile, JSON.stringify(edit(lock)));
}

function lockOf(env: Env): Lock {
  const series = lockedSeries(orders, { env, tenants: ['acme'] });
  return JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
}

/** The lines of `plan --teardown` for the deploy step of stack orders/globex (heading to its last command). */
function globexLines(plan: Plan): string[] {
  const lines = formatTeardown(plan).split('\n');
  const first = lines.findIndex((l) => l.includes('deploy  stack orders/globex'));
  const rest = lines.slice(first + 1);
  return [lines[first], ...rest.slice(0, rest.findIndex((l) => !/^ {7}[#$]/.test(l)))];
}

describe('the lock records where a stack is deployed', () => {
  test('a stack whose env names its region and account is locked with both', () => {
    // GIVEN capability orders with env eu-west-1 / 123456789012, WHEN its release is locked
    const lock = lockOf({ region: 'eu-west-1', account: '123456789012' });

    // THEN each stack unit records them beside its stack name
    expect(lock.units.filter((u) => u.id.startsWith('stack:')).map((u) => [u.id, u.stackName, u.region, u.account])).toEqual([
      ['stack:orders/Base', 'orders-Base', 'eu-west-1', '123456789012'],
      ['stack:orders/acme', 'orders-acme', 'eu-west-1', '123456789012'],
    ]);
  });

  test('an environment-agnostic stack is locked without region and account', () => {
    // GIVEN capability orders without env, WHEN its release is locked
    const lock = lockOf({});

    // THEN no stack unit holds a region or an account (they are tokens, known at deploy time)
    const stacks = lock.units.filter((u) => u.id.startsWith('stack:'));
    expect(stacks.map((u) => [u.id, 'region' in u, 'account' in u])).toEqual([['stack:orders/Base', false, false], ['stack:orders/acme', false, false]]);
  });
});

describe('teardown of a stack: in its region and account', () => {
  test('a removed stack with a region is deleted and waited for with --region', () => {
    // GIVEN the lock of orders (env region eu-west-1) with tenants acme and globex
    // WHEN the next release drops globex
    const plan = globexRemoved({ region: 'eu-west-1' });

    // THEN both commands name the region, and the step records it
    expect(plan.teardown.steps).toEqual([{
      lifecycle: 'deploy',
      when: 'after-apply',
      units: ['stack orders/globex'],
      region: 'eu-west-1',
      commands: [
        'aws cloudformation delete-stack --stack-name orders-globex --region eu-west-1',
        'aws cloudformation wait stack-delete-complete --stack-name orders-globex --region eu-west-1',
      ],
    }]);
    expect(globexLines(plan)).toEqual([
      '  1. deploy  stack orders/globex',
      '       $ aws cloudformation delete-stack --stack-name orders-globex --region eu-west-1',
      '       $ aws cloudformation wait stack-delete-complete --stack-name orders-globex --region eu-west-1',
    ]);
  });

  test('a removed stack with an account says which account to run the commands in', () => {
    // GIVEN the lock of orders with env eu-west-1 / 123456789012, WHEN the next release drops globex
    const plan = globexRemoved({ region: 'eu-west-1', account: '123456789012' });

    // THEN the step records the account, and the text says to run it there
    expect(plan.teardown.steps.map((s) => [s.region, s.account])).toEqual([['eu-west-1', '123456789012']]);
    expect(globexLines(plan)).toEqual([
      '  1. deploy  stack orders/globex',
      '       # with credentials of AWS account 123456789012 (aws sts get-caller-identity shows yours)',
      '       $ aws cloudformation delete-stack --stack-name orders-globex --region eu-west-1',
      '       $ aws cloudformation wait stack-delete-complete --stack-name orders-globex --region eu-west-1',
    ]);
  });

  test('an environment-agnostic stack gets a <region> to fill in, and says so, instead of the default region', () => {
    // GIVEN the lock of orders without env, WHEN the next release drops globex
    const plan = globexRemoved({});

    // THEN the commands cannot run as printed (a shell refuses `<region>`), the step has no region, and the text says why
    expect(plan.teardown.steps).toEqual([{
      lifecycle: 'deploy',
      when: 'after-apply',
      units: ['stack orders/globex'],
      commands: [
        'aws cloudformation delete-stack --stack-name orders-globex --region <region>',
        'aws cloudformation wait stack-delete-complete --stack-name orders-globex --region <region>',
      ],
    }]);
    expect(globexLines(plan)).toEqual([
      '  1. deploy  stack orders/globex',
      '       # the lock records no region for it (an environment-agnostic stack, or a lock written before regions',
      '       # were recorded): replace <region> with the region it was deployed to',
      '       $ aws cloudformation delete-stack --stack-name orders-globex --region <region>',
      '       $ aws cloudformation wait stack-delete-complete --stack-name orders-globex --region <region>',
    ]);
  });

  test('a lock written before regions were recorded reads, and its stacks get a <region> to fill in', () => {
    // GIVEN the lock of orders (env eu-west-1) as an earlier version wrote it: no region or account on its units
    const strip = (lock: Lock): Lock => ({ ...lock, units: lock.units.map(({ region, account, ...u }) => u) });

    // WHEN the next release drops globex
    const plan = globexRemoved({ region: 'eu-west-1', account: '123456789012' }, strip);

    // THEN the lock is accepted and the removed stack's commands ask for its region
    expect(plan.teardown.steps.map((s) => [s.region, s.account, s.commands[0]])).toEqual([
      [undefined, undefined, 'aws cloudformation delete-stack --stack-name orders-globex --region <region>'],
    ]);
  });

  test('plan --teardown --json holds the region and account, and matches docs/teardown-output.schema.json', () => {
    // GIVEN the plan of the release that drops globex (env eu-west-1 / 123456789012), written to a file
    const plan = globexRemoved({ region: 'eu-west-1', account: '123456789012' });
    const file = path.join(releaseDir(), 'plan.json');
    fs.writeFileSync(file, JSON.stringify(plan));

    // WHEN the command prints the teardown as JSON
    const run = capturingOutput(() => main(['plan', '--teardown', '--json', '--plan', file]));

    // THEN the step is as plan.json holds it, and it and `plan --json` match their schemas
    const output = JSON.parse(run.stdout);
    expect(output.teardown.steps[0]).toEqual({ ...plan.teardown.steps[0], region: 'eu-west-1', account: '123456789012' });
    const ajv = new Ajv2020({ strict: false });
    const teardownSchema = ajv.compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'teardown-output.schema.json'), 'utf-8')));
    expect(teardownSchema(output) ? [] : teardownSchema.errors).toEqual([]);
    const planOutput = JSON.parse(capturingOutput(() => main(['plan', '--json', '--plan', file])).stdout);
    const planSchema = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'plan-output.schema.json'), 'utf-8')));
    expect(planSchema(planOutput) ? [] : planSchema.errors).toEqual([]);
  });

  test('a plan.json written before teardowns named regions says to add --region', () => {
    // GIVEN the plan that drops globex (env eu-west-1) as an earlier version wrote it: commands without --region
    const plan = globexRemoved({ region: 'eu-west-1' });
    const earlier = { ...plan, teardown: { ...plan.teardown, steps: plan.teardown.steps.map(({ region, ...s }) => ({ ...s, commands: s.commands.map((c) => c.replace(' --region eu-west-1', '')) })) } };

    // WHEN plan --teardown prints it, THEN the step says the commands need the stack's region
    expect(globexLines(earlier)).toEqual([
      '  1. deploy  stack orders/globex',
      '       # this plan was written before teardowns named the region: add --region with the region it was deployed to',
      '       $ aws cloudformation delete-stack --stack-name orders-globex',
      '       $ aws cloudformation wait stack-delete-complete --stack-name orders-globex',
    ]);
  });
});
