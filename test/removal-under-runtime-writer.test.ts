/**
 * A deploy-time removal of a leaf that only a runtime writer writes besides (found by a new user's adoption trial:
 * `addJsonPatch(JsonPatch.remove('/spec/replicas'))` so that the autoscaler, declared as a `RuntimeWriter`, owns
 * replicas) is no conflict: the manifest applied lacks the leaf, so its field manager claims nothing there.
 * A removal of what another deploy-time writer writes still is.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, Contribution, RuntimeRouting, RuntimeWriter } from '../src';

afterAll(removeTempDirs);

function webWithAutoscaler(): { app: CapabilityApp; routing: RuntimeRouting; web: ApiObject; outdir: string } {
  const outdir = path.join(tempDir(), 'dist');
  const app = new CapabilityApp({ outdir });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
  });
  new RuntimeWriter(routing, 'Autoscaler', {
    target: web,
    fields: ['spec.replicas'],
    identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
    manager: 'kube-controller-manager',
  });
  return { app, routing, web, outdir };
}

const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);

describe('a removal under a runtime writer', () => {
  test('the declarer\'s own replicas removed by a JSON patch, replicas declared a runtime writer\'s: accepted, and the manifest has no replicas', () => {
    const { app, web, outdir } = webWithAutoscaler();
    web.addJsonPatch(JsonPatch.remove('/spec/replicas'));

    expect(messages(app)).toEqual([]);
    app.synth();
    const runtime = path.join(outdir, 'runtime');
    const file = fs.readdirSync(runtime).find((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')!;
    const deployment = parseAllDocuments(fs.readFileSync(path.join(runtime, file), 'utf-8')).map((d) => d.toJSON()).find((o) => o.kind === 'Deployment');
    expect(deployment.spec).not.toHaveProperty('replicas');
  });

  test('without the removal, the declarer\'s replicas and the runtime writer\'s conflict (CAP002), as before', () => {
    const { app } = webWithAutoscaler();
    const found = messages(app);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^CAP002 field conflict: 'shop\/Routing\/Autoscaler' \(RuntimeWriter\) and 'shop\/Routing\/Web' both write spec\.replicas of apps\/Deployment web\. /);
  });

  test('a removal of what a Contribution writes stays a conflict: which reaches the output depends on their order', () => {
    const { app, routing, web } = webWithAutoscaler();
    new Contribution(routing, 'Scale', { target: web, fields: { spec: { replicas: 3 } } });
    web.addJsonPatch(JsonPatch.remove('/spec/replicas'));

    const found = messages(app);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^CAP002 field conflict: 'shop\/Routing\/Autoscaler' \(RuntimeWriter\), 'shop\/Routing\/Scale' and 'shop\/Routing\/Web' \(addJsonPatch at test\/removal-under-runtime-writer\.test\.ts:\d+\) /);
  });
});
