import { mayHoldSecretShape, secretShapesIn } from '../check/rules/possible-secrets';
import { KNOWN_AFTER_DEPLOY, SENSITIVE } from '../release/lock';
import { isSecretEnvName } from '../release/sensitive-env';
import { SECRET_PROPERTIES } from '../release/sensitive-properties';

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
 * False when no string of a document can be masked as `(sensitive)` for what it holds (`maskedText`: a secret
 * reference or a secret shape), told from a text that holds every string of the document as it is: JSON, or the
 * YAML `toYaml` writes (block style, no line folding, only `"`, `\\` and characters that are not printable escaped,
 * as in JSON). What marks a secret reference or a shape (`{{resolve:`, `AKIA`, `://`, ...) is printable ASCII
 * without a quote or a backslash on one line, so a string that holds one puts it in the text as it is.
 *
 * @param text the document's text (a unit's YAML or JSON)
 */
export function textMayHoldMaskedString(text: string): boolean {
  return SECRET_REFERENCE.test(text) || mayHoldSecretShape(text);
}

/**
 * False when no node of a manifest is the literal value of a container's environment variable named like a
 * secret (`secretEnvValueAt`); true when one may be: an entry of an `env` of an element of a `containers` or
 * `initContainers` anywhere in it with a string `name` that says it is a secret (`isSecretEnvName`) and a non-empty
 * string `value`. The manifest's `text` (as `textMayHoldMaskedString` takes it) tells a manifest without either key.
 */
export function mayHoldSecretEnvValue(manifest: unknown, text: string): boolean {
  if (!text.includes('ontainers')) return false;
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (walk(v[i])) return true;
      return false;
    }
    for (const k of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[k];
      if ((k === 'containers' || k === 'initContainers') && containersMayHoldSecretEnv(child)) return true;
      if (walk(child)) return true;
    }
    return false;
  };
  return walk(manifest);
}

/** `mayHoldSecretEnvValue` of the elements (or members) of one `containers` list. */
function containersMayHoldSecretEnv(containers: unknown): boolean {
  if (containers === null || typeof containers !== 'object') return false;
  for (const container of Object.values(containers)) {
    const env = container !== null && typeof container === 'object' ? (container as { env?: unknown }).env : undefined;
    if (env === null || typeof env !== 'object') continue;
    for (const entry of Object.values(env)) {
      if (entry === null || typeof entry !== 'object') continue;
      const { name, value } = entry as { name?: unknown; value?: unknown };
      if (typeof name === 'string' && typeof value === 'string' && value !== '' && isSecretEnvName(name)) return true;
    }
  }
  return false;
}

/**
 * False when no node of a CloudFormation template takes a secret (`templateSecretAt`): no parameter is `NoEcho`
 * and no resource has a type with a property that takes one (`SECRET_PROPERTIES`); true when one may.
 */
export function mayHoldTemplateSecret(template: unknown): boolean {
  const t = template as { Resources?: unknown; Parameters?: unknown } | null | undefined;
  const parameters = t?.Parameters;
  if (parameters !== null && typeof parameters === 'object') {
    for (const p of Object.values(parameters)) {
      const noEcho = (p as { NoEcho?: unknown } | null | undefined)?.NoEcho;
      if (noEcho === true || noEcho === 'true') return true;
    }
  }
  const resources = t?.Resources;
  if (resources !== null && typeof resources === 'object') {
    for (const r of Object.values(resources)) {
      const type = (r as { Type?: unknown } | null | undefined)?.Type;
      if (typeof type === 'string' && SECRET_PROPERTIES[type]) return true;
    }
  }
  return false;
}

/**
 * False when `holdsSensitiveLeaf` is false for a document, told without walking every node of it; true when it may
 * be true (then walk it): when its text may hold a string that is masked (`textMayHoldMaskedString`), or a node of it
 * may take a secret where it is (`mayHoldSecretEnvValue`, `mayHoldTemplateSecret`).
 *
 * @param text the document's text, as `textMayHoldMaskedString` takes it
 * @param nodes which nodes `holdsSensitiveLeaf`'s `isSensitive` names: `none`; `env`, the literal values of
 *   secret-named environment variables (`secretEnvValueAt`); `template`, a template's nodes that take a secret
 *   (`templateSecretAt`); `any` other (always walked)
 */
export function mayHoldSensitiveLeaf(doc: unknown, text: string, nodes: 'none' | 'env' | 'template' | 'any'): boolean {
  if (textMayHoldMaskedString(text)) return true;
  switch (nodes) {
    case 'none':
      return false;
    case 'env':
      return mayHoldSecretEnvValue(doc, text);
    case 'template':
      return mayHoldTemplateSecret(doc);
    default:
      return true;
  }
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
 * value, when `sensitive`) `(sensitive)`; maps and lists masked inside. A
 * token object (an override's `resource.getAtt('Arn')`, a cdk8s `Lazy`: it
 * has `resolve`) is `(known after deploy)` whole, never walked: it holds its
 * construct, whose tree holds itself.
 */
export function maskedValue(v: unknown, sensitive = false): unknown {
  if (Array.isArray(v)) return v.map((x) => maskedValue(x, sensitive));
  if (v !== null && typeof v === 'object') {
    if (typeof (v as { resolve?: unknown }).resolve === 'function') return KNOWN_AFTER_DEPLOY;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskedValue(x, sensitive)]));
  }
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
