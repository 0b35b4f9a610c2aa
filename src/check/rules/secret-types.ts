import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { isMap } from '../../private/maps';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** What the API server requires of a Secret of a built-in type, and how a user meets it. */
interface SecretType {
  /** The keys of `data` (or `stringData`) the type requires: all of them, or (`any`) at least one. */
  readonly keys: readonly string[];
  readonly any?: boolean;
  /** Whether a required key must hold a non-empty value, not only be present. */
  readonly nonEmpty?: boolean;
  /** Whether the value must be a JSON object (Go's `json.Unmarshal` into a map: `null` passes too). */
  readonly json?: boolean;
  /** The usual way to get such a Secret right, said after the fix. */
  readonly hint: string;
}

/**
 * The Secret types Kubernetes validates, from `ValidateSecret` (kubernetes `pkg/apis/core/validation/validation.go`,
 * unchanged from 1.19 to 1.30): the API server merges `stringData` into `data` first, then refuses the Secret.
 */
const SECRET_TYPES: ReadonlyMap<string, SecretType> = new Map([
  ['kubernetes.io/tls', {
    keys: ['tls.crt', 'tls.key'],
    hint: 'A Secret a controller issues (a cert-manager Certificate names it in spec.secretName) is made by that controller: declare no Secret for it.',
  }],
  ['kubernetes.io/basic-auth', { keys: ['username', 'password'], any: true, hint: 'Either key may be empty, but one must be there.' }],
  ['kubernetes.io/ssh-auth', { keys: ['ssh-privatekey'], nonEmpty: true, hint: 'It holds the private key, and must not be empty.' }],
  ['kubernetes.io/dockerconfigjson', { keys: ['.dockerconfigjson'], json: true, hint: 'It holds a Docker config.json: {"auths": {...}}.' }],
  ['kubernetes.io/dockercfg', { keys: ['.dockercfg'], json: true, hint: 'It holds a legacy ~/.dockercfg file, a JSON object.' }],
]);

/** The annotation a ServiceAccount token Secret must have (`ServiceAccountNameKey`). */
const SERVICE_ACCOUNT_NAME = 'kubernetes.io/service-account.name';

/**
 * `CAP010`: a Secret of a built-in type that the API server refuses for what its type requires: a
 * `kubernetes.io/tls` Secret without `tls.crt` or `tls.key`, a `basic-auth` one with neither `username` nor
 * `password`, an `ssh-auth` one with no `ssh-privatekey`, a Docker config Secret without its key or whose value is
 * no JSON object, a `service-account-token` one that names no ServiceAccount. Keys are looked for in `data` and
 * `stringData` together, as the API server merges them. A Secret of any other type, or whose `data` or
 * `stringData` is not a map (which the schema checks report), is left alone.
 */
export const secretTypes = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'secret types',
  explanation: 'A Secret of a built-in type (kubernetes.io/tls, basic-auth, ssh-auth, dockerconfigjson, dockercfg, service-account-token) must hold the keys its type requires, or the API server refuses it at apply, after earlier steps were applied.',
  run: ({ facts }) => facts.objects.flatMap(secretProblems),
});

/** The problems of one object when it is a Secret of a validated type; none otherwise. */
export function secretProblems(object: ObjectFact): RuleFinding[] {
  if (object.identity.group !== '' || object.identity.kind !== 'Secret') return [];
  const m = object.manifest;
  const type: unknown = m?.type;
  if (typeof type !== 'string') return [];
  const where = `${describeIdentity(object.identity)} declared by '${object.declarer}' has type ${JSON.stringify(type)}`;
  const problem = (what: string, refusal: string, fix: string): RuleFinding[] =>
    [{ message: `${where} ${what}: the API server refuses it (${refusal}), after earlier steps were applied. ${fix}`, paths: [object.declarer] }];

  if (type === 'kubernetes.io/service-account-token') {
    const annotations = m.metadata?.annotations;
    if (isMap(annotations) && annotations[SERVICE_ACCOUNT_NAME] !== undefined) return [];
    return problem(
      `but no annotation ${SERVICE_ACCOUNT_NAME}`,
      `metadata.annotations[${SERVICE_ACCOUNT_NAME}]: Required value`,
      'Set the annotation to the name of the ServiceAccount whose token it holds; the token controller fills data.token.',
    );
  }
  const rule = SECRET_TYPES.get(type);
  if (!rule) return [];
  if ((m.data !== undefined && !isMap(m.data)) || (m.stringData !== undefined && !isMap(m.stringData))) return [];
  const values = new Map<string, { value: unknown; encoded: boolean }>();
  for (const [k, v] of Object.entries((m.data ?? {}) as Record<string, unknown>)) values.set(k, { value: v, encoded: true });
  for (const [k, v] of Object.entries((m.stringData ?? {}) as Record<string, unknown>)) values.set(k, { value: v, encoded: false });
  const keyed = (k: string) => `data[${JSON.stringify(k)}]`;
  const set = (keys: readonly string[]) => `Set ${keys.map(keyed).join(rule.any ? ' or ' : ' and ')} (or the same keys of stringData).`;

  const missing = rule.keys.filter((k) => !values.has(k));
  if (rule.any ? missing.length === rule.keys.length : missing.length > 0) {
    const named = rule.any ? `neither ${rule.keys.map(keyed).join(' nor ')}` : `no ${missing.map(keyed).join(' and no ')}`;
    return problem(`but ${named}`, missing.map((k) => `data[${k}]: Required value`).join(', '), `${set(rule.any ? rule.keys : missing)} ${rule.hint}`);
  }
  for (const key of rule.keys) {
    const held = values.get(key);
    if (!held) continue;
    const text = decoded(held.value, held.encoded);
    if (rule.nonEmpty && text === '') return problem(`but an empty ${keyed(key)}`, `data[${key}]: Required value`, `${set([key])} ${rule.hint}`);
    if (rule.json && text !== undefined && !isJsonObject(text)) {
      return problem(`but ${keyed(key)} is no JSON object`, `data[${key}]: Invalid value: "<secret contents redacted>"`, `Give ${keyed(key)} a JSON object. ${rule.hint}`);
    }
  }
  return [];
}

/** The text a value holds: decoded from base64 for `data`; undefined when it is no string or no clean base64. */
function decoded(value: unknown, encoded: boolean): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (!encoded) return value;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) return undefined;
  return Buffer.from(value, 'base64').toString('utf8');
}

/** Whether Go's `json.Unmarshal` into a map accepts the text: a JSON object, or `null`. */
function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed));
  } catch {
    return false;
  }
}
