import { describeIdentity } from '../../collect/object-identity';
import { CrdTopologies } from '../../collect/topology/crd-topology';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { compareText } from '../../private/compare';
import { MAY_HOLD_A_SHAPE, walkManifest } from '../../private/manifest-walk';
import { forEachScalar } from '../../private/walk';
import { secretEnvValueAt } from '../../release/sensitive-env';
import { literalTemplateSecrets } from '../../release/sensitive-properties';
import { ViolationCode } from '../finding';
import { FindingField, objectField, templateField, withField } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldPathOf } from './unseen-fields';

/** A well-known shape of a secret: what messages call it, and how a match is shown in them. */
export interface SecretShape {
  /** What it is, for messages: `an AWS access key id`. */
  readonly what: string;
  /** Matches the secret in a value. */
  readonly pattern: RegExp;
  /** The match as a message shows it, without the secret; default: its first and last four characters. */
  readonly redact?: (match: string) => string;
}

/**
 * A URL with a non-empty password in its userinfo (`postgres://app:hunter2@db`):
 * scheme, user, password, then the host. A password that is a placeholder
 * (`$(DB_PASS)`, `$DB_PASS`, `${DB_PASS}`, `****`) is none.
 */
const URL_WITH_PASSWORD = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:@/?#]*:(?!(?:\$\([A-Za-z_]\w*\)|\$[A-Za-z_]\w*|\$\{[^{}@]*\}|\*+)@)[^\s@/?#]+@[^\s/?#"'`]*/;

/**
 * Well-known shapes of secrets that must never be written to the output (and
 * so to git), each with a fixed prefix or structure that ordinary configuration
 * does not have. The lock and the plan mask a value that holds one.
 */
