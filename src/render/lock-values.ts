import { SECRET_SHAPES } from '../check/rules/possible-secrets';

/** What the lock holds instead of a value that must not be written: a Secret's data, or a value shaped like a secret. */
export const SENSITIVE = '(sensitive)';

/** What the lock holds instead of an aws-cdk token: its value is known only at deploy time. */
export const KNOWN_AFTER_DEPLOY = '(known after deploy)';

const TOKEN = /\$\{Token\[/;
const SECRET_REFERENCE = /\{\{resolve:(secretsmanager|ssm-secure):/;
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * The leaves of a manifest or template, by path (`spec.template.spec.containers[0].image`,
 * `metadata.labels["app.kubernetes.io/name"]`), as the lock records them for
 * the plan's field diff. Masked, so the lock never holds a secret: every value
 * under `data` and `stringData` of a Secret, a value shaped like a secret (an
 * AWS access key id, a PEM private key, a Secrets Manager or SecureString
 * reference) is `(sensitive)`, and an aws-cdk token `(known after deploy)`.
 * An empty map or list is a leaf of its own (`{}`, `[]`).
 *
 * @param sensitiveRoots top-level keys whose whole content is masked (`data`, `stringData` of a Secret)
 */
export function lockValues(doc: unknown, sensitiveRoots: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (v: unknown, at: string, sensitive: boolean): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) out[at] = sensitive ? SENSITIVE : [];
      v.forEach((x, i) => walk(x, `${at}[${i}]`, sensitive));
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0 && at !== '') out[at] = sensitive ? SENSITIVE : {};
      for (const k of keys) {
        const path = PLAIN_KEY.test(k) ? (at === '' ? k : `${at}.${k}`) : `${at}[${JSON.stringify(k)}]`;
        walk((v as Record<string, unknown>)[k], path, sensitive || (at === '' && sensitiveRoots.includes(k)));
      }
    } else if (v !== undefined) {
      out[at] = masked(v, sensitive);
    }
  };
  walk(doc, '', false);
  return out;
}

/**
 * A value as the plan may show it, masked as the lock masks its leaves: a
 * token is `(known after deploy)`, a value shaped like a secret (or every
 * value, when `sensitive`) `(sensitive)`; maps and lists masked inside.
 */
export function maskedValue(v: unknown, sensitive = false): unknown {
  if (Array.isArray(v)) return v.map((x) => maskedValue(x, sensitive));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskedValue(x, sensitive)]));
  return v === undefined ? v : masked(v, sensitive);
}

function masked(v: unknown, sensitive: boolean): unknown {
  if (sensitive) return SENSITIVE;
  if (typeof v !== 'string') return v;
  if (TOKEN.test(v)) return KNOWN_AFTER_DEPLOY;
  if (SECRET_REFERENCE.test(v) || SECRET_SHAPES.some((s) => s.pattern.test(v))) return SENSITIVE;
  return v;
}
