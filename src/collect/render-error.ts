import { errorMessage } from '../private/errors';

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
  const first = message.split('\n', 1)[0].replace(SERIALIZING, '').trim();
  const patch = failedPatch(message);
  return patch ? `${first} (${patch})` : first;
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