export const SECRET_SHAPES: readonly SecretShape[] = [
  { what: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { what: 'a PEM private key', pattern: /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/, redact: (m) => `"${m}"` },
  { what: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b/ },
  { what: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { what: 'a Stripe live secret key', pattern: /\bsk_live_[A-Za-z0-9]{24,}\b/ },
  { what: 'a Google API key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/ },
  // the host stays, the password does not: "postgres://app:****@db:5432"
  { what: 'a URL with a password', pattern: URL_WITH_PASSWORD, redact: (m) => `"${m.replace(/^([^:]*:\/\/[^:@]*:)[^@]*@/, '$1****@')}"` },
];

/**
 * False when no part of `text` holds a secret shape (`secretShapesIn` finds none in it, nor in any string it
 * contains): the quick filter alone, for a text that holds many values at once.
 */
export function mayHoldSecretShape(text: string): boolean {
  return MAY_HOLD_A_SHAPE.test(text);
}

/** The secret shapes `text` holds, each with its match, in `SECRET_SHAPES` order. */
export function secretShapesIn(text: string): Array<{ readonly shape: SecretShape; readonly match: string }> {
  if (!MAY_HOLD_A_SHAPE.test(text)) return [];
  const found: Array<{ readonly shape: SecretShape; readonly match: string }> = [];
  for (const shape of SECRET_SHAPES) {
    const m = shape.pattern.exec(text);
    if (m) found.push({ shape, match: m[0] });
  }
  return found;
}

/**
 * `CAP012` warning: a value shaped like a well-known secret (`SECRET_SHAPES`:
 * an AWS access key id, a PEM private key, a GitHub, Slack or Stripe token, a
 * Google API key, a URL with a password) in a runtime manifest or a
 * CloudFormation template, the literal value of a container's environment
 * variable named like a secret (`secretEnvValueAt`: `DB_PASSWORD`), and a
 * literal in a template where a secret goes (a property that takes one,
 * `SECRET_PROPERTIES`, or the `Default` of a `NoEcho` parameter), which synth
 * would write to the outdir in clear text. A warning, not a refusal: the shape
 * can be a false positive (a documented example key), and a literal password
 * can be a test's. Secret `data` values are base64-decoded before they are scanned.
 */
export const possibleSecrets = defineRule({
  code: ViolationCode.POSSIBLE_SECRET,
  title: 'possible secrets',
  explanation: 'A value shaped like a secret (a private key, an access key) would be written to the output in clear text and committed with it; a warning, since the shape can be a coincidence.',
  severity: 'warning',
  run({ facts }) {
    const found: RuleFinding[] = [];
    let crds: CrdTopologies | undefined;
    for (const object of facts.objects) {
      const path = object.declarer;
      const isSecret = object.identity.group === '' && object.identity.kind === 'Secret';
      // the walk the JSON-values and nesting-depth rules read (kept per manifest) tells the manifests with nothing to find
      // (a Secret's `data` is scanned decoded too, which no walk of the text sees)
      if (!(isSecret && holdsMap(object.manifest, 'data')) && holdsNone(object.manifest, true)) continue;
      const hits = scan(object.manifest, (at, v) => (isSecret && at.length === 2 && at[0] === 'data' ? decodeBase64(v) : v), (at) => secretEnvValueAt(object.manifest, at));
      if (hits.length === 0) continue;
      crds ??= CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
      const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind, crds);
      for (const hit of hits) {
        const field = objectField(object, fieldPathOf(hit.at, object.manifest, topology));
        found.push(secretWarning(hit, `${manifestPathText(hit.at, object.manifest, topology)} of ${describeIdentity(object.identity)} declared by '${path}'`, path, field));
      }
    }
    for (const stack of facts.stacks) {
      const declarer = (at: readonly string[]) => (at[0] === 'Resources' && facts.resourceDeclarers[`${stack.path}\u0000${at[1]}`]) || stack.path;
      for (const hit of holdsNone(stack.template, false) ? [] : scan(stack.template)) {
        const path = declarer(hit.at);
        found.push(secretWarning(hit, `${formatAt(hit.at)} of the template of stack '${stack.path}' (from '${path}')`, path, templateField(facts, stack.path, stack.template, hit.at, path)));
      }
      for (const secret of literalTemplateSecrets(stack.template)) {
        const path = declarer(secret.at);
        found.push({
          message:
            `a literal secret (${secret.what}) in ${formatAt(secret.at)} of the template of stack '${stack.path}' (from '${path}') would be written to the output in clear text ` +
            '(the cloud assembly under deploy/; the lock and the plan mask it). Take it from AWS Secrets Manager or an SSM SecureString parameter instead ' +
            '(SecretValue.secretsManager, SecretValue.ssmSecure, rds.Credentials.fromGeneratedSecret), or pass it as a NoEcho parameter without a Default.',
          paths: [path],
          ...withField(templateField(facts, stack.path, stack.template, secret.at, path)),
        });
      }
    }
    return found;
  },
});

/**
 * True when a walk of `value` (`walkManifest`, kept per object) saw no string a secret's shape can be in, nor,
 * with `env`, a literal environment variable: a scan finds nothing.
 */
function holdsNone(value: unknown, env: boolean): boolean {
  const marks = walkManifest(value).marks;
  return marks !== undefined && !marks.secretShape && !(env && marks.envValue);
}

/** True when `manifest[key]` is a map or a list. */
function holdsMap(manifest: unknown, key: string): boolean {
  const v = manifest !== null && typeof manifest === 'object' ? (manifest as Record<string, unknown>)[key] : undefined;
  return v !== null && typeof v === 'object';
}

interface Hit {
  readonly at: string[];
  readonly what: string;
  /** The match, as the message shows it. */
  readonly shown: string;
  /** The environment variable whose name made the value a secret; absent for a shape. */
  readonly envName?: string;
}

function secretWarning(hit: Hit, where: string, path: string, field?: FindingField): RuleFinding {
  const fix = hit.envName !== undefined
    ? 'Keep secrets out of the composition: put the value in a Secret (from AWS Secrets Manager or SSM SecureString through an ExternalSecret) and reference it with valueFrom.secretKeyRef, or rename the variable if it is not a secret.'
    : 'Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.';
  return { message: `${hit.what} (${hit.shown}) in ${where} would be written to the output in clear text. ${fix}`, paths: [path], ...withField(field) };
}

/**
 * Every string in `value` (keys included) with a secret shape, and every value
 * `envNameAt` names a secret-named environment variable for (when no shape
 * matched it already: one warning a value).
 */
function scan(
  value: unknown,
  decode: (at: readonly string[], v: string) => string = (_, v) => v,
  envNameAt: (at: readonly string[]) => string | undefined = () => undefined,
): Hit[] {
  const hits: Hit[] = [];
  forEachScalar(value, (scalar, at, isKey) => {
    if (typeof scalar !== 'string') return;
    const text = isKey ? scalar : decode(at, scalar);
    let shaped = false;
    for (const { shape: { what, redact = ends }, match } of secretShapesIn(text)) {
      hits.push({ at: [...at], what, shown: redact(match) });
      shaped = true;
    }
    const envName = isKey || shaped ? undefined : envNameAt(at);
    if (envName !== undefined) {
      hits.push({ at: [...at], what: `a literal value of the secret-named environment variable ${envName}`, shown: ends(scalar), envName });
    }
  });
  return hits.sort((a, b) => compareText(a.at.join('\u0000'), b.at.join('\u0000')) || compareText(a.what, b.what));
}

/** A template's path: `Resources.Param.Properties["odd key"]`, `Resources.Fn.Properties.Layers[0]`; user keys are never parsed. */
function formatAt(at: readonly string[]): string {
  const out = at.map((s, i) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `${i ? '.' : ''}${s}` : /^\d+$/.test(s) ? `[${s}]` : `[${JSON.stringify(s)}]`));
  return out.join('') || '(the whole object)';
}

/**
 * The first and last four characters only, so the warning does not leak what
 * it warns about; nothing of a value shorter than 16 characters, which four
 * and four would give away.
 */
function ends(match: string): string {
  return match.length < 16 ? '"****"' : `"${match.slice(0, 4)}...${match.slice(-4)}"`;
}

function decodeBase64(v: string): string {
  return /^[A-Za-z0-9+/=\s]*$/.test(v) ? `${v}\n${Buffer.from(v, 'base64').toString('utf-8')}` : v;
}
