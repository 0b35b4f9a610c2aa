import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, JsonPatch, Lazy } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
import { renderErrorText, twoCopiesFix } from '../src/collect/render-error';

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

describe('a value from a second copy of cdk8s (a capability package installed from its folder, with its own cdk8s)', () => {
  test("is CAP010 naming both copies and the fix (a tarball, npm link's workaround, peerDependencies), not 'Fix the object's props'", () => {
    // GIVEN a package folder with its own copy of cdk8s, and an object built through that copy, as a package installed from a folder builds it
    const pkg = path.join(tempDir(), 'pkg');
    const ownCdk8s = path.join(pkg, 'node_modules', 'cdk8s');
    fs.cpSync(path.dirname(require.resolve('cdk8s/package.json')), ownCdk8s, { recursive: true, dereference: true });
    // constructs, a peer of cdk8s, is the app's one copy (as npm links it when the package declares it a peer)
    fs.symlinkSync(path.dirname(require.resolve('constructs/package.json')), path.join(pkg, 'node_modules', 'constructs'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own copy, at a path known at run time
    const other: typeof import('cdk8s') = require(ownCdk8s);
    expect(other.Lazy).not.toBe(Lazy);
    const { app, chart } = routing();
    new other.ApiObject(chart, 'Resource', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'shop' },
      data: other.Lazy.any({ produce: () => ({ mode: 'live' }) }),
    });

    // WHEN
    const found = violations(app);

    // THEN
    const loaded = path.dirname(require.resolve('cdk8s/package.json'));
    expect(found).toEqual([
      "CAP010 invalid object: 'shop/Routing/Resource' could not be rendered: two copies of cdk8s are loaded: " +
        `its Lazy comes from '${fs.realpathSync(ownCdk8s)}', while the app resolves '${fs.realpathSync(loaded)}', ` +
        "so the app cannot render it (Error: can't render non-simple object of type 'Lazy'). " +
        'The package that made it has its own cdk8s, in its own node_modules, as a package installed from its folder (npm i ../pkg, npm link) keeps it, which npm dedupe does not touch: ' +
        'install the package from a packed tarball instead (npm pack, then npm i <file>.tgz); ' +
        "with npm link, remove its copy (rm -rf <package>/node_modules/cdk8s) and run with NODE_PRESERVE_SYMLINKS=1, so it resolves the app's. " +
        'In the package, cdk8s belongs in its peerDependencies, never in its dependencies, as constructs, cdk8s, cdk8s-plus-XX, aws-cdk-lib and cdk-capability all do (docs/packaging.md).',
    ]);
  });

  test('a second copy npm installed below a package in the app (cdk8s in its dependencies) is told to become a peer dependency', () => {
    // trial10: the advice to run npm dedupe fits no case (a folder install keeps its own node_modules); a copy npm nested goes with the package's dependencies
    const app = path.join('/', 'repo', 'app', 'node_modules');
    expect(twoCopiesFix('cdk8s', path.join(app, '@acme', 'queue', 'node_modules', 'cdk8s'), path.join(app, 'cdk8s'))).toBe(
      'npm installed a copy of cdk8s for the package that made it, which lists cdk8s in its dependencies: '
        + 'cdk8s belongs in its peerDependencies, never in its dependencies, as constructs, cdk8s, cdk8s-plus-XX, aws-cdk-lib and cdk-capability all do (docs/packaging.md). '
        + 'Move it there in the package, publish it, and install it again',
    );
    expect(twoCopiesFix('cdk8s', path.join('/', 'repo', 'queue', 'node_modules', 'cdk8s'), path.join(app, 'cdk8s'))).toMatch(/^The package that made it has its own cdk8s, in its own node_modules, /);
  });

  test("a Lazy-like value of the app's own cdk8s that is no Lazy is named as a value cdk8s cannot render, not as a second copy", () => {
    // GIVEN a class instance cdk8s cannot render, from no package at all
    class Lazy2 {
      public readonly mode = 'live';
    }
    const { app, chart } = routing();
    new ApiObject(chart, 'Odd', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'odd', namespace: 'shop' }, data: new Lazy2() as any });

    // WHEN / THEN
    expect(violations(app)).toEqual([
      "CAP010 invalid object: 'shop/Routing/Odd' could not be rendered: its props give 'data' a Lazy2, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). "
      + 'Give it as a plain object of its fields, such as { ...value }, or a string.',
    ]);
  });
});
