import { ApiObject, JsonPatch } from 'cdk8s';
import { errorMessage } from '../private/errors';
import { jsonPatchesOf, patchOperation, renderWithoutPatches } from '../private/upstream-state';
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
