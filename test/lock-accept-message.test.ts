import * as fs from 'fs';
import * as path from 'path';
import { Capability, CapabilityApp, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { appOf, lockedSeries, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput, configMap } from './util';
import { main } from '../src/cli/main';
import { lockWrittenLine } from '../src/release/update-lock';

// The line that says the lock was written also says what the release removes against the previous lock,
// which nothing deletes and which no plan against the new lock lists any more.

afterAll(removeReleaseDirs);

/** A release of shop: base stack Base, tenant stacks, and a ConfigMap per name in chart Routing. */
interface Variant {
  readonly configMaps: string[];
  readonly tenants: string[];
}

function shop(app: CapabilityApp, v: Variant): void {
  const capability = new Capability(app, 'shop');
  new SharedBase(capability, 'Base');
  for (const t of v.tenants) new DeploymentAggregate(capability, t);
  const routing = new RuntimeRouting(capability, 'Routing');
  for (const name of v.configMaps) configMap(routing, name, name, 'shop');
}

const FULL: Variant = { configMaps: ['settings', 'limits', 'flags'], tenants: ['acme', 'globex'] };

/** Accepts `v` against the series' lock with CDK_CAPABILITY_UPDATE_LOCK=1, as a user does. */
function accept(series: ReleaseSeries, v: Variant): { app: CapabilityApp; stderr: string } {
  const app = appOf(series);
  shop(app, v);
  const { stderr } = capturingOutput(() => withUpdateLock('1', () => app.synth()));
  return { app, stderr };
}

describe('the line that says the lock was written', () => {
  test('a release that removes one object says so, and names the plan.json that holds its teardown', () => {
    // GIVEN the lock of the full release
    const series = lockedSeries(shop, FULL);

    // WHEN the next release, without ConfigMap limits, is accepted
    const { app, stderr } = accept(series, { ...FULL, configMaps: ['settings', 'flags'] });

    // THEN the line says what is removed and where its teardown is
    const planFile = path.join(app.outdir, 'plan.json');
    expect(stderr).toBe(
      `cdk-capability: wrote the lock of this release to ${series.lockFile} (CDK_CAPABILITY_UPDATE_LOCK=1); commit it. ` +
        `This release removes 1 object of the previous lock, which nothing deletes: \`cdk-capability plan --teardown --plan ${planFile}\` prints its deletion (keep that plan.json); ` +
        'a plan made against this lock no longer lists it.\n',
    );
  });

  test('the plan.json it names still prints the teardown once the lock is accepted', () => {
    // GIVEN the release without ConfigMap limits accepted over the full lock
    const series = lockedSeries(shop, FULL);
    const { app } = accept(series, { ...FULL, configMaps: ['settings', 'flags'] });

    // WHEN plan --teardown reads the plan.json the line names
    const { result, stdout } = capturingOutput(() => main(['plan', '--teardown', '--plan', path.join(app.outdir, 'plan.json')]));

    // THEN it deletes ConfigMap shop/limits
    expect(result).toBe(2);
    expect(stdout.split('\n').slice(0, 5)).toEqual([
      'Teardown: 1 to delete, in 1 step, in this order:',
      '',
      'After applying this release:',
      '  1. runtime ConfigMap shop/limits',
      '       $ kubectl delete --wait=true --ignore-not-found --namespace shop configmap/limits',
    ]);
  });

  test('objects and stacks removed are counted apart', () => {
    // GIVEN the lock of the full release
    const series = lockedSeries(shop, FULL);

    // WHEN the next release drops two ConfigMaps and the tenant globex
    const { app, stderr } = accept(series, { configMaps: ['settings'], tenants: ['acme'] });

    // THEN
    expect(stderr).toBe(
      `cdk-capability: wrote the lock of this release to ${series.lockFile} (CDK_CAPABILITY_UPDATE_LOCK=1); commit it. ` +
        `This release removes 2 objects and 1 stack of the previous lock, which nothing deletes: \`cdk-capability plan --teardown --plan ${path.join(app.outdir, 'plan.json')}\` prints their deletion (keep that plan.json); ` +
        'a plan made against this lock no longer lists them.\n',
    );
  });

  test('a release that removes nothing prints exactly the line it always did', () => {
    // GIVEN the lock of the full release, WHEN the same release is accepted again
    const series = lockedSeries(shop, FULL);
    const { stderr } = accept(series, FULL);

    // THEN
    expect(stderr).toBe(`cdk-capability: wrote the lock of this release to ${series.lockFile} (CDK_CAPABILITY_UPDATE_LOCK=1); commit it.\n`);
  });

  test('docs/releases.md shows exactly the line a synth in the project folder prints', () => {
    // GIVEN the full release accepted in a project folder, outdir dist and the lock beside it
    const series = lockedSeries(shop, FULL);
    const cwd = process.cwd();
    process.chdir(series.dir);
    let stderr: string;
    try {
      // WHEN the release without ConfigMap limits is accepted there
      const app = new CapabilityApp({ outdir: 'dist', lockFile: 'capability.lock.json' });
      shop(app, { ...FULL, configMaps: ['settings', 'flags'] });
      stderr = capturingOutput(() => withUpdateLock('1', () => app.synth())).stderr;
    } finally {
      process.chdir(cwd);
    }

    // THEN the page shows that line
    const page = fs.readFileSync(path.join(__dirname, '..', 'docs', 'releases.md'), 'utf-8');
    expect(page).toContain(`\n\`\`\`text\n${stderr}\`\`\`\n`);
  });

  test('without a plan.json that stays (cdk8s synth --stdout), it points at a teardown against the previous lock', () => {
    expect(lockWrittenLine(path.join(process.cwd(), 'capability.lock.json'), '1', { objects: 0, stacks: 1 })).toBe(
      'cdk-capability: wrote the lock of this release to capability.lock.json (CDK_CAPABILITY_UPDATE_LOCK=1); commit it. ' +
        'This release removes 1 stack of the previous lock, which nothing deletes: `cdk-capability plan --teardown` against the previous lock prints its deletion; ' +
        'a plan made against this lock no longer lists it.',
    );
  });

  test('a plan.json path a shell would split is quoted in the command', () => {
    expect(lockWrittenLine('/locks/capability.lock.json', '1', { objects: 2, stacks: 0, planFile: '/my dist/plan.json' })).toBe(
      'cdk-capability: wrote the lock of this release to /locks/capability.lock.json (CDK_CAPABILITY_UPDATE_LOCK=1); commit it. ' +
        'This release removes 2 objects of the previous lock, which nothing deletes: `cdk-capability plan --teardown --plan \'/my dist/plan.json\'` prints their deletion (keep that plan.json); ' +
        'a plan made against this lock no longer lists them.',
    );
  });
});
