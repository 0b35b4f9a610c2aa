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
   * The first value JSON cannot hold (a `BigInt`, a `Symbol`, a function, `NaN`, an infinity) above that depth, with its path; for
   * a method of a contract's field handle, the handle's path and what it is a handle of.
   */
  readonly nonJson?: { readonly path: string[]; readonly kind: string; readonly handle?: FieldHandleOrigin };
  /**
   * At least as many bytes as `JSON.stringify` of the manifest takes in UTF-8, counted on the same walk, so a
   * check of the serialized size serializes only a manifest that may be over its limit; absent when the walk
   * cannot bound it (it stopped too deep, met a value JSON cannot hold or an object with a `toJSON` method).
   */
  readonly maxBytes?: number;
  /**
   * What the walk saw of the text two scans look for, so that each passes over a manifest without it (the scan of
   * secrets, the scan of deployment-time values). Absent when the walk stopped too deep, having seen only part of
   * the manifest.
   */
  readonly marks?: TextMarks;
}

/** What a walk saw of the text the scans of secrets and of deployment-time values look for; one shared record each. */
export interface TextMarks {
  /** Some string (a value or a map key) may hold a secret's shape (`MAY_HOLD_A_SHAPE`). */
  readonly secretShape: boolean;
  /** Some string may hold a deployment-time value (`MAYBE_DEPLOY_TIME`), or some number is as large as an aws-cdk number token. */
  readonly deployTime: boolean;
  /** Some map's `value` is a string at `containers` (or `initContainers`), a key, `env`, a key, `value`: a literal environment variable. */
  readonly envValue: boolean;
}

/** The eight records of `TextMarks`, shared, by secretShape + 2 deployTime + 4 envValue. */
const MARKS: readonly TextMarks[] = Array.from({ length: 8 }, (_, i) =>
  Object.freeze({ secretShape: i % 2 === 1, deployTime: Math.floor(i / 2) % 2 === 1, envValue: i >= 4 }));

/**
 * A quick filter in front of the secret shapes (`SECRET_SHAPES` of the possible-secrets rule): every shape's match
 * holds one of these substrings, so a text without any matches no shape. A new shape adds its own here (the
 * property tests of test/possible-secrets.test.ts generate each shape's secrets and fail when the filter lets one
 * through unseen).
 */
