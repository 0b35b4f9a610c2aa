/**
 * A JSON patch of an object of a generated class (cdk8s-plus's `KubeStatefulSet`, `KubeService`) is serialized by
 * the class after it is applied: a quantity or int-or-string given as text or a number becomes null or is left
 * out, and a key the schema lacks is dropped, by cdk8s without a word (found by a new user's adoption trial: a
 * StatefulSet's `volumeClaimTemplates` patched with `storage: '10Gi'` wrote `storage: null`). Refused (`CAP010`)
 * naming the call, the field and the value; the two fixes the message names keep the value.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Quantity } from 'cdk8s-plus-30/lib/imports/k8s';
import * as fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';

afterAll(removeTempDirs);

const claims = (storage: unknown) => [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }];
const TAIL = "its class, KubeStatefulSet, serializes the object after its patches by its schema, which drops a key it lacks and reads a Quantity or an IntOrString by its 'value' (text or a number there is lost). "
  + 'Write the field with a Contribution (new Contribution(scope, id, { target, fields }): its fields are merged into the rendered object as written)';

function shop(): { app: CapabilityApp; routing: RuntimeRouting; outdir: string } {
  const outdir = path.join(tempDir(), 'dist');
  const app = new CapabilityApp({ outdir });
  return { app, routing: new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), outdir };
}
const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
const lineOf = (text: string) => fs.readFileSync(__filename, 'utf-8').split('\n').findIndex((l) => l.includes(text)) + 1;

/** The documents of every runtime manifest of an outdir. */
function objectsOf(outdir: string): any[] {
  const runtime = path.join(outdir, 'runtime');
  return fs.readdirSync(runtime).filter((f) => /^\d{4}-.*\.yaml$/.test(f))
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(runtime, f), 'utf-8')).map((d) => d.toJSON()));
}

describe('a value a patch writes that a generated class loses', () => {
  test('the premise, in bare cdk8s: the StatefulSet\'s patched storage is written as null', () => {
    const outdir = path.join(tempDir(), 'bare');
    const app = new App({ outdir });
    const db = new kplus.StatefulSet(new Chart(app, 'c'), 'Db', { containers: [{ image: 'postgres:16', portNumber: 5432 }] });
    ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/volumeClaimTemplates', claims('10Gi')));
    app.synth();

    const text = fs.readFileSync(path.join(outdir, 'c.k8s.yaml'), 'utf-8');
    expect(text).toContain('            storage: null\n');
  });

  test('a quantity as text in a patch of a cdk8s-plus StatefulSet is refused, naming the call, the field and the value', () => {
    const { app, routing } = shop();
    const db = new kplus.StatefulSet(routing, 'Db', { containers: [{ image: 'postgres:16', portNumber: 5432 }] });
    ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/volumeClaimTemplates', claims('20Gi')));

    expect(messages(app)).toEqual([
      `CAP010 invalid object: 'shop/Routing/Db' (addJsonPatch at test/patch-values.test.ts:${lineOf("ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/volumeClaimTemplates', claims('20Gi')));")}) `
      + `writes "20Gi" at 'spec.volumeClaimTemplates[0].spec.resources.requests.storage', which the output has as null: ${TAIL}, `
      + "or give the patch the class's form, k8s.Quantity.fromString('20Gi') (import { k8s } from 'cdk8s-plus-30'), or check the key's spelling.",
    ]);
  });

  test('a key the schema lacks, and an int-or-string given as a number, are refused as left out', () => {
    const { app, routing } = shop();
    const db = new kplus.StatefulSet(routing, 'Db', { containers: [{ image: 'postgres:16', portNumber: 5432 }] });
    ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/minReadySecnds', 5));
    const svc = new kplus.Service(routing, 'Svc', { ports: [{ port: 80 }] });
    ApiObject.of(svc).addJsonPatch(JsonPatch.replace('/spec/ports/0/targetPort', 8080));

    const found = messages(app);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain("'shop/Routing/Db' (addJsonPatch at test/patch-values.test.ts:");
    expect(found[0]).toContain("writes 5 at 'spec.minReadySecnds', which the output leaves out: its class, KubeStatefulSet,");
    expect(found[1]).toContain("writes 8080 at 'spec.ports[port=80,protocol=TCP].targetPort', which the output leaves out: its class, KubeService,");
    expect(found[1]).toContain('IntOrString.fromNumber(8080)');
  });

  test('the fixes the message names keep the value: a Contribution\'s fields, or the class\'s form in the patch', () => {
    const { app, routing, outdir } = shop();
    const db = new kplus.StatefulSet(routing, 'Db', { containers: [{ image: 'postgres:16', portNumber: 5432 }] });
    new Contribution(routing, 'Claims', { target: db, fields: { spec: { volumeClaimTemplates: claims('10Gi') } } });
    const cache = new kplus.StatefulSet(routing, 'Cache', { containers: [{ image: 'redis:7', portNumber: 6379 }] });
    ApiObject.of(cache).addJsonPatch(JsonPatch.add('/spec/volumeClaimTemplates', claims(Quantity.fromString('5Gi'))));

    expect(messages(app)).toEqual([]);
    app.synth();
    const storage = objectsOf(outdir).filter((o) => o.kind === 'StatefulSet').map((o) => o.spec.volumeClaimTemplates[0].spec.resources.requests.storage).sort();
    expect(storage).toEqual(['10Gi', '5Gi']);
  });

  test('a value a later patch removes is no loss', () => {
    const { app, routing } = shop();
    const db = new kplus.StatefulSet(routing, 'Db', { containers: [{ image: 'postgres:16', portNumber: 5432 }] });
    ApiObject.of(db).addJsonPatch(JsonPatch.add('/spec/minReadySecnds', 5), JsonPatch.remove('/spec/minReadySecnds'));
    expect(messages(app)).toEqual([]);
  });

  test('property: patches of a plain ApiObject (no generated class) never lose a value, and are never refused for it', () => {
    const key = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/);
    const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean());
    fc.assert(fc.property(fc.array(fc.tuple(key, scalar), { minLength: 1, maxLength: 5 }), (writes) => {
      const { app, routing } = shop();
      const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'live' } });
      for (const [k, v] of writes) settings.addJsonPatch(JsonPatch.add(`/metadata/annotations~1${k}`.replace('~1', '/'), String(v)), JsonPatch.add(`/spec/${k}`, v));
      const titles = app.synthesize().violations.filter((v) => v.message.includes('serializes the object after its patches'));
      expect(titles).toEqual([]);
    }), { numRuns: 40 });
  });
});
