import * as fs from 'fs';
import * as path from 'path';
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { formatPlan } from '../src/cli/format-plan';
import { handoverLines } from '../src/cli/hand-back-advice';
import type { Handover } from '../src/release/release-diff';

// docs/adoption.md, "Into a capability, without renaming": the objects stay byte for byte, but every field
// manager is named after a construct path, so every leaf changes writer once. The plan text says so in one
// line per object; plan.json keeps every leaf.

afterAll(removeReleaseDirs);

function web(scope: Construct): void {
  new kplus.Deployment(scope, 'Web', { containers: [{ image: 'ghcr.io/example/web:1.0.0', portNumber: 8080 }] });
}

/** The drop-in (plain chart `web` under CapabilityApp), or the same chart moved into capability shop. */
function adoption(app: CapabilityApp, moved: boolean): void {
  if (moved) web(new RuntimeRouting(new Capability(app, 'shop'), 'web'));
  else web(new Chart(app, 'web'));
}

describe('handovers of a plain chart moved into a capability', () => {
  test('the plan text gives one line per object, plan.json every leaf', () => {
    // GIVEN the lock of the drop-in
    const series = lockedSeries(adoption, false);

    // WHEN the chart moves into capability shop, objects unchanged
    const { plan, violations } = nextRelease(series, adoption, true);
    expect(violations).toEqual([]);

    // THEN nothing changes but the writers: one line for the Deployment's 30 leaves, each of them in plan.json
    expect(formatPlan(plan!)).toBe([
      'Plan: 0 to add, 0 to change, 0 to remove, 30 handovers of field ownership.',
      '',
      'Steps, in apply order:',
      '  1. runtime shop/web  (1 object: runtime/0001-shop-web.yaml)',
      '',
      'Changes against the lock:',
      '  (none)',
      '',
      'Handovers of field ownership:',
      "  ~ apps/Deployment web-c8be0d4f: 30 fields from 'web/Web' to 'shop/web/Web' (moved under 'shop')",
      '',
    ].join('\n'));
    expect(plan!.changes.handovers).toHaveLength(30);
    expect(plan!.changes.handovers[0]).toEqual({ unit: 'apps/Deployment web-c8be0d4f', path: 'spec.minReadySeconds', from: 'web/Web', to: 'shop/web/Web' });
  });

  test('docs/adoption.md shows that plan, and apply releases the old manager', () => {
    // GIVEN the drop-in's lock, WHEN the chart moves into capability shop
    const series = lockedSeries(adoption, false);
    const { plan } = nextRelease(series, adoption, true);

    // THEN the page's block is the plan, and apply makes the old path's manager release the object
    const page = fs.readFileSync(path.join(__dirname, '..', 'docs', 'adoption.md'), 'utf-8');
    expect(page).toContain(`\n\`\`\`text\n${formatPlan(plan!)}\`\`\`\n`);
    expect(plan!.writers.map((w) => [w.writers.map((x) => x.manager), w.released, w.releaseFirst])).toEqual([
      [['cdk-capability:shop/web/Web'], ['cdk-capability:web/Web'], undefined],
    ]);
  });

  test('a writer whose construct keeps its id in another scope (a capability renamed, a construct moved out) is one line per object', () => {
    // GIVEN the handovers of two objects: a capability renamed from shop to orders, and a construct moved out of a team
    const h = (unit: string, leaf: string, from: string, to: string): Handover => ({ unit, path: leaf, from, to });
    const handovers = [
      h('ConfigMap shop/cm', 'data.a', 'shop/Routing/Cm', 'orders/Routing/Cm'),
      h('ConfigMap shop/other', 'data.a', 'shop/Routing/Team/Other', 'shop/Routing/Other'),
      h('ConfigMap shop/cm', 'data.b', 'shop/Routing/Cm', 'orders/Routing/Cm'),
      h('ConfigMap shop/other', 'data.b', 'shop/Routing/Team/Other', 'shop/Routing/Other'),
    ];

    // WHEN listed, THEN one line per object, at the place of its first leaf, naming the scopes that differ
    expect(handoverLines(handovers)).toEqual([
      "~ ConfigMap shop/cm: 2 fields from 'shop/Routing/Cm' to 'orders/Routing/Cm' (moved from 'shop' to 'orders')",
      "~ ConfigMap shop/other: 2 fields from 'shop/Routing/Team/Other' to 'shop/Routing/Other' (moved out of 'shop/Routing/Team')",
    ]);
    expect(handoverLines([h('ConfigMap a/b', 'data.a', 'x/Team/Cm', 'Cm'), h('ConfigMap a/b', 'data.b', 'x/Team/Cm', 'Cm')]))
      .toEqual(["~ ConfigMap a/b: 2 fields from 'x/Team/Cm' to 'Cm' (moved out of 'x/Team')"]);
  });

  test('a writer that changes otherwise, or one leaf moved, is listed leaf by leaf', () => {
    // GIVEN the handovers of one object: two leaves to another writer, one moved under another construct
    const h = (leaf: string, from: string, to: string): Handover => ({ unit: 'ConfigMap shop/cm', path: leaf, from, to });
    const handovers = [
      h('data.a', 'web/Cm', 'web/Team'),
      h('data.b', 'web/Cm', 'web/Team'),
      h('metadata.labels.team', 'web/Label', 'shop/web/Label'),
    ];

    // WHEN listed, THEN each leaf on its own line
    expect(handoverLines(handovers)).toEqual([
      "~ ConfigMap shop/cm data.a: 'web/Cm' -> 'web/Team'",
      "~ ConfigMap shop/cm data.b: 'web/Cm' -> 'web/Team'",
      "~ ConfigMap shop/cm metadata.labels.team: 'web/Label' -> 'shop/web/Label'",
    ]);
  });
});
