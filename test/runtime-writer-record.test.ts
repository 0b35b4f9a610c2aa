/**
 * Runtime writers leave the synth: the lock, `interface.json` and `plan.json` record each `RuntimeWriter`
 * (target, leaves, identity, field manager), the lock's per-object writers hold it as kind `runtime` under
 * its manager, and the plan shows a leaf moving between deploy time and runtime across two releases.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { pageSection, loadSnippet } from './doc-snippets';
import { lockedSeries, nextRelease, removeReleaseDirs, withEnv } from './release-fixtures';
import { capturingOutput, tempDir } from './util';
import { formatPlan, hasChanges } from '../src/cli/format-plan';
import { main } from '../src/cli/main';
import { expectedObjects } from '../src/cluster/object-writers';
import { parseLock, serializeLock } from '../src/release/lock';
import { textOf } from '../src/render/file-content';

afterAll(removeReleaseDirs);

const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';
const ZONER = 'system:serviceaccount:zones:zoner';

/** A Deployment `shop/web` declared by `shop/Routing/Web`, the fields it declares beside the required ones. */
function web(routing: RuntimeRouting, extra: { replicas?: number; annotations?: Record<string, string> }): ApiObject {
  return new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: {
      ...(extra.replicas !== undefined ? { replicas: extra.replicas } : {}),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  });
}

/**
 * Two releases of `shop/web`: in the first the declarer writes `spec.replicas` and the controller `Zoner`
 * the annotation `example.com/zone`; in the second the autoscaler writes `spec.replicas` and the declarer
 * the annotation.
 */
function shop(app: CapabilityApp, release: 1 | 2): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  if (release === 1) {
    const object = web(routing, { replicas: 2 });
    new RuntimeWriter(routing, 'Zoner', { target: object, fields: ['metadata.annotations["example.com/zone"]'], identity: ZONER, manager: 'zoner' });
  } else {
    const object = web(routing, { annotations: { 'example.com/zone': 'eu-west-1a' } });
    // the HorizontalPodAutoscaler controller runs in kube-controller-manager and writes under that manager (CAP002's hint)
    new RuntimeWriter(routing, 'Autoscaler', { target: object, fields: ['spec.replicas'], identity: HPA, manager: 'kube-controller-manager' });
  }
}