export const MAY_HOLD_A_SHAPE = /AKIA|ASIA|PRIVATE KEY|gh[pousr]_|github_pat_|xox[abposr]-|sk_live_|AIza|:\/\//;
/** What every string form of a deployment-time value contains (a brace, or a number in exponent notation): most strings are passed over with one test. */
export const MAYBE_DEPLOY_TIME = /\{|\de[+-]\d/i;
/**
 * Matches exactly the texts either of the two filters above matches (their alternatives, `MAYBE_DEPLOY_TIME`'s
 * case-insensitive `e` spelled out), so a walk tests most strings once, not twice, while it has seen neither.
 * A filter's new alternative is added here too (test/manifest-walk-marks.test.ts compares the marks with each filter's).
 */
const MAY_HOLD_EITHER = /AKIA|ASIA|PRIVATE KEY|gh[pousr]_|github_pat_|xox[abposr]-|sk_live_|AIza|:\/\/|\{|\d[eE][+-]\d/;
/**
 * Map keys neither filter matches, as walks met them: manifests repeat their keys (`metadata`, `name`, `data`), so a
 * walk tests a key once per process, not once per map. At most `PLAIN_KEYS_KEPT` of them.
 */
const PLAIN_KEYS = new Set<string>();
const PLAIN_KEYS_KEPT = 4096;
/** The containers' lists of a pod spec whose `env` is read (as `secretEnvValueAt` reads them). */
const CONTAINER_LISTS: ReadonlySet<string> = new Set(['containers', 'initContainers']);
/** No aws-cdk number token is larger: they are about -1.9e+289 (a double whose top 16 bits are 0xFBFF). */
const NUMBER_TOKEN_BOUND = -1e288;

/**
 * The most bytes `JSON.stringify` writes for one UTF-16 unit of a string: a control character or a lone
 * surrogate is escaped as `\uXXXX`; any other unit takes at most 3 bytes of UTF-8 (a surrogate pair, two
 * units, 4).
 */
const MAX_BYTES_PER_UNIT = 6;
/** The longest JSON text of a number: `-1.7976931348623157e+308`, `-5e-324`. */
const MAX_NUMBER_BYTES = 24;

/** What JSON cannot hold, as messages name it. */
const NON_JSON: Readonly<Record<string, string>> = { bigint: 'a BigInt', symbol: 'a Symbol', function: 'a function' };

/**
 * What a value JSON has no form for is (`a BigInt`, `a Symbol`, `a function`); undefined for any other value.
 * NaN and the infinities, which JSON has no form for either, are numbers to this test: a walk of a manifest
 * (`walkManifest`) names them (`NaN`, `Infinity`, `-Infinity`), and aws-cdk's values are judged apart.
 */
export function nonJsonKind(value: unknown): string | undefined {
  return NON_JSON[typeof value];
}

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

/**
 * What a walk has seen of the text the two scans look for (`TextMarks`), the quick filters each tested until it
 * first matches. An object of its own, not variables a closure of the walk shares: those would live in a context
 * the walk reads through on every value.
 */
class Seen {
  secretShape = false;
  deployTime = false;
  envValue = false;

  /** Tests a key or a value. */
  text(text: string): void {
    if (!this.secretShape && !this.deployTime && !MAY_HOLD_EITHER.test(text)) return;
    if (!this.secretShape && MAY_HOLD_A_SHAPE.test(text)) this.secretShape = true;
    if (!this.deployTime && MAYBE_DEPLOY_TIME.test(text)) this.deployTime = true;
  }

  /** The shared record of what was seen. */
  marks(): TextMarks {
    return MARKS[(this.secretShape ? 1 : 0) + (this.deployTime ? 2 : 0) + (this.envValue ? 4 : 0)];
  }
}

function walk(value: object, limit: number): ManifestWalk {
  let nonJson: ManifestWalk['nonJson'];
  const seen = new Seen();
  // an upper bound of the serialized bytes; NaN once it cannot be bounded
  let bytes = hasToJson(value) ? NaN : 2;
  const open: Frame[] = [{ value, depth: 0, key: '' }];
  while (open.length > 0) {
    const frame = open.pop()!;
    if (frame.depth === limit) return { tooDeep: pathOf(frame), ...(nonJson ? { nonJson } : {}) };
    const v = frame.value as Record<string, unknown>;
    const list = Array.isArray(v) ? (v as unknown[]) : undefined;
    const keys = list ? undefined : Object.keys(v);
    const n = list ? list.length : keys!.length;
    // the children of the map or list in hand are pushed onto `open` from here, then reversed, so the first key is walked first
    const children = open.length;
    for (let i = 0; i < n; i++) {
      const key = keys ? keys[i] : String(i);
      // a comma, and a key with its quotes and colon
      if (keys) {
        bytes += MAX_BYTES_PER_UNIT * key.length + 4;
        if (PLAIN_KEYS.has(key)) {
          // neither filter matches it
        } else if (MAY_HOLD_EITHER.test(key)) {
          seen.text(key);
        } else if (PLAIN_KEYS.size < PLAIN_KEYS_KEPT) {
          PLAIN_KEYS.add(key);
        }
      } else {
        bytes += 1;
      }
      const child = list ? list[i] : v[key];
      const type = typeof child;
      if (type === 'string') {
        bytes += MAX_BYTES_PER_UNIT * (child as string).length + 2;
        seen.text(child as string);
        // the entry of an env list of a container: frame is the entry, its parent `env`, then the container and its list
        if (key === 'value' && keys && frame.parent?.key === 'env' && CONTAINER_LISTS.has(frame.parent.parent?.parent?.key as string)) seen.envValue = true;
      } else if (child === null || child === undefined) {
        bytes += 4;
      } else if (type === 'object') {
        bytes += hasToJson(child as object) ? NaN : 2;
        open.push({ value: child as object, depth: frame.depth + 1, key, parent: frame });
      } else if (type === 'number' || type === 'boolean') {
        bytes += MAX_NUMBER_BYTES;
        if (type === 'number' && (child as number) < NUMBER_TOKEN_BOUND) seen.deployTime = true;
        // NaN and the infinities: YAML writes .nan and .inf, which no JSON the API server reads can hold
        if (nonJson === undefined && type === 'number' && !Number.isFinite(child)) {
          nonJson = { path: pathOf({ value: v, depth: frame.depth + 1, key, parent: frame }), kind: String(child) };
        }
      } else if (nonJson === undefined && NON_JSON[type]) {
        // a method of a contract field's handle, which cdk8s copies into the manifest with the handle's other keys
        const handle = fieldHandleOrigin(child);
        nonJson = handle
          ? { path: pathOf(frame), kind: 'a handle', handle }
          : { path: pathOf({ value: v, depth: frame.depth + 1, key, parent: frame }), kind: NON_JSON[type] };
      }
    }
    for (let i = children, j = open.length - 1; i < j; i++, j--) {
      const first = open[i];
      open[i] = open[j];
      open[j] = first;
    }
  }
  const marks = seen.marks();
  if (nonJson) return { nonJson, marks };
  return Number.isNaN(bytes) ? { marks } : { maxBytes: bytes, marks };
}

/** True when `JSON.stringify` would call a `toJSON` method of `value` (a `Date`), so its text is not its keys'. */
export function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}
