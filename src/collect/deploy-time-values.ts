import { Reference, Token, Tokenization } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { declarerOf } from './declarer';
import type { ArtifactDeployTimeValueFact, CapabilityFact, ContractFact, ContributionFact, DeployTimeForm, DeployTimeValueFact, ObjectFact } from './facts';
import { visitTokens } from './token-walk';
import { MAYBE_DEPLOY_TIME, walkManifest } from '../private/manifest-walk';
import { forEachScalar } from '../private/walk';

/** The text aws-cdk renders for a string token it could not resolve. */
const TOKEN_TEXT = /\$\{Token\[[^\]]*\]\}/;
/** The text aws-cdk renders for an element of a list token (`Fn.split`, `Lazy.list`, `Token.asList`). */
const LIST_TOKEN_TEXT = /#\{Token\[[^\]]*\]\}/;
/** A number in exponent notation: a number token stringified (`${Token.asNumber(x)}`) renders as one. */
const EXPONENT_NUMBER = /-?\d(?:\.\d+)?e[+-]\d+/gi;
/** A CloudFormation dynamic reference, which only CloudFormation resolves. */
const DYNAMIC_REFERENCE = /\{\{resolve:[A-Za-z-]+:[^}]*\}\}/;
/** Characters of base64 text (padding and line breaks included). */
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

/** One deployment-time value found in a scalar. */
interface Found {
  readonly form: DeployTimeForm;
  readonly producer?: string;
}

/**
 * Every aws-cdk token (a deployment-time value) in the runtime manifests,
 * values and map keys, in each of its forms: string tokens, list tokens,
 * number tokens (as numbers and as text), CloudFormation dynamic references,
 * and base64 of any of them in a Secret's `data` or a ConfigMap's `binaryData`.
 * Each carries the construct it refers to when it is a reference, and the
 * `Contribution` that wrote it when one did. Only the interface contract may
 * carry such a value across; the boundary rule judges what is found here.
 */
export function collectDeployTimeValues(
  root: IConstruct,
  objects: readonly ObjectFact[],
  contributions: readonly ContributionFact[],
): DeployTimeValueFact[] {
  const deployTimeValueIn = (v: string | number) => deployTimeValueOf(v, root);
  const writers = contributionWriters(contributions, root);
  const found: DeployTimeValueFact[] = [];
  objects.forEach((o, object) => {
    if (o.duplicateOf !== undefined) return;
    const encoded = encodedMap(o);
    // the walk the JSON-values and nesting-depth rules read (kept per manifest) tells the manifests with nothing to find;
    // a map of base64 values is scanned decoded too, which no walk of the text sees
    if (!(encoded !== undefined && holdsMap(o.manifest, encoded)) && holdsNoDeployTimeText(o.manifest)) return;
    forEachScalar(o.manifest, (scalar, path, isKey) => {
      const base64 = !isKey && typeof scalar === 'string' && path.length === 2 && path[0] === encoded && BASE64.test(scalar);
      const hit = deployTimeValueIn(scalar) ?? (base64 ? deployTimeValueIn(Buffer.from(scalar as string, 'base64').toString('utf-8')) : undefined);
      if (!hit) return;
      const writer = writers.get(object)?.get(scalar);
      found.push({
        object,
        path: [...path],
        isKey,
        form: hit.form,
        ...(hit.producer ? { producer: hit.producer } : {}),
        ...(base64 && !deployTimeValueIn(scalar) ? { encoding: 'base64' as const } : {}),
        ...(writer ? { writer } : {}),
      });
    });
  });
  return found;
}

/**
 * The deployment-time values in what synth writes besides the manifests: a
 * capability's description (`plan.json`) and a contract field's description
 * (`interface.json`). They are written at synth, so a token there is its text.
 */
export function collectArtifactDeployTimeValues(
  root: IConstruct,
  capabilities: readonly CapabilityFact[],
  contracts: readonly ContractFact[],
): ArtifactDeployTimeValueFact[] {
  const deployTimeValueIn = (v: string | number) => deployTimeValueOf(v, root);
  const found: ArtifactDeployTimeValueFact[] = [];
  const add = (file: ArtifactDeployTimeValueFact['file'], owner: string, what: string, text: string | undefined) => {
    const hit = text === undefined ? undefined : deployTimeValueIn(text);
    if (hit) found.push({ file, owner, what, form: hit.form, ...(hit.producer ? { producer: hit.producer } : {}) });
  };
  for (const c of capabilities) add('plan.json', c.path, 'the capability description', c.description);
  for (const c of contracts) {
    for (const [name, field] of Object.entries(c.fields)) add('interface.json', c.path, `the description of field '${name}'`, field.description);
  }
  return found;
}

