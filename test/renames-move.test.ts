import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { coded, lockedSeries, nextRelease, releaseDir, removeReleaseDirs } from './release-fixtures';
import { capturingOutput } from './util';
import { formatPlan } from '../src/cli/format-plan';
import { main } from '../src/cli/main';

// A construct moved under another scope with its id keeps being one object to its author, but its generated
// name changes (it is made from the path): the plan lists the pair as a rename, with the old path and the fix.

afterAll(removeReleaseDirs);

interface Variant {
  /** The scopes between chart shop/Routing and Deployment Worker. */
  readonly under: string[];
  /** Another Deployment, Helper, under the same scopes, when given. */
  readonly helper?: boolean;
}

/** Capability shop, chart Routing with Namespace orders and a cdk8s-plus Deployment Worker (and Helper) under `under`. */
function shop(app: CapabilityApp, v: Variant): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new kplus.Namespace(routing, 'Ns', { metadata: { name: 'orders' } });
  let scope: Construct = routing;
  for (const id of v.under) scope = new Construct(scope, id);
  const deployment = (id: string) => new kplus.Deployment(scope, id, { metadata: { namespace: 'orders' }, containers: [{ image: 'ghcr.io/x/w:1' }] });
  deployment('Worker');
  if (v.helper) deployment('Helper');
}

describe('renames: a declaring construct moved under another scope', () => {
  test('a Deployment moved under a sub-construct is listed as a rename from its old path', () => {
    // GIVEN the lock of a release with shop/Routing/Worker
    const series = lockedSeries(shop, { under: [] });

    // WHEN the next release declares it as shop/Routing/Team/Worker
    const { plan, violations } = nextRelease(series, shop, { under: ['Team'] });
    expect(coded(violations)).toEqual([]);

    // THEN the removed and the added Deployment are one rename, with the move and the old name in the fix
    expect(plan!.renames).toEqual([{
      from: expect.stringMatching(/^apps\/Deployment orders\/routing-worker-c8[0-9a-f]{6}$/),
      to: expect.stringMatching(/^apps\/Deployment orders\/routing-team-worker-c8[0-9a-f]{6}$/),
      path: 'shop/Routing/Team/Worker',
      movedFrom: 'shop/Routing/Worker',
      fix: expect.any(String),
    }]);
    const rename = plan!.renames![0];
    const oldName = rename.from.slice(rename.from.lastIndexOf('/') + 1);
    expect(rename.fix).toBe('\'shop/Routing/Worker\' moved to \'shop/Routing/Team/Worker\', and the name cdk8s generates from the path changed with it: '
      + `to keep ${rename.from}, set its metadata.name to "${oldName}" in 'shop/Routing/Team/Worker'; `
      + 'else delete the old object once the new one runs, since applying does not prune it');
    expect(formatPlan(plan!)).toContain(`  ~ ${rename.from} -> ${rename.to} ('shop/Routing/Team/Worker')\n      fix: ${rename.fix}\n`);
  });

  test('a move out of a sub-construct, and one across two levels, are renames too', () => {
    // GIVEN locks with Worker under Team, and directly under Routing
    // WHEN the next releases move it out of Team, and under A/B
    const out = nextRelease(lockedSeries(shop, { under: ['Team'] }), shop, { under: [] }).plan!;
    const deeper = nextRelease(lockedSeries(shop, { under: [] }), shop, { under: ['A', 'B'] }).plan!;

    // THEN each is one rename, from the old path
    expect(out.renames?.map((r) => [r.movedFrom, r.path])).toEqual([['shop/Routing/Team/Worker', 'shop/Routing/Worker']]);
    expect(deeper.renames?.map((r) => [r.movedFrom, r.path])).toEqual([['shop/Routing/Worker', 'shop/Routing/A/B/Worker']]);
  });

  test('two Deployments moved together are two renames, each paired by its own id', () => {
    // GIVEN Worker and Helper under Routing, WHEN both move under Team
    const { plan } = nextRelease(lockedSeries(shop, { under: [], helper: true }), shop, { under: ['Team'], helper: true });

    // THEN each is paired with itself, not with the other
    expect(plan!.renames?.map((r) => [r.movedFrom, r.path])).toEqual([
      ['shop/Routing/Worker', 'shop/Routing/Team/Worker'],
      ['shop/Routing/Helper', 'shop/Routing/Team/Helper'],
    ]);
  });

  test('a Deployment that is removed while another of the same id is added in an unrelated scope is no rename', () => {
    // GIVEN Worker under Team, WHEN the next release declares Worker under Other instead (a sibling, neither path inside the other)
    const { plan } = nextRelease(lockedSeries(shop, { under: ['Team'] }), shop, { under: ['Other'] });

    // THEN no rename is claimed: the plan shows one removed and one added
    expect(plan!.renames).toBeUndefined();
    expect(plan!.changes.removed).toEqual([expect.stringMatching(/^apps\/Deployment orders\/routing-team-worker-c8[0-9a-f]{6}$/)]);
    expect(plan!.changes.added).toEqual([expect.stringMatching(/^apps\/Deployment orders\/routing-other-worker-c8[0-9a-f]{6}$/)]);
  });

  test('plan --json carries movedFrom, valid against docs/plan-output.schema.json', () => {
    // GIVEN the plan of the move under Team, written to a file
    const { plan } = nextRelease(lockedSeries(shop, { under: [] }), shop, { under: ['Team'] });
    const file = path.join(releaseDir(), 'plan.json');
    fs.writeFileSync(file, JSON.stringify(plan));

    // WHEN printed as JSON
    const output = JSON.parse(capturingOutput(() => main(['plan', '--json', '--plan', file])).stdout);

    // THEN the rename keeps movedFrom, and the output is the schema's shape
    expect(output.plan.renames.map((r: any) => r.movedFrom)).toEqual(['shop/Routing/Worker']);
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'plan-output.schema.json'), 'utf-8')));
    expect(validate(output) ? [] : validate.errors).toEqual([]);
  });
});
