import * as fs from 'fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { atMost } from './at-most';
import { valueText } from './value-text';

/** Options of `schemaValidator`. */
export interface SchemaOptions {
  /**
   * A definition inside the schema to validate against (`#/$defs/plan`).
   *
   * @default - the whole schema
   */
  readonly pointer?: string;
  /**
   * Whether the schema uses a list of types in `type` (ajv's `allowUnionTypes`).
   *
   * @default false
   */
  readonly unionTypes?: boolean;
}

/**
 * A validator for the JSON Schema (draft 2020-12) in `file`, compiled on first
 * use (ajv and its compilation cost nothing to a run that never validates).
 */
export function schemaValidator(file: string, options: SchemaOptions = {}): () => ValidateFunction {
  let validator: ValidateFunction | undefined;
  return () => {
    if (!validator) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
      const Ajv2020 = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
      const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: options.unionTypes ?? false });
      const schema = JSON.parse(fs.readFileSync(file, 'utf-8'));
      if (options.pointer) {
        ajv.addSchema(schema);
        const found = ajv.getSchema(`${schema.$id}${options.pointer}`);
        if (!found) throw new Error(`no definition ${options.pointer} in ${file}`);
        validator = found;
      } else {
        validator = ajv.compile(schema);
      }
    }
    return validator;
  };
}

/**
 * The violations of `value` against `validate`, one problem each, one sentence: its JSON pointer, the value
 * found and what the schema expects there (`/version (999) must be 1`). What is expected is the
 * definition's `description` when that is written as what the value must be (`expectedPhrase`), else said
 * from the keyword that failed (`must be 1`, `must be at most 128 characters long`). At most `max`, the
 * last one counting the rest.
 *
 * @param format what a key the schema does not have is not part of (`the lock format`)
 * @param extra what the schema cannot say, checked only when the value is of the schema's shape
 */
export function schemaProblems(validate: ValidateFunction, value: unknown, format: string, max: number, extra: () => string[] = () => []): string[] {
  const problems = validate(value) ? extra() : said(validate.errors ?? []).map((e) => describe(e, format));
  return atMost(problems, max);
}

/**
 * The errors that say something, one per violation. Left out: an `if`/`then` failure whose schema does not
 * say what the value must be as a whole (the error of the `then` that failed says it:
 * `/changes/contracts/0/after is missing`); the errors of each branch of a failed `anyOf` or `oneOf` (the
 * value matched none, and the failure of the whole says so once); and `propertyNames`' own error beside the
 * error of the key it names.
 */
function said(errors: readonly ErrorObject[]): ErrorObject[] {
  const branching = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const inBranch = (e: ErrorObject) =>
    branching.some((a) => a !== e && e.schemaPath.startsWith(`${a.schemaPath}/`) && (e.instancePath === a.instancePath || e.instancePath.startsWith(`${a.instancePath}/`)));
  return errors.filter((e) => {
    if (e.keyword === 'if') return expectedPhrase(e) !== undefined;
    return e.keyword !== 'propertyNames' && !inBranch(e);
  });
}

/**
 * A definition's `description` when it is written as what the value must be, to follow "must be": a phrase
 * (`a semver version such as "1.2.0"`, `1, the only format version`), which starts with no capital and ends
 * with no period; undefined for a description written as documentation, a sentence (`Its field manager in
 * the cluster.`), which says what the value is for, not what it must be.
 */
function expectedPhrase(error: ErrorObject): string | undefined {
  const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
  if (typeof description !== 'string' || description === '') return undefined;
  return /^\p{Lu}/u.test(description) || description.endsWith('.') ? undefined : description;
}

const ARTICLE: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

/** One violation, as a problem: the JSON pointer, the value found (or the key), and what the schema expects there. */
function describe(error: ErrorObject, format: string): string {
  const at = error.instancePath || '(the whole file)';
  switch (error.keyword) {
    case 'required':
      return `${error.instancePath}/${pointerToken(error.params.missingProperty)} is missing`;
    case 'additionalProperties':
      return `${error.instancePath}/${pointerToken(error.params.additionalProperty)} is not part of ${format}`;
  }
  // an error of `propertyNames` is about a key of the object at the pointer, not its value
  const subject = error.propertyName === undefined ? `${at} (${shown(error.data)})` : `${at} has the key ${shown(error.propertyName)}, which`;
  return `${subject} must ${expectation(error)}`;
}

/** What the schema expects, to follow "must": `be 1`, `be "a" or "b"`, `not be empty`. */
function expectation(error: ErrorObject): string {
  const params = error.params as Record<string, any>;
  if (error.keyword === 'type') return `be ${alternatives([params.type].flat().map((t) => ARTICLE[String(t)] ?? String(t)))}`;
  const phrase = error.propertyName === undefined ? expectedPhrase(error) : undefined;
  if (phrase !== undefined) return `be ${phrase}`;
  const limit = Number(params.limit);
  switch (error.keyword) {
    case 'const':
      return `be ${shown(params.allowedValue)}`;
    case 'enum':
      return `be ${alternatives((params.allowedValues as unknown[]).map(shown))}`;
    case 'pattern':
      return `match the pattern ${shown(params.pattern)}`;
    case 'minLength':
      return limit === 1 ? 'not be empty' : `be at least ${limit} characters long`;
    case 'maxLength':
      return `be at most ${limit} characters long`;
    case 'minimum':
      return `be ${limit} or more`;
    case 'maximum':
      return `be ${limit} or less`;
    case 'exclusiveMinimum':
      return `be more than ${limit}`;
    case 'exclusiveMaximum':
      return `be less than ${limit}`;
    case 'minItems':
      return `have at least ${counted(limit, 'item')}`;
    case 'maxItems':
      return limit === 0 ? 'be an empty list' : `have at most ${counted(limit, 'item')}`;
    case 'minProperties':
      return `have at least ${counted(limit, 'key')}`;
    case 'maxProperties':
      return limit === 0 ? 'be an empty object' : `have at most ${counted(limit, 'key')}`;
    case 'uniqueItems':
      return `hold each item once (items ${params.j} and ${params.i} are equal)`;
    case 'anyOf':
    case 'oneOf':
      return 'take one of the forms the schema allows there';
    default:
      // ajv's own words, which start with "must"
      return (error.message ?? 'be valid').replace(/^must /, '');
  }
}

/** `a`, `a or b`, `one of a, b or c`. */
function alternatives(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' or ');
  return `one of ${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** `1 item`, `3 items`. */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A key as a JSON pointer spells it (RFC 6901: `~` as `~0`, `/` as `~1`). */
function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A value as a problem quotes it: JSON, cut at 60 characters. */
export function shown(value: unknown): string {
  const text = valueText(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
