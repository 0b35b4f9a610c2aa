import * as path from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
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
    const at = siteOfNextLine();
    secret.addJsonPatch(JsonPatch.add('/metadata/labels', { tier: 'db' }), JsonPatch.test('/metadata/name', 'database-hunter2'));

    // WHEN
    const found = violations(app);

    // THEN
    expect(found).toEqual([
      `CAP010 invalid object: 'shop/Routing/Db' could not be rendered: JSON patch 2 (test /metadata/name, addJsonPatch at ${at}) failed: Test operation failed. Fix the patch.`,
    ]);
    expect(found.join('\n')).not.toContain('hunter2');
  });

  test('a patch under a map the object lacks names the patch, its call and the missing map, also when a Contribution writes that map', () => {
    // GIVEN (a user trial: the Contribution makes metadata.labels, but only after the object's own patches ran)
    const { app, chart } = routing();
    const map = new ApiObject(chart, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' } });
    new Contribution(chart, 'Team', { target: map, fields: { metadata: { labels: { x: '2' } } } });
    const at = siteOfNextLine();
    map.addJsonPatch(JsonPatch.add('/metadata/labels/x', '3'));

    // THEN
    expect(violations(app)).toEqual([
      `CAP010 invalid object: 'shop/Routing/Cfg' could not be rendered: JSON patch 1 (add /metadata/labels/x, addJsonPatch at ${at}) failed: ` +
        "Cannot set properties of undefined (setting 'x'): the object has no /metadata/labels, which its own patches would need (a Contribution's fields are merged after them). Fix the patch.",
    ]);
  });

  test('an error that is no patch\'s keeps its first line, without cdk8s\' prefix', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { get broken(): string { throw new Error('no value\nsecret: hunter2'); } } });
    expect(violations(app)).toEqual(["CAP010 invalid object: 'shop/Routing/Cfg' could not be rendered: Error: no value. Fix the object's props."]);
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
