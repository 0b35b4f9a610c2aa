import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { crdSchemaValidator } from './crd-schema';
import { schemaProblems } from './k8s-schemas';
import { newSeries, nextRelease, release, removeReleaseDirs } from './release-fixtures';
import { build, Stage, STAGES } from '../examples/canary/composition';
import { formatPlan } from '../src/cli/format-plan';

afterAll(removeReleaseDirs);

const README = path.join(__dirname, '..', 'examples', 'canary', 'README.md');

/** The ```text blocks of the README, in order. */
function readmePlans(): string[] {
  return [...fs.readFileSync(README, 'utf-8').matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The three releases, each planned against the lock the previous one wrote. */
function plans() {
  const series = newSeries();
  const out: Array<{ stage: Stage; text: string; manifests: any[]; traffic: unknown }> = [];
  for (const stage of Object.keys(STAGES) as Stage[]) {
    const result = nextRelease(series, build, stage);
    if (!result.plan) throw new Error(`stage ${stage} refused: ${result.violations.map((v) => v.message).join('\n')}`);
    out.push({
      stage,
      text: formatPlan(result.plan),
      manifests: result.runtimeFiles!.flatMap((f) => f.objects.map((o) => o.manifest)),
      traffic: result.plan.changes.traffic,
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      release(series, build, stage);
    } finally {
      stderr.mockRestore();
    }
  }
  return out;
}

describe('examples/canary', () => {
  const all = plans();

  test('the README prints exactly the three plans: 90/10, then 50/50, then rollback to 100/0', () => {
    expect(readmePlans()).toEqual(all.map((p) => p.text));
  });

  test('each shift is a weight change only: two HTTPRoutes change, nothing is added or removed', () => {
    expect(all.map((p) => p.traffic)).toEqual([
      [],
      ['acme', 'globex'].map((t) => ({
        route: `gateway.networking.k8s.io/HTTPRoute shop/tenant-${t}`,
        before: { 'web-blue': 90, 'web-green': 10 },
        after: { 'web-blue': 50, 'web-green': 50 },
      })),
      ['acme', 'globex'].map((t) => ({
        route: `gateway.networking.k8s.io/HTTPRoute shop/tenant-${t}`,
        before: { 'web-blue': 50, 'web-green': 50 },
        after: { 'web-blue': 100, 'web-green': 0 },
      })),
    ]);
    const summary = 'Plan: 0 to add, 2 to change, 0 to remove.';
    expect(all.slice(1).map((p) => p.text.split('\n')[0])).toEqual([summary, summary]);
  });

  test('the HTTPRoutes of every stage validate against the vendored Gateway API CRD (ajv) and kubernetes-models', () => {
    const crd = parse(fs.readFileSync(path.join(__dirname, '..', 'vendor', 'crds', 'gateway-api.httproutes.yaml'), 'utf-8'));
    const validate = crdSchemaValidator(crd.spec.versions.find((v: any) => v.name === 'v1').schema.openAPIV3Schema);
    const routes = all.flatMap((p) => p.manifests.filter((m) => m.kind === 'HTTPRoute'));
    const weights = routes.map((r) => r.spec.rules[0].backendRefs.map((b: any) => b.weight));
    expect(weights).toEqual([[90, 10], [90, 10], [50, 50], [50, 50], [100, 0], [100, 0]]);
    expect(routes.flatMap((r) => (validate(r) ? [] : [`${r.metadata.name}: ${JSON.stringify(validate.errors)}`]))).toEqual([]);
    expect(schemaProblems(all.flatMap((p) => p.manifests))).toEqual([]);
  });
});
