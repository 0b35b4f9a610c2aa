/**
 * A `CAP010` of a value a generated class loses (patch-values) quoted the patched value verbatim: a Secret's
 * patched bytes, or a password in a URL, landed in CI logs that `apply --dry-run` and the lock keep them out of.
 * The value is quoted masked, as they mask it: `(sensitive)`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';

afterAll(removeTempDirs);

const TAIL = "its class, KubeSecret, serializes the object after its patches by its schema, which drops a key it lacks and reads a Quantity or an IntOrString by its 'value' (text or a number there is lost). "
  + "Write the field with a Contribution (new Contribution(scope, id, { target, fields }): its fields are merged into the rendered object as written), or check the key's spelling.";
const lineOf = (text: string) => fs.readFileSync(__filename, 'utf-8').split('\n').findIndex((l) => l.includes(text)) + 1;

function routing(): { app: CapabilityApp; routing: RuntimeRouting } {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  return { app, routing: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

describe('a patched value a finding quotes is masked as the dry-run masks it', () => {
  test("a Secret's patched value under a misspelt stringData is quoted (sensitive), never in clear", () => {
    // GIVEN a KubeSecret whose patch misspells stringData
    const { app, routing: r } = routing();
    const secret = new kplus.k8s.KubeSecret(r, 'Db', { metadata: { name: 'db' }, stringData: { user: 'app' } });
    secret.addJsonPatch(JsonPatch.add('/strinData', { password: 'hunter2-sekrit' }));

    // WHEN synthesized
    const messages = app.synthesize().violations.map((v) => `${v.code} ${v.message}`);

    // THEN the finding names the call and the field, and masks the value
    expect(messages).toEqual([
      `CAP010 invalid object: 'shop/Routing/Db' (addJsonPatch at test/messages2-patch-masks.test.ts:${lineOf("secret.addJsonPatch(JsonPatch.add('/strinData'")}) `
      + `writes {"password":"(sensitive)"} at 'strinData', which the output leaves out: ${TAIL}`,
    ]);
    expect(messages.join('\n')).not.toContain('hunter2');
  });

  test('a URL with a password patched into a ConfigMap is quoted (sensitive), as the lock masks a secret shape', () => {
    const { app, routing: r } = routing();
    const config = new kplus.k8s.KubeConfigMap(r, 'Cfg', { metadata: { name: 'cfg' } });
    config.addJsonPatch(JsonPatch.add('/dat', { url: 'postgres://app:hunter2sekrit@db:5432/shop', mode: 'live' }));

    const messages = app.synthesize().violations.filter((v) => v.code === 'CAP010').map((v) => v.message);

    expect(messages).toEqual([
      `invalid object: 'shop/Routing/Cfg' (addJsonPatch at test/messages2-patch-masks.test.ts:${lineOf("config.addJsonPatch(JsonPatch.add('/dat'")}) `
      + `writes {"url":"(sensitive)","mode":"live"} at 'dat', which the output leaves out: ${TAIL.replace('KubeSecret', 'KubeConfigMap')}`,
    ]);
  });
});
