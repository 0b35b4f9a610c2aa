import * as fs from 'fs';
import { basename, dirname, join, sep } from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import { duplicatePackageOf, moduleFileExporting } from './duplicate-packages';
import { callPlace, displayFile } from '../private/creation-site';
import { errorMessage } from '../private/errors';
import { packageRoot } from '../private/package-root';
import { declaredApiObjectProps, jsonPatchesOf, patchOperation, renderWithoutPatches } from '../private/upstream-state';
import { jsonPatchCall } from '../private/write-calls';

/** cdk8s' prefix on an error thrown while an object renders: the path and name the finding names anyway. */
const SERIALIZING = /^Failed serializing construct at path '[^']*' with name '[^']*': /;

/**
 * Why an object could not be rendered, as one line that holds none of the
 * object's values. A JSON patch that fails (fast-json-patch's
 * `JsonPatchError`) carries the whole object in its message (`tree: {...}`),
 * a Secret's data included, and the patch with its value: that text would
 * reach CI logs and pull-request annotations. Only the first line is kept,
 * and of the patch its number, operation and path.
 *
 * @example
 * renderErrorText(e); // 'TEST_OPERATION_FAILED: Test operation failed (JSON patch 1: test /metadata/name)'
 */
export function renderErrorText(e: unknown): string {
  const message = errorMessage(e);
  const patch = failedPatch(message);
  return patch ? `${firstLine(message)} (${patch})` : firstLine(message);
}

/**
 * Why a cdk8s object could not be rendered, as `renderErrorText` says it;
 * when one of its JSON patches fails (fast-json-patch throws a bare
 * `TypeError` for a path under a map that does not exist), which patch, made
 * by which call, and the missing map: a `Contribution` that writes that map
 * is merged after the object's own patches, so they never see it.
 */
export function renderFailure(apiObject: ApiObject, e: unknown): string {
  const text = renderErrorText(e);
  const twoCopies = twoCopiesFailure(apiObject, text);
  if (twoCopies !== undefined) return twoCopies;
  const unrenderable = unrenderableValue(apiObject, text);
  if (unrenderable !== undefined) return unrenderable;
  try {
    const patches = jsonPatchesOf(apiObject);
    if (patches.length === 0) return text;
    let doc: unknown = renderWithoutPatches(apiObject);
    for (let i = 0; i < patches.length; i++) {
      try {
        doc = JsonPatch.apply(doc, patches[i]);
      } catch (failure) {
        const { op, path } = patchOperation(patches[i]);
        const call = jsonPatchCall(patches[i]);
        const by = call?.site ? `, ${call.api} ${callPlace(call.site, call.package)}` : '';
        const parent = path.slice(0, path.lastIndexOf('/'));
        const missing = parent !== '' && at(doc, parent) === undefined
          ? `: the object has no ${parent}, which its own patches would need (a Contribution's fields are merged after them)`
          : '';
        return `JSON patch ${i + 1} (${op} ${path}${by}) failed: ${firstLine(errorMessage(failure))}${missing}`;
      }
    }
  } catch {
    // the declaration itself does not render: the first error says why
  }
  return text;
}

/** cdk8s' error for a value its resolvers left as they found it (sanitizeValue): the value's class name. */
const NON_SIMPLE = /^(?:Error: )?can't render non-simple object of type '([^']+)'$/;

/** The prefix of a render error that says the object's value comes from a second copy of a package; it carries its own fix. */
export const TWO_COPIES = 'two copies of ';

/**
 * When cdk8s could not render a value because its class comes from a second
 * copy of its package (a capability package with its own cdk8s: its `Lazy` is
 * no `Lazy` to the app's resolvers), the real cause and the fix.
 */
function twoCopiesFailure(apiObject: ApiObject, text: string): string | undefined {
  const type = NON_SIMPLE.exec(text)?.[1];
  if (type === undefined) return undefined;
  const value = valueOfClass(declaredApiObjectProps(apiObject), type, new Set(), 0);
  const duplicate = value !== undefined ? duplicatePackageOf(value) : undefined;
  if (!duplicate) return undefined;
  const { name, foreign, loaded } = duplicate;
  return `${TWO_COPIES}${name} are loaded: its ${type} comes from '${foreign}', while the app resolves '${loaded}', so the app cannot render it (${text}). ${twoCopiesFix(name, foreign, loaded)}`;
}

/**
 * How to load one copy of `name`, by where the second lies. Inside the app's own `node_modules` (npm installed it
 * below the package, which lists it in its dependencies): make it a peer dependency. Elsewhere (a package installed
 * from its folder, `npm i ../pkg` or `npm link`, keeps its own `node_modules`, which neither npm install nor npm
 * dedupe touches): install the package from a packed tarball, or remove its copy.
 *
 * @param foreign the folder of the copy the value's class comes from
 * @param loaded the folder of the copy the app resolves
 */
export function twoCopiesFix(name: string, foreign: string, loaded: string): string {
  const peer = `${name} belongs in its peerDependencies, never in its dependencies, as constructs, cdk8s, cdk8s-plus-XX, aws-cdk-lib and cdk-capability all do (docs/packaging.md)`;
  const marker = `${sep}node_modules${sep}`;
  const appModules = loaded.slice(0, loaded.lastIndexOf(marker) + marker.length);
  if (appModules.length > 0 && foreign.startsWith(appModules)) {
    return `npm installed a copy of ${name} for the package that made it, which lists ${name} in its dependencies: ${peer}. Move it there in the package, publish it, and install it again`;
  }
  return `The package that made it has its own ${name}, in its own node_modules, as a package installed from its folder (npm i ../pkg, npm link) keeps it, which npm dedupe does not touch: `
    + 'install the package from a packed tarball instead (npm pack, then npm i <file>.tgz); '
    + `with npm link, remove its copy (rm -rf <package>/node_modules/${name}) and run with NODE_PRESERVE_SYMLINKS=1, so it resolves the app's. In the package, ${peer}`;
}

/**
 * When `capability` is a `Capability` of another copy of cdk-capability than this one (a package that lists
 * cdk-capability in its dependencies, or one installed from its folder, brings its own): which copies, where and of
 * which versions, and the fix for where the second lies. The app finds such a capability by its brand, but its stacks
 * are made with the other copy's run folder and stage, which the app's synthesis cannot read (an `ENOENT` of the
 * cloud assembly). Undefined for a capability of this copy.
 *
 * @param ownCapability this copy's `Capability` class (passed in: this module loads no aws-cdk-lib)
 */
export function secondLibraryCopy(capability: object, ownCapability: Function): string | undefined {
  if (capability instanceof ownCapability) return undefined;
  let ctor: unknown = capability.constructor;
  while (typeof ctor === 'function' && ctor.name !== 'Capability') ctor = Object.getPrototypeOf(ctor);
  const file = typeof ctor === 'function' ? moduleFileExporting(ctor) : undefined;
  const loaded = packageRoot();
  const foreign = file !== undefined ? libraryRootOf(file) : undefined;
  const name = (capability as { node?: { path?: unknown } }).node?.path;
  const which = `capability '${typeof name === 'string' ? name : '?'}'`;
  const copy = (root: string) => `'${displayFile(root)}'${versionAt(root) !== undefined ? ` (${versionAt(root)})` : ''}`;
  if (foreign === undefined || foreign === loaded) {
    return `${TWO_COPIES}cdk-capability are loaded: ${which} is a Capability of another copy than the app's CapabilityApp, of ${copy(loaded)}, so the app cannot synthesize its stacks. `
      + 'Install the package that made it so that it uses the app\'s cdk-capability: in the package, cdk-capability belongs in its peerDependencies (docs/packaging.md).';
  }
  const owner = owningPackage(foreign);
  const made = owner ? `, made by ${owner}` : '';
  return `${TWO_COPIES}cdk-capability are loaded: ${which}${made}, is a Capability of the copy in ${copy(foreign)}, while the app's CapabilityApp is of ${copy(loaded)}, `
    + `so the app cannot synthesize its stacks (they are made with the other copy's run folder). ${twoCopiesFix('cdk-capability', foreign, loaded)}.`;
}

/** The folder of the copy of cdk-capability a file of it lies in: the nearest folder above it with a package.json. */
function libraryRootOf(file: string): string | undefined {
  let dir = dirname(file);
  while (!fs.existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
  return dir;
}

/** The version in the package.json of a folder, if it can be read. */
function versionAt(root: string): string | undefined {
  try {
    const version: unknown = JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf-8')).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The package whose own node_modules holds a copy (`<pkg>/node_modules/cdk-capability`), as `name@version`. */
function owningPackage(copy: string): string | undefined {
  const modules = dirname(copy);
  if (basename(modules) !== 'node_modules') return undefined;
  try {
    const { name, version } = JSON.parse(fs.readFileSync(join(dirname(modules), 'package.json'), 'utf-8')) as { name?: unknown; version?: unknown };
    if (typeof name !== 'string') return undefined;
    return typeof version === 'string' ? `${name}@${version}` : name;
  } catch {
    return undefined;
  }
}

/** Marks a render error that names the value at fault and says its own fix (`unrenderableValue`). */
const NAMED_VALUE = /^its props give '[^']*' /;

/** True when a render error says its own fix (two copies of a package, a value named with its fix): none is added to it. */
export function carriesItsFix(error: string): boolean {
  return error.startsWith(TWO_COPIES) || NAMED_VALUE.test(error);
}

/** cdk8s' TypeError for a map without a prototype (`Object.create(null)`), whose constructor it reads. */
const NO_PROTOTYPE = /^TypeError: Cannot read properties of undefined \(reading 'name'\)$/;

/** How to write a value of a class cdk8s cannot render as plain data. */
const PLAIN_FORM: Readonly<Record<string, string>> = {
  Map: 'a plain object, such as Object.fromEntries(map)',
  Set: 'a list, such as [...set]',
  Date: 'a string, such as date.toISOString()',
  RegExp: 'a string, such as its source',
  Buffer: "a string, such as buffer.toString('base64')",
};

/**
 * When cdk8s could not render a value of the object's props that is no plain data (a `Map`, a `Date`, an
 * instance of the program's own class: cdk8s renders maps, lists, scalars and its own tokens only; or a map
 * without a prototype, on which cdk8s crashes), where the value is in the props and what to write instead;
 * undefined when it is not found among the props' plain maps and lists (a cdk8s-plus object holds its values
 * in constructs of its own).
 */
function unrenderableValue(apiObject: ApiObject, text: string): string | undefined {
  const type = NON_SIMPLE.exec(text)?.[1];
  const bare = type === undefined && NO_PROTOTYPE.test(text);
  if (type === undefined && !bare) return undefined;
  const isIt = (v: object) => (bare ? Object.getPrototypeOf(v) === null : v.constructor?.name === type);
  const found = plainPathTo(declaredApiObjectProps(apiObject), isIt, [], new Set());
  if (found === undefined || found.length === 0) return undefined;
  const where = found.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p === '' ? k : `${p}.${k}`), '');
  if (bare) return `its props give '${where}' a map without a prototype (Object.create(null)), which cdk8s cannot render. Give it as a plain object, such as { ...value }`;
  const form = PLAIN_FORM[type!] ?? (/Array$/.test(type!) ? 'a list of numbers, such as Array.from(bytes)' : 'a plain object of its fields, such as { ...value }, or a string');
  return `its props give '${where}' ${/^[AEIO]/.test(type!) ? 'an' : 'a'} ${type}, which cdk8s cannot render (it renders plain maps, lists, strings, numbers, booleans and its own tokens). Give it as ${form}`;
}

/**
 * The path through plain maps and lists (only those: a value under another object is left) from `node` to the
 * first value `is` holds for, depth first; undefined when there is none.
 */
function plainPathTo(node: unknown, is: (v: object) => boolean, path: Array<string | number>, seen: Set<object>): Array<string | number> | undefined {
  if (node === null || typeof node !== 'object' || seen.has(node) || path.length > 64) return undefined;
  if (is(node)) return path;
  const plain = Array.isArray(node) || Object.getPrototypeOf(node) === Object.prototype;
  if (!plain) return undefined;
  seen.add(node);
  const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
  for (const [key, child] of entries) {
    const found = plainPathTo(child, is, [...path, key], seen);
    if (found) return found;
  }
  return undefined;
}

/** The first value (depth first, at most 64 levels) under `node` whose class is named `type`. */
function valueOfClass(node: unknown, type: string, seen: Set<object>, depth: number): object | undefined {
  if (node === null || typeof node !== 'object' || seen.has(node) || depth > 64) return undefined;
  seen.add(node);
  if (node.constructor?.name === type) return node;
  for (const child of Object.values(node)) {
    const found = valueOfClass(child, type, seen, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0].replace(SERIALIZING, '').trim();
}

/** The value at a JSON pointer, or undefined. */
function at(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** `JSON patch <n>: <op> <path>` from a JsonPatchError's `index:` and `operation:` lines, if it has them. */
function failedPatch(message: string): string | undefined {
  const index = /\nindex: (\d+)\n/.exec(message)?.[1];
  const operation = /\noperation: (\{[\s\S]*?\n\})(\n|$)/.exec(message)?.[1];
  if (index === undefined || operation === undefined) return undefined;
  try {
    const { op, path } = JSON.parse(operation) as { op?: unknown; path?: unknown };
    if (typeof op !== 'string' || typeof path !== 'string') return undefined;
    return `JSON patch ${Number(index) + 1}: ${op} ${path}`;
  } catch {
    return undefined;
  }
}
