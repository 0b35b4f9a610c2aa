import { describeIdentity } from '../../collect/object-identity';
import { compareText } from '../../private/compare';
import { forEachScalar } from '../../private/walk';
import { literalTemplateSecrets } from '../../release/sensitive-properties';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** Well-known shapes of secrets that must never be written to the output (and so to git). */
export const SECRET_SHAPES: ReadonlyArray<{ readonly what: string; readonly pattern: RegExp }> = [
  { what: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { what: 'a PEM private key', pattern: /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/ },
];

/**
 * `CAP012` warning: a value shaped like a well-known secret (an AWS access key
 * id, a PEM private key) in a runtime manifest or a CloudFormation template,
 * and a literal in a template where a secret goes (a property that takes one,
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
    for (const object of facts.objects) {
      const path = object.declarer;
      const isSecret = object.identity.group === '' && object.identity.kind === 'Secret';
      for (const hit of scan(object.manifest, (at, v) => (isSecret && at.length === 2 && at[0] === 'data' ? decodeBase64(v) : v))) {
        found.push(secretWarning(hit, `${formatAt(hit.at)} of ${describeIdentity(object.identity)} declared by '${path}'`, path));
      }
    }
    for (const stack of facts.stacks) {
      const declarer = (at: readonly string[]) => (at[0] === 'Resources' && facts.resourceDeclarers[`${stack.path}\u0000${at[1]}`]) || stack.path;
      for (const hit of scan(stack.template)) {
        const path = declarer(hit.at);
        found.push(secretWarning(hit, `${formatAt(hit.at)} of the template of stack '${stack.path}' (from '${path}')`, path));
      }
      for (const secret of literalTemplateSecrets(stack.template)) {
        const path = declarer(secret.at);
        found.push({
          message:
            `a literal secret (${secret.what}) in ${formatAt(secret.at)} of the template of stack '${stack.path}' (from '${path}') would be written to the output in clear text ` +
            '(the cloud assembly under deploy/; the lock and the plan mask it). Take it from AWS Secrets Manager or an SSM SecureString parameter instead ' +
            '(SecretValue.secretsManager, SecretValue.ssmSecure, rds.Credentials.fromGeneratedSecret), or pass it as a NoEcho parameter without a Default.',
          paths: [path],
        });
      }
    }
    return found;
  },
});

interface Hit {
  readonly at: string[];
  readonly what: string;
  readonly match: string;
}

function secretWarning(hit: Hit, where: string, path: string): RuleFinding {
  return {
    message: `${hit.what} (${redact(hit.match)}) in ${where} would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.`,
    paths: [path],
  };
}

/** Every string in `value` (keys included) with a secret shape. */
function scan(value: unknown, decode: (at: readonly string[], v: string) => string = (_, v) => v): Hit[] {
  const hits: Hit[] = [];
  forEachScalar(value, (scalar, at, isKey) => {
    if (typeof scalar !== 'string') return;
    const text = isKey ? scalar : decode(at, scalar);
    for (const { what, pattern } of SECRET_SHAPES) {
      const m = pattern.exec(text);
      if (m) hits.push({ at: [...at], what, match: m[0] });
    }
  });
  return hits.sort((a, b) => compareText(a.at.join('\u0000'), b.at.join('\u0000')) || compareText(a.what, b.what));
}

/** `data.key`, `Resources.Param.Properties["odd key"]`, `spec.list[0]`: user keys are never parsed. */
function formatAt(at: readonly string[]): string {
  const out = at.map((s, i) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `${i ? '.' : ''}${s}` : /^\d+$/.test(s) ? `[${s}]` : `[${JSON.stringify(s)}]`));
  return out.join('') || '(the whole object)';
}

/** The first and last four characters only, so the warning does not leak what it warns about. */
function redact(match: string): string {
  return match.startsWith('-----') ? `"${match}"` : `"${match.slice(0, 4)}...${match.slice(-4)}"`;
}

function decodeBase64(v: string): string {
  return /^[A-Za-z0-9+/=\s]*$/.test(v) ? `${v}\n${Buffer.from(v, 'base64').toString('utf-8')}` : v;
}
