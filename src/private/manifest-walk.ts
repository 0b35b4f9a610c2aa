import { FieldHandleOrigin, fieldHandleOrigin } from './field-handle';

/**
 * How deep a manifest may nest maps and lists. The YAML writer and cdk8s
 * recurse once per level (cdk8s overflows the stack near 4,000 levels, the
 * YAML writer near 2,500); real manifests nest a few dozen.
 */
export const MAX_NESTING_DEPTH = 1000;

/** What one walk of a manifest finds, for the checks that read its structure (nesting depth, JSON values). */
export interface ManifestWalk {
  /** The path to the first map or list found `limit` levels deep; absent when the manifest nests no deeper. */
  readonly tooDeep?: string[];
  /**
   * The first value JSON cannot hold (a `BigInt`, a `Symbol`, a function) above that depth, with its path; for
   * a method of a contract's field handle, the handle's path and what it is a handle of.
   */
  readonly nonJson?: { readonly path: string[]; readonly kind: string; readonly handle?: FieldHandleOrigin };
}

/** What JSON cannot hold, as messages name it. */
const NON_JSON: Readonly<Record<string, string>> = { bigint: 'a BigInt', symbol: 'a Symbol', function: 'a function' };

/** One map or list being walked, with the way back to the root. */
interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly key: string;
  readonly parent?: Frame;
}

/** Walks of manifests at `MAX_NESTING_DEPTH`, by manifest: the two checks that read one share it. */
const walks = new WeakMap<object, ManifestWalk>();

/**
 * Walks a manifest once, with a stack of its own (any depth is measured without recursion), keys in order:
 * the first map or list `limit` levels deep (where the walk stops), and the first value JSON cannot hold.
 * Paths are made only for what it finds: nearly every manifest is clean. At `MAX_NESTING_DEPTH` the result
 * is kept per manifest object.
 *
 * @param limit the depth a map or list must not reach (the manifest itself is level 0)
 */
export function walkManifest(value: unknown, limit: number = MAX_NESTING_DEPTH): ManifestWalk {
  const top = NON_JSON[typeof value];
  if (top) return { nonJson: { path: [], kind: top } };
  if (value === null || typeof value !== 'object') return {};
  const cached = limit === MAX_NESTING_DEPTH ? walks.get(value) : undefined;
  if (cached) return cached;
  const found = walk(value, limit);
  if (limit === MAX_NESTING_DEPTH) walks.set(value, found);
  return found;
}

function walk(value: object, limit: number): ManifestWalk {
  let nonJson: ManifestWalk['nonJson'];
  const open: Frame[] = [{ value, depth: 0, key: '' }];
  while (open.length > 0) {
    const frame = open.pop()!;
    if (frame.depth === limit) return { tooDeep: pathOf(frame), ...(nonJson ? { nonJson } : {}) };
    const v = frame.value as Record<string, unknown>;
    const list = Array.isArray(v) ? (v as unknown[]) : undefined;
    const keys = list ? undefined : Object.keys(v);
    const n = list ? list.length : keys!.length;
    const children: Frame[] = [];
    for (let i = 0; i < n; i++) {
      const key = keys ? keys[i] : String(i);
      const child = list ? list[i] : v[key];
      if (child === null) continue;
      if (typeof child === 'object') {
        children.push({ value: child, depth: frame.depth + 1, key, parent: frame });
      } else if (nonJson === undefined && NON_JSON[typeof child]) {
        // a method of a contract field's handle, which cdk8s copies into the manifest with the handle's other keys
        const handle = fieldHandleOrigin(child);
        nonJson = handle
          ? { path: pathOf(frame), kind: 'a handle', handle }
          : { path: pathOf({ value: v, depth: frame.depth + 1, key, parent: frame }), kind: NON_JSON[typeof child] };
      }
    }
    // pushed in reverse, so the first key is walked first
    for (let i = children.length - 1; i >= 0; i--) open.push(children[i]);
  }
  return nonJson ? { nonJson } : {};
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}
