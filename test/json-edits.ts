import * as fc from 'fast-check';

/** An edit of a JSON document: the place at `at` (modulo the places there are) set to `value`, or removed when it has none. */
export interface JsonEdit {
  readonly at: number;
  readonly value?: unknown;
}

/** Edits of a JSON document, for property tests of what reads a file users can edit: any JSON value, or removal. */
export const jsonEdit: fc.Arbitrary<JsonEdit> = fc.record({ at: fc.nat(), value: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }) });

/** Every place in a JSON value, as a path of keys and indexes (the root left out). */
export function placesOf(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [];
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((k) => [[...at, k], ...placesOf((value as any)[k], [...at, k])]);
}

/**
 * `document` with `edits` made, in order, at its places (`placesOf` of the unedited document); an edit whose
 * way there an earlier one removed or replaced is skipped. `document` itself is not changed.
 */
export function editedJson(document: unknown, edits: readonly JsonEdit[]): unknown {
  const places = placesOf(document);
  const out = structuredClone(document) as any;
  for (const edit of edits) {
    if (places.length === 0) break;
    const place = places[edit.at % places.length];
    let parent = out;
    for (const key of place.slice(0, -1)) parent = parent?.[key];
    if (parent === null || typeof parent !== 'object') continue;
    const last = place[place.length - 1];
    if (edit.value !== undefined) parent[last] = edit.value;
    else if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else delete parent[last];
  }
  return out;
}
