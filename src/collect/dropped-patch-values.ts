import { ApiObject, JsonPatch } from 'cdk8s';
import { moduleFileExporting } from './duplicate-packages';
import type { DroppedPatchValue } from './facts';
import { displayFile } from '../private/creation-site';
import { isMap } from '../private/maps';
import { jsonPatchesOf, patchOperation, renderWithoutPatches } from '../private/upstream-state';
import { jsonPatchCall } from '../private/write-calls';

/**
 * The values an object's JSON patches write that its render loses: an object of a class generated from a schema
 * (cdk8s-plus's `KubeStatefulSet`, an imported CRD's class) serializes itself after its patches are applied, by
 * the schema, so a quantity or an int-or-string given as plain text becomes `null` (the serializer reads its
 * class's `value`), and a key the schema lacks is dropped; cdk8s writes either without a word. Found by applying
 * the patches, as RFC 6902 does, to the object rendered without them, and comparing with the render: every text,
 * number or boolean the patches leave that the render holds as null or not at all. None for an object without
 * patches, or one whose render keeps what its patches write (a plain `ApiObject`).
 *
 * @param manifest the object's render (`toJson()`), patches applied
 */
export function droppedPatchValues(apiObject: ApiObject, manifest: unknown): DroppedPatchValue[] {
  const patches = jsonPatchesOf(apiObject);
  if (patches.length === 0) return [];
  let expected: unknown;
  try {
    expected = JsonPatch.apply(structuredClone(renderWithoutPatches(apiObject)), ...patches);
  } catch {
    return []; // the render applied them, this cannot: nothing to compare
  }
  const found: DroppedPatchValue[] = [];
  // `held`: the render has the key (or index), its value perhaps undefined, which cdk8s writes as null
  const walk = (want: unknown, got: unknown, at: string[], held: boolean) => {
    // a map or list the serializer wrote as a scalar (a Quantity object given in the patch, written as its text)
    if (want !== null && typeof want === 'object' && got !== null && got !== undefined && typeof got !== 'object') return;
    if (want !== null && typeof want === 'object' && got === undefined && !held && Object.keys(want).length > 0) {
      // a map or list whose key the schema lacks: named once, where it goes missing
      return void found.push(dropped(at, want, 'nothing'));
    }
    if (Array.isArray(want)) {
      want.forEach((w, i) => walk(w, Array.isArray(got) ? got[i] : undefined, [...at, String(i)], Array.isArray(got) && i < got.length));
    } else if (isMap(want)) {
      for (const [k, w] of Object.entries(want)) walk(w, isMap(got) ? got[k] : undefined, [...at, k], isMap(got) && Object.hasOwn(got, k));
    } else if ((typeof want === 'string' || typeof want === 'number' || typeof want === 'boolean') && (got === null || got === undefined)) {
      found.push(dropped(at, want, got === null || held ? 'null' : 'nothing'));
    }
  };
  const dropped = (at: string[], value: unknown, rendered: DroppedPatchValue['rendered']): DroppedPatchValue => {
    const patch = patchWriting(patches, at);
    const call = patch && jsonPatchCall(patch);
    return {
      path: apiObject.node.path,
      at,
      value,
      rendered,
      className: apiObject.constructor.name,
      ...(call ? { call: call.site ? `${call.api} at ${call.site}` : call.api } : {}),
    };
  };
  walk(expected, manifest, [], true);
  if (found.length === 0) return found;
  // the module whose class it is, for the form a fix writes (cdk8s-plus-30's `k8s.Quantity`): one pass over the loaded modules
  const file = moduleFileExporting(apiObject.constructor);
  return file === undefined ? found : found.map((d) => ({ ...d, classModule: displayFile(file) }));
}

/** The last patch that adds or replaces the value at `at` or a map or list above it. */
function patchWriting(patches: readonly JsonPatch[], at: readonly string[]): JsonPatch | undefined {
  const pointer = `/${at.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  for (let i = patches.length - 1; i >= 0; i--) {
    const { op, path } = patchOperation(patches[i]);
    if ((op === 'add' || op === 'replace' || op === 'copy' || op === 'move') && (pointer === path || pointer.startsWith(`${path}/`))) return patches[i];
  }
  return undefined;
}
