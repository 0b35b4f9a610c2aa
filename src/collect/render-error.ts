import { ApiObject, JsonPatch } from 'cdk8s';
import { duplicatePackageOf } from './duplicate-packages';
import { errorMessage } from '../private/errors';
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
        const by = call?.site ? `, ${call.api} at ${call.site}` : '';
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
  return (
    `${TWO_COPIES}${name} are loaded: its ${type} comes from '${foreign}', while the app resolves '${loaded}', ` +
    `so the app cannot render it (${text}). The package that made it has its own ${name}: ` +
    `declare ${name} in its peerDependencies, never in its dependencies, as constructs, cdk8s, cdk8s-plus-XX, aws-cdk-lib and cdk-capability all belong (docs/packaging.md); ` +
    'then run npm dedupe in the app, or install the package from a packed tarball (npm pack, then npm i <file>.tgz) rather than from its folder. ' +
    `With npm link, remove the linked package's own copy (rm -rf <package>/node_modules/${name}) so it resolves the app's`
  );
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
