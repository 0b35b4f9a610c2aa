import * as fs from 'fs';
import * as path from 'path';
import { CapabilityApp, Capability, RuntimeRouting } from '../src';
import { appOf, lockedSeries, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, configMap } from './util';
import { main } from '../src/cli/main';

// The capability's one field manager of an `apply` from before each writer had its own is released only
// against a lock: a first release had no earlier apply, and a manager of that name is another tool's.

afterAll(removeReleaseDirs);

/** GIVEN-side builder: capability `platform` with one ConfigMap `shop/settings`. */
function platform(app: CapabilityApp): void {
  const routing = new RuntimeRouting(new Capability(app, 'platform'), 'Routing');
  configMap(routing, 'Settings', 'settings', 'shop');
}

/** The kubectl applies `cdk-capability apply --dry-run` prints for the outdir, without their here-documents. */
function dryRunApplies(outdir: string): string[] {
  const { result, stdout } = capturingOutput(() => main(['apply', '--outdir', outdir, '--dry-run']));
  expect(result).toBe(0);
  return stdout.split('\n').filter((l) => l.startsWith('kubectl apply')).map((l) => l.replace(/ <<'EOF'$/, ''));
}

describe('the release of the capability\'s earlier one field manager', () => {
  test('a first release (no lock) releases no manager named after the capability, in plan.json and in apply', () => {
    // GIVEN capability `platform` and no lock
    const app = appOf(newSeries());
    platform(app);

    // WHEN it is synthesized
    withUpdateLock(undefined, () => app.synth());

    // THEN plan.json's writers have nothing to release, and apply applies under the writer's manager alone
    const plan = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8'));
    expect(plan.writers).toEqual([{ object: 'object:|ConfigMap|shop|settings', label: 'ConfigMap shop/settings', writers: plan.writers[0].writers }]);
    expect(dryRunApplies(app.outdir)).toEqual([
      `kubectl apply --server-side --force-conflicts --field-manager=cdk-capability -f ${path.join(app.outdir, 'runtime', '0001-platform-routing.yaml')}`,
      'kubectl apply --server-side --field-manager=cdk-capability:platform/Routing/Settings -f -',
    ]);
  });

  test('against a lock written before writers were recorded, the capability\'s one manager is still released', () => {
    // GIVEN the lock of the same release, as an earlier version wrote it: no writers on its units
    const series = lockedSeries((app: CapabilityApp) => platform(app), undefined);
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    for (const unit of lock.units) delete unit.writers;
    // an earlier version wrote no contentDigest either
    delete lock.contentDigest;
    fs.writeFileSync(series.lockFile, JSON.stringify(lock, undefined, 2));

    // WHEN the next release is synthesized against it
    const app = appOf(series);
    platform(app);
    withUpdateLock(undefined, () => app.synth());

    // THEN the earlier apply's manager `platform` releases the object, after the writer's own apply
    const plan = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8'));
    expect(plan.writers.map((w: any) => w.released)).toEqual([['platform']]);
    expect(dryRunApplies(app.outdir).slice(1)).toEqual([
      'kubectl apply --server-side --field-manager=cdk-capability:platform/Routing/Settings -f -',
      'kubectl apply --server-side --field-manager=platform -f -',
    ]);
  });
});
