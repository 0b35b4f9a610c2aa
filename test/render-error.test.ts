import * as path from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir } from './util';
import { renderErrorText } from '../src/collect/render-error';

afterAll(removeTempDirs);

function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

const violations = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);

describe('an object that cannot be rendered', () => {
  test('a failing JSON patch on a Secret is one line naming the patch, with none of the Secret\'s values', () => {
    // GIVEN a Secret whose test patch fails: fast-json-patch puts the whole object, and the patch's value, in its message
    const { app, chart } = routing();
    const secret = new ApiObject(chart, 'Db', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' }, stringData: { password: 'hunter2-s3cr3t' } });
    secret.addJsonPatch(JsonPatch.add('/metadata/labels', { tier: 'db' }), JsonPatch.test('/metadata/name', 'database-hunter2'));

    // WHEN
    const found = violations(app);

    // THEN
    expect(found).toEqual([
      "CAP010 invalid object: 'shop/Routing/Db' could not be rendered: TEST_OPERATION_FAILED: Test operation failed (JSON patch 2: test /metadata/name). Fix the object's props.",
    ]);
    expect(found.join('\n')).not.toContain('hunter2');
  });

  test('an error without a patch keeps its first line, without cdk8s\' prefix', () => {
    const { app, chart } = routing();
    const map = new ApiObject(chart, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' } });
    map.addJsonPatch(JsonPatch.add('/metadata/labels/x', '3'));
    expect(violations(app)).toEqual([
      "CAP010 invalid object: 'shop/Routing/Cfg' could not be rendered: TypeError: Cannot set properties of undefined (setting 'x'). Fix the object's props.",
    ]);
  });
});

describe('renderErrorText', () => {
  test.each([
    ['not an Error', 'not an Error'],
    [new Error('one line'), 'one line'],
    [new Error("Failed serializing construct at path 'a/b' with name 'c': boom\nsecret: x"), 'boom'],
    [new Error('TEST_OPERATION_FAILED: Test operation failed\nname: TEST_OPERATION_FAILED\nindex: 0\noperation: {\n  "op": "test"\n}\ntree: {}'), 'TEST_OPERATION_FAILED: Test operation failed'],
    [new Error('X\nindex: 4\noperation: {\n  "op": "remove",\n  "path": "/spec"\n}\ntree: {\n  "a": 1\n}'), 'X (JSON patch 5: remove /spec)'],
    [new Error('X\nindex: 4\noperation: {\n  not json\n}\ntree: {}'), 'X'],
  ])('%p gives %p', (error, text) => {
    expect(renderErrorText(error)).toBe(text);
  });
});
