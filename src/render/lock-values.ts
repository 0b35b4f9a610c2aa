import { secretShapesIn } from '../check/rules/possible-secrets';
import { KNOWN_AFTER_DEPLOY, SENSITIVE } from '../release/lock';

const TOKEN = /\$\{Token\[/;
const SECRET_REFERENCE = /\{\{resolve:(secretsmanager|ssm-secure):/;
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** The leaves of a document as the lock records them, and the values it masked. */
export interface LockedLeaves {
  /** Each leaf by path, masked: a sensitive value is `(sensitive)`, an aws-cdk token `(known after deploy)`. */
  readonly values: Record<string, unknown>;
  /** The value behind each `(sensitive)` leaf, by path: digested with the lock's key, never written. */
  readonly masked: ReadonlyMap<string, unknown>;
}

/**
 * The leaves of a manifest or template, by path (`spec.template.spec.containers[0].image`,
 * `metadata.labels["app.kubernetes.io/name"]`), as the lock records them for
 * the plan's field diff. Masked, so the lock never holds a secret: every value
 * at or under a node `isSensitive` names (a Secret's `data`, a property that
 * takes a secret, the `Default` of a `NoEcho` parameter, the literal value of a
 * secret-named environment variable), and a value shaped like a secret
 * (`SECRET_SHAPES`: an AWS access key id, a PEM private key, a token, a URL
 * with a password; a Secrets Manager or SecureString reference) is
 * `(sensitive)`, and an aws-cdk token
 * `(known after deploy)`. An empty map or list is a leaf of its own (`{}`, `[]`).
 *
 * @param isSensitive whether the node at these keys (from the document's root) holds a secret, with all below it
 * @param paths the paths already made for other documents of the same lock, to share
 */
export function lockValues(doc: unknown, isSensitive: (at: readonly string[]) => boolean = () => false, paths = new LeafPaths()): LockedLeaves {
  const values: Record<string, unknown> = {};
  const masked = new Map<string, unknown>();
  const keys: string[] = [];
  const leaf = (at: string, v: unknown, sensitive: boolean) => {
    const shown = sensitive ? SENSITIVE : maskedText(v);
    values[at] = shown;
    if (shown === SENSITIVE) masked.set(at, v);
  };
  const walk = (v: unknown, at: string, inherited: boolean): void => {
    const sensitive = inherited || (keys.length > 0 && isSensitive(keys));
    if (Array.isArray(v)) {
      if (v.length === 0) leaf(at, [], sensitive);
      v.forEach((x, i) => {
        keys.push(String(i));
        walk(x, paths.element(at, i), sensitive);
        keys.pop();
      });
    } else if (v !== null && typeof v === 'object') {
      const names = Object.keys(v);
      if (names.length === 0 && at !== '') leaf(at, {}, sensitive);
      for (const k of names) {
        keys.push(k);
        walk((v as Record<string, unknown>)[k], paths.member(at, k), sensitive);
        keys.pop();
      }
    } else if (v !== undefined) {
      leaf(at, v, sensitive);
    }
  };
  walk(doc, '', false);
  return { values, masked };
}

/**
 * True when `lockValues` masks a leaf of the document as `(sensitive)` (its `masked` is not empty), told without
 * making a path or a value, and at the first such leaf: the same nodes `isSensitive` names, the same values
 * shaped like a secret.
 *
 * @param isSensitive whether the node at these keys (from the document's root) holds a secret, as `lockValues` takes it
 */
export function holdsSensitiveLeaf(doc: unknown, isSensitive: (at: readonly string[]) => boolean = () => false): boolean {
  const keys: string[] = [];
  const walk = (v: unknown, inherited: boolean): boolean => {
    const sensitive = inherited || (keys.length > 0 && isSensitive(keys));
    if (Array.isArray(v)) {
      if (v.length === 0) return sensitive;
      for (let i = 0; i < v.length; i++) {
        keys.push(String(i));
        const found = walk(v[i], sensitive);
        keys.pop();
        if (found) return true;
      }
      return false;
    }
    if (v !== null && typeof v === 'object') {
      const names = Object.keys(v);
      // an empty map is a leaf of its own, but for the document itself
      if (names.length === 0) return sensitive && keys.length > 0;
      for (const k of names) {
        keys.push(k);
        const found = walk((v as Record<string, unknown>)[k], sensitive);
        keys.pop();
        if (found) return true;
      }
      return false;
    }
    return v !== undefined && (sensitive || maskedText(v) === SENSITIVE);
  };
  return walk(doc, false);
}

/**
 * The leaves' paths made so far, by parent path and key: objects of one shape
 * share their paths instead of each building its own strings. One per lock
 * (`buildLock`), so nothing outlives a synth.
 */
export class LeafPaths {
  private readonly made = new Map<string, Map<string, string>>();
  private readonly elements = new Map<string, string[]>();

  /** The path of the member `key` of the map at `at`: `a.b`, or `a["odd key"]`. */
  public member(at: string, key: string): string {
    const paths = this.under(at);
    let path = paths.get(key);
    if (path === undefined) {
      path = PLAIN_KEY.test(key) ? (at === '' ? key : `${at}.${key}`) : `${at}[${JSON.stringify(key)}]`;
      paths.set(key, path);
    }
    return path;
  }

  /** The path of the element `index` of the list at `at`: `a[0]`. */
  public element(at: string, index: number): string {
    let paths = this.elements.get(at);
    if (!paths) {
      paths = [];
      this.elements.set(at, paths);
    }
    return (paths[index] ??= `${at}[${index}]`);
  }

  private under(at: string): Map<string, string> {
    let paths = this.made.get(at);
    if (!paths) {
      paths = new Map();
      this.made.set(at, paths);
    }
    return paths;
  }
}

/**
 * A value as the plan may show it, masked as the lock masks its leaves: a
 * token is `(known after deploy)`, a value shaped like a secret (or every
 * value, when `sensitive`) `(sensitive)`; maps and lists masked inside.
 */
export function maskedValue(v: unknown, sensitive = false): unknown {
  if (Array.isArray(v)) return v.map((x) => maskedValue(x, sensitive));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskedValue(x, sensitive)]));
  if (v === undefined) return v;
  return sensitive ? SENSITIVE : maskedText(v);
}

/** A value as the lock shows it when nothing marks it sensitive: a token, a secret reference or a secret shape is masked. */
function maskedText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (TOKEN.test(v)) return KNOWN_AFTER_DEPLOY;
  if (SECRET_REFERENCE.test(v) || secretShapesIn(v).length > 0) return SENSITIVE;
  return v;
}