describe('a leaf moving between the declarer and a RuntimeWriter across two releases', () => {
  // GIVEN the real lock of release 1 (synth with CDK_CAPABILITY_UPDATE_LOCK=1 wrote it)
  const series = capturingOutput(() => lockedSeries(shop, 1)).result;
  const locked = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));

  // WHEN release 2 is synthesized against it
  const result = nextRelease(series, shop, 2);
  const plan = result.plan!;

  test('the lock of release 1 records the runtime writer with its target, leaves, identity and manager', () => {
    expect(locked.runtimeWriters).toEqual([{
      writer: 'shop/Routing/Zoner',
      target: { object: 'object:apps|Deployment|shop|web', label: 'apps/Deployment shop/web' },
      fields: ['metadata.annotations["example.com/zone"]'],
      identity: ZONER,
      manager: 'zoner',
    }]);
    expect(parseLock(fs.readFileSync(series.lockFile, 'utf-8'), series.lockFile).problems).toEqual([]);
  });

  test('release 2 is accepted, and its manifest no longer holds the replicas the autoscaler writes', () => {
    expect(result.violations).toEqual([]);
    expect(plan.changes.fields).toEqual([{
      unit: 'apps/Deployment shop/web',
      fields: [{ path: 'metadata.annotations["example.com/zone"]', after: 'eu-west-1a' }, { path: 'spec.replicas', before: 2 }],
    }]);
  });

  test('plan.json records both handovers, each with the way it moves', () => {
    expect(plan.changes.handovers).toEqual([
      { unit: 'apps/Deployment shop/web', path: 'metadata.annotations["example.com/zone"]', from: 'shop/Routing/Zoner (RuntimeWriter)', to: 'shop/Routing/Web', moves: 'runtime-to-deploy-time' },
      { unit: 'apps/Deployment shop/web', path: 'spec.replicas', from: 'shop/Routing/Web', to: 'shop/Routing/Autoscaler (RuntimeWriter)', moves: 'deploy-time-to-runtime' },
    ]);
    expect(hasChanges(plan)).toBe(true);
  });

  test('plan.json records the runtime writer of release 2 under the manager it declares, kube-controller-manager', () => {
    expect(plan.runtimeWriters).toEqual([{
      writer: 'shop/Routing/Autoscaler',
      target: { object: 'object:apps|Deployment|shop|web', label: 'apps/Deployment shop/web' },
      fields: ['spec.replicas'],
      identity: HPA,
      manager: 'kube-controller-manager',
    }]);
    expect(plan.writers.find((w) => w.label === 'apps/Deployment shop/web')!.writers.map((w) => [w.writer, w.kind, w.manager])).toEqual([
      ['shop/Routing/Web', 'declaration', 'cdk-capability:shop/Routing/Web'],
      ['shop/Routing/Autoscaler (RuntimeWriter)', 'runtime', 'kube-controller-manager'],
    ]);
  });

  test('plan.json hands the replicas, with release 1\'s value, to the autoscaler\'s manager (apply sends it first)', () => {
    expect(plan.writers.find((w) => w.label === 'apps/Deployment shop/web')!.handOver).toEqual([{
      writer: 'shop/Routing/Autoscaler (RuntimeWriter)',
      manager: 'kube-controller-manager',
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2 } },
    }]);
  });

  test('plan.json records the runtime writer added and the one removed against the lock', () => {
    expect(plan.changes.runtimeWriters).toEqual([
      { writer: 'shop/Routing/Autoscaler', change: 'added', after: plan.runtimeWriters![0] },
      { writer: 'shop/Routing/Zoner', change: 'removed', before: locked.runtimeWriters[0] },
    ]);
  });

  test('`cdk-capability plan` prints the runtime writers added and removed, what they write, as whom and under which manager', () => {
    expect(formatPlan(plan)).toContain([
      '',
      'Runtime writers:',
      '  + shop/Routing/Autoscaler: spec.replicas of apps/Deployment shop/web, as system:serviceaccount:kube-system:horizontal-pod-autoscaler (field manager kube-controller-manager)',
      '  - shop/Routing/Zoner: metadata.annotations["example.com/zone"] of apps/Deployment shop/web, as system:serviceaccount:zones:zoner (field manager zoner)',
      '',
    ].join('\n'));
  });

  test('`cdk-capability plan` prints each handover with the way it moves, and what a hand-back from a controller needs', () => {
    expect(formatPlan(plan)).toContain([
      '',
      'Handovers of field ownership:',
      "  ~ apps/Deployment shop/web metadata.annotations[\"example.com/zone\"]: 'shop/Routing/Zoner (RuntimeWriter)' -> 'shop/Routing/Web' (runtime -> deploy time: the release applies it)",
      "  ~ apps/Deployment shop/web spec.replicas: 'shop/Routing/Web' -> 'shop/Routing/Autoscaler (RuntimeWriter)' (deploy time -> runtime: the release stops applying it)",
      "  (handed back from 'shop/Routing/Zoner (RuntimeWriter)': stop its controller writing these fields before the release is applied. " +
        "The release's apply takes a field with force only where the controller's value differs; where it holds the same value, its field manager zoner stays an owner " +
        'until the controller applies without the field (kubectl apply --server-side --field-manager=zoner with what it still writes of the object, its identity alone when nothing) ' +
        'or, for a controller that updates, until the value next changes; cdk-capability audit reports it as stale-owner until then)',
      '',
    ].join('\n'));
  });

  test('`cdk-capability plan --json` carries them, valid against docs/plan-output.schema.json', () => {
    const file = path.join(tempDir('runtime-writer-plan-'), 'plan.json');
    fs.writeFileSync(file, textOf(result.output!.files.get('plan.json')!));
    const run = capturingOutput(() => main(['plan', '--plan', file, '--json']));
    const output = JSON.parse(run.stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);
    expect(run.result).toBe(2);
    expect(validate(output) ? [] : validate.errors).toEqual([]);
    expect(output.plan.changes.handovers.map((h: any) => [h.path, h.moves])).toEqual([
      ['metadata.annotations["example.com/zone"]', 'runtime-to-deploy-time'],
      ['spec.replicas', 'deploy-time-to-runtime'],
    ]);
    expect(output.plan.runtimeWriters).toEqual(plan.runtimeWriters);
  });

  test('interface.json and the lock of release 2 record the same runtime writers', () => {
    const artifact = JSON.parse(textOf(result.output!.files.get('interface.json')!));
    expect(artifact.runtimeWriters).toEqual(plan.runtimeWriters);
    expect(result.lock!.runtimeWriters).toEqual(plan.runtimeWriters);
  });
});

