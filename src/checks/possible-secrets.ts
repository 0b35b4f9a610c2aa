import { CfnResource, Stack } from 'aws-cdk-lib';
import { declarerOf } from '../model/declarer';
import { describeIdentity } from '../model/object-identity';
import { forEachScalar } from '../private/walk';
import { violation, Violation, ViolationCode } from '../violation';
import { Check } from './check';

/** Well-known shapes of secrets that must never be written to the output (and so to git). */
const SECRET_SHAPES: ReadonlyArray<{ readonly what: string; readonly pattern: RegExp }> = [
  { what: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { what: 'a PEM private key', pattern: /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/ },
];

/**
 * `CAP010` warning: a value shaped like a well-known secret (an AWS access key
 * id, a PEM private key) in a runtime manifest or a CloudFormation template,
 * which synth would write to the outdir in clear text. A warning, not a
 * refusal: the shape can be a false positive (a documented example key).
 * Secret `data` values are base64-decoded before they are scanned.
 */
export const possibleSecrets: Check = {
  name: 'possible secrets',
  code: ViolationCode.INVALID_OBJECT,
  run({ model, writes }) {
    const found: Violation[] = [];
    for (const object of model.objects) {
      const path = object.declarer.node.path;
      const isSecret = object.identity.group === '' && object.identity.kind === 'Secret';
      for (const hit of scan(object.manifest, (at, v) => (isSecret && at.length === 2 && at[0] === 'data' ? decodeBase64(v) : v))) {
        found.push(secretWarning(hit, `${formatAt(hit.at)} of ${describeIdentity(object.identity)} declared by '${path}'`, path));
      }
    }
    const resources = resourcePaths(model.constructs);
    for (const [stack, template] of writes.templates ?? []) {
      for (const hit of scan(template)) {
        const [section, logicalId] = hit.at;
        const path = (section === 'Resources' && resources.get(`${stack.node.path}\u0000${logicalId}`)) || stack.node.path;
        found.push(secretWarning(hit, `${formatAt(hit.at)} of the template of stack '${stack.node.path}' (from '${path}')`, path));
      }
    }
    return found;
  },
};

interface Hit {
  readonly at: string[];
  readonly what: string;
  readonly match: string;
}

function secretWarning(hit: Hit, where: string, path: string): Violation {
  return violation(
    ViolationCode.INVALID_OBJECT,
    `possible secret: ${hit.what} (${redact(hit.match)}) in ${where} would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.`,
    [path],
  );
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
  return hits.sort((a, b) => a.at.join('\u0000').localeCompare(b.at.join('\u0000')) || a.what.localeCompare(b.what));
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

/** `<stack path>\0<logical id>` to the path of the construct that declares the resource. */
function resourcePaths(constructs: readonly unknown[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    try {
      const stack = Stack.of(c);
      paths.set(`${stack.node.path}\u0000${stack.resolve(c.logicalId)}`, declarerOf(c).node.path);
    } catch {
      // a resource outside a stack names no template; nothing to map
    }
  }
  return paths;
}
