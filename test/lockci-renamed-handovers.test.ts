import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { capturingOutput } from './util';
import { formatPlan } from '../src/cli/format-plan';

// A construct renamed between two releases hands every field it wrote to its new path: the plan text says so in
// one line per object ("declared by X -> Y" for the declarer), while plan.json keeps every leaf. A writer that
// still writes part of the object (a Contribution taking fields with force) stays listed leaf by leaf.

afterAll(removeReleaseDirs);

interface Names {
  readonly declarer: string;
  readonly contribution: string;
  /** The Contribution takes data.level and data.tier from the declarer. */
  readonly force?: boolean;
}

/** ConfigMap shop/settings declared by `declarer`, and a Contribution `contribution` writing two of its data keys. */
function shop(app: CapabilityApp, n: Names): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const settings = new ApiObject(routing, n.declarer, {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'live', level: 'x', tier: 'a' },
  });
  // with force, the Contribution takes data.level and data.tier from the declarer, which keeps data.mode
  const taken = n.force ? { level: 'y', tier: 'b' } : {};
  new Contribution(routing, n.contribution, { target: settings, fields: { data: { timeout: '30', retries: '3', ...taken } }, ...(n.force ? { force: true } : {}) });
}

/** The lines of the plan text under "Handovers of field ownership:". */
function handoverSection(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf('Handovers of field ownership:');
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('handovers of a renamed construct, in the plan text', () => {
  test('a renamed Contribution is one line naming both paths; plan.json keeps each leaf', () => {
    // GIVEN the lock of a release whose Contribution is 'Team'
    const series = capturingOutput(() => lockedSeries(shop, { declarer: 'Settings', contribution: 'Team' })).result;

    // WHEN the next release renames it to 'Squad'
    const { plan, violations } = nextRelease(series, shop, { declarer: 'Settings', contribution: 'Squad' });
    expect(violations).toEqual([]);

    // THEN one line, and both leaves in plan.json
    expect(handoverSection(formatPlan(plan!))).toEqual([
      "  ~ ConfigMap shop/settings: 2 fields from 'shop/Routing/Team' to 'shop/Routing/Squad' ('shop/Routing/Team' writes nothing of it now)",
    ]);
    expect(plan!.changes.handovers.map((h) => [h.path, h.from, h.to])).toEqual([
      ['data.retries', 'shop/Routing/Team', 'shop/Routing/Squad'],
      ['data.timeout', 'shop/Routing/Team', 'shop/Routing/Squad'],
    ]);
  });

  test('a renamed declarer is one line: declared by the old path -> the new one, with the number of fields', () => {
    const series = capturingOutput(() => lockedSeries(shop, { declarer: 'Settings', contribution: 'Team' })).result;

    const { plan, violations } = nextRelease(series, shop, { declarer: 'Config', contribution: 'Team' });
    expect(violations).toEqual([]);

    expect(plan!.changes.handovers.map((h) => [h.path, h.from, h.to])).toEqual(['data.level', 'data.mode', 'data.tier'].map((f) => [f, 'shop/Routing/Settings', 'shop/Routing/Config']));
    expect(handoverSection(formatPlan(plan!))).toEqual([
      "  ~ ConfigMap shop/settings: declared by 'shop/Routing/Settings' -> 'shop/Routing/Config' (3 fields)",
    ]);
  });

  test('a Contribution that takes fields with force from a declarer that stays is listed leaf by leaf', () => {
    // GIVEN a release where the declarer writes data.level and data.tier, WHEN a Contribution takes both with force
    const series = capturingOutput(() => lockedSeries(shop, { declarer: 'Settings', contribution: 'Team' })).result;
    const { plan } = nextRelease(series, shop, { declarer: 'Settings', contribution: 'Team', force: true });

    // THEN each leaf on its line: the declarer still writes data.mode
    expect(handoverSection(formatPlan(plan!))).toEqual([
      "  ~ ConfigMap shop/settings data.level: 'shop/Routing/Settings' -> 'shop/Routing/Team'",
      "  ~ ConfigMap shop/settings data.tier: 'shop/Routing/Settings' -> 'shop/Routing/Team'",
    ]);
  });
});