describe('a runtime writer that comes or goes with leaves nobody else writes', () => {
  /** `shop/web` with replicas, and in release 2 the controller `Zoner` of an annotation nobody declares. */
  function zoned(app: CapabilityApp, withZoner: boolean): void {
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const object = web(routing, { replicas: 2 });
    if (withZoner) new RuntimeWriter(routing, 'Zoner', { target: object, fields: ['metadata.annotations["example.com/zone"]'], identity: ZONER, manager: 'zoner' });
  }

  test('added: no handover (nobody wrote its leaf before), a change the plan records', () => {
    const series = capturingOutput(() => lockedSeries(zoned, false)).result;
    const { violations, plan } = nextRelease(series, zoned, true);
    expect(violations).toEqual([]);
    expect(plan!.changes.handovers).toEqual([]);
    expect(plan!.changes.runtimeWriters!.map((c) => [c.writer, c.change])).toEqual([['shop/Routing/Zoner', 'added']]);
    expect(plan!.runtimeWriters!.map((w) => w.writer)).toEqual(['shop/Routing/Zoner']);
    expect(hasChanges(plan!)).toBe(true);
  });

  test('removed: no handover (nobody writes its leaf now), a change the plan records, and no runtime writers', () => {
    const series = capturingOutput(() => lockedSeries(zoned, true)).result;
    const { violations, plan } = nextRelease(series, zoned, false);
    expect(violations).toEqual([]);
    expect(plan!.changes.handovers).toEqual([]);
    expect(plan!.changes.runtimeWriters!.map((c) => [c.writer, c.change])).toEqual([['shop/Routing/Zoner', 'removed']]);
    expect(plan!.runtimeWriters).toBeUndefined();
    expect(hasChanges(plan!)).toBe(true);
  });

  test('changed: its manager and identity, each printed before -> after', () => {
    const series = capturingOutput(() => lockedSeries(zoned, true)).result;
    const { plan } = nextRelease(series, (app: CapabilityApp) => {
      const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
      new RuntimeWriter(routing, 'Zoner', { target: web(routing, { replicas: 2 }), fields: ['metadata.annotations["example.com/zone"]'], identity: 'system:serviceaccount:zones:zoner-v2', manager: 'zoner-v2' });
    }, undefined);
    expect(plan!.changes.runtimeWriters!.map((c) => [c.writer, c.change, c.before?.manager, c.after?.manager])).toEqual([['shop/Routing/Zoner', 'changed', 'zoner', 'zoner-v2']]);
    expect(formatPlan(plan!)).toContain('\nRuntime writers:\n  ~ shop/Routing/Zoner: identity system:serviceaccount:zones:zoner -> system:serviceaccount:zones:zoner-v2; field manager zoner -> zoner-v2\n');
  });

  test('unchanged: no runtime writer change, and nothing to apply', () => {
    const series = capturingOutput(() => lockedSeries(zoned, true)).result;
    const { plan } = nextRelease(series, zoned, true);
    expect(plan!.changes.runtimeWriters).toBeUndefined();
    expect(hasChanges(plan!)).toBe(false);
  });
});