/** True when a walk of the manifest (`walkManifest`, kept per manifest) saw no text nor number a deployment-time value can be. */
function holdsNoDeployTimeText(manifest: unknown): boolean {
  const marks = walkManifest(manifest).marks;
  return marks !== undefined && !marks.deployTime;
}

/** True when `manifest[key]` is a map or a list. */
function holdsMap(manifest: unknown, key: string): boolean {
  const v = manifest !== null && typeof manifest === 'object' ? (manifest as Record<string, unknown>)[key] : undefined;
  return v !== null && typeof v === 'object';
}

/** The map of a built-in kind whose values are base64: `data` of a Secret, `binaryData` of a ConfigMap. */
function encodedMap(o: ObjectFact): string | undefined {
  if (o.identity.group !== '') return undefined;
  if (o.identity.kind === 'Secret') return 'data';
  return o.identity.kind === 'ConfigMap' ? 'binaryData' : undefined;
}

/** Per object index: each deployment-time scalar a contribution wrote, to its writer. */
function contributionWriters(contributions: readonly ContributionFact[], root: IConstruct): Map<number, Map<string | number, string>> {
  const deployTimeValueIn = (v: string | number) => deployTimeValueOf(v, root);
  const writers = new Map<number, Map<string | number, string>>();
  for (const c of contributions) {
    forEachScalar(c.fields, (scalar) => {
      if (!deployTimeValueIn(scalar) && !(typeof scalar === 'string' && BASE64.test(scalar) && deployTimeValueIn(Buffer.from(scalar, 'base64').toString('utf-8')))) return;
      const mine = writers.get(c.target) ?? new Map<string | number, string>();
      if (!mine.has(scalar)) mine.set(scalar, c.writer);
      writers.set(c.target, mine);
    });
  }
  return writers;
}

/**
 * The deployment-time value a scalar holds, if any, in its most telling form:
 * a string token, a list token, a number token (a number, or its text inside a
 * string), or a CloudFormation dynamic reference.
 *
 * @param scope where a token that is not a reference is resolved, to find the reference it is made of
 */
export function deployTimeValueOf(value: string | number, scope: IConstruct): Found | undefined {
  if (typeof value === 'number') {
    return Token.isUnresolved(value) ? withProducer('number', [safely(() => Tokenization.reverseNumber(value))], scope) : undefined;
  }
  if (!MAYBE_DEPLOY_TIME.test(value)) return undefined;
  if (Token.isUnresolved(value) || TOKEN_TEXT.test(value)) {
    return withProducer('string', safely(() => Tokenization.reverseString(value).tokens) ?? [], scope);
  }
  const list = LIST_TOKEN_TEXT.exec(value);
  if (list) return withProducer('list', [safely(() => Tokenization.reverseList([list[0]]))], scope);
  for (const m of value.match(EXPONENT_NUMBER) ?? []) {
    const n = Number(m);
    if (Token.isUnresolved(n)) return withProducer('number', [safely(() => Tokenization.reverseNumber(n))], scope);
  }
  return DYNAMIC_REFERENCE.test(value) ? { form: 'dynamic-reference' } : undefined;
}

/**
 * A value found in `form`, with the construct its tokens refer to when they do (`producerOf`). A function of the
 * module: `deployTimeValueOf` runs for every scalar and key of every manifest, and most find nothing.
 */
function withProducer(form: DeployTimeForm, tokens: readonly unknown[], scope: IConstruct): Found {
  const producer = producerOf(tokens, scope);
  return producer ? { form, producer } : { form };
}

/**
 * The construct a token refers to, when it is (or is made of) a reference:
 * `bucket.bucketName`, `Fn.split(',', distribution.domainName)`.
 */
function producerOf(tokens: readonly unknown[], scope: IConstruct): string | undefined {
  let producer: string | undefined;
  for (const token of tokens) {
    if (!token || producer) continue;
    visitTokens(token, scope, (t) => {
      if (producer) return 'stop';
      if (!Reference.isReference(t)) return 'descend';
      producer = declarerOf(t.target).node.path;
      return 'stop';
    });
  }
  return producer;
}

function safely<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