describe('a runtime writer of every object of a kind', () => {
  /** Two Deployments, and an annotator of every Deployment without a manager of its own. */
  function twoDeployments(app: CapabilityApp): void {
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    web(routing, { replicas: 2 });
    new ApiObject(routing, 'Api', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'api:1' }] } } },
    });
    new RuntimeWriter(routing, 'Restarter', { target: { apiVersion: 'apps/v1', kind: 'Deployment' }, fields: ['spec.template.metadata.annotations["example.com/restartedAt"]'], identity: 'system:serviceaccount:ops:restarter' });
  }

  const result = capturingOutput(() => {
    const app = new CapabilityApp({ outdir: path.join(tempDir('runtime-writer-kind-'), 'dist'), lockFile: path.join(tempDir('runtime-writer-kind-'), 'capability.lock.json') });
    twoDeployments(app);
    return app.synthesize();
  }).result;

  test('is recorded once, with its kind as the target', () => {
    expect(result.violations).toEqual([]);
    expect(result.lock!.runtimeWriters).toEqual([{
      writer: 'shop/Routing/Restarter',
      target: { groupKind: 'apps/Deployment' },
      fields: ['spec.template.metadata.annotations["example.com/restartedAt"]'],
      identity: 'system:serviceaccount:ops:restarter',
      manager: 'cdk-capability-runtime:shop/Routing/Restarter',
    }]);
  });

  test('is a runtime writer of each object of the kind in the lock, under its manager, which audit compares with', () => {
    const expected = expectedObjects(JSON.parse(serializeLock(result.lock!)));
    expect(expected.map((e) => [e.label, e.writers.filter((w) => w.runtime).map((w) => [w.writer, w.manager, w.leaves])])).toEqual([
      ['apps/Deployment shop/web', [['shop/Routing/Restarter (RuntimeWriter)', 'cdk-capability-runtime:shop/Routing/Restarter', [{ path: ['spec', 'template', 'metadata', 'annotations', 'example.com/restartedAt'] }]]]],
      ['apps/Deployment shop/api', [['shop/Routing/Restarter (RuntimeWriter)', 'cdk-capability-runtime:shop/Routing/Restarter', [{ path: ['spec', 'template', 'metadata', 'annotations', 'example.com/restartedAt'] }]]]],
    ]);
  });
});

describe('docs/enforcement.md', () => {
  const page = path.join(__dirname, '..', 'docs', 'enforcement.md');

  test('the runtimeWriters it shows are what the example of "Declaring the runtime writers" writes to interface.json and the lock', () => {
    // GIVEN the page's example, and the record the page shows for it
    const [example] = pageSection(page, 'Declaring the runtime writers').snippets;
    const shown = /```json\n"runtimeWriters": (\[[\s\S]*?\])\n```/.exec(fs.readFileSync(page, 'utf-8'))![1];

    // WHEN the example is synthesized
    const outdir = path.join(tempDir('enforcement-doc-'), 'dist');
    withEnv('CDK8S_OUTDIR', outdir, () => loadSnippet(example));

    // THEN interface.json holds exactly that record, and so does the lock the release would write
    const artifact = JSON.parse(fs.readFileSync(path.join(outdir, 'interface.json'), 'utf-8'));
    expect(artifact.runtimeWriters).toEqual(JSON.parse(shown));
    expect(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')).runtimeWriters).toEqual(JSON.parse(shown));
  });

  test('the handovers and runtime writers it shows are the plan text of the two releases above', () => {
    const series = capturingOutput(() => lockedSeries(shop, 1)).result;
    const text = formatPlan(nextRelease(series, shop, 2).plan!);
    for (const section of ['Handovers of field ownership:', 'Runtime writers:']) {
      const shown = new RegExp('```text\\n(' + section + '\\n[\\s\\S]*?)```').exec(fs.readFileSync(page, 'utf-8'))![1];
      expect(text).toContain(`\n${shown}`);
    }
  });
});
