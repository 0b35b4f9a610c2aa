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
 * The violations of `value` against `validate`, one problem each: its JSON
 * pointer, the value found and what the schema expects there (a definition's
 * `description`, else ajv's own words). At most `max`, the last one counting
 * the rest.
 *
 * @param format what a key the schema does not have is not part of (`the lock format`)
 * @param extra what the schema cannot say, checked only when the value is of the schema's shape
 */
export function schemaProblems(validate: ValidateFunction, value: unknown, format: string, max: number, extra: () => string[] = () => []): string[] {
  const problems = validate(value) ? extra() : (validate.errors ?? []).filter(said).map((e) => describe(e, format));
  return atMost(problems, max);
}

/**
 * False for an `if`/`then` failure of a schema without a description: the error of the `then` that failed
 * says it (`/changes/contracts/0/after is missing`), and ajv's own words (`must match "then" schema`) add
 * nothing. With a description, it says what the value must be as a whole, and stays.
 */
function said(error: ErrorObject): boolean {
  return error.keyword !== 'if' || (error.parentSchema as { description?: string } | undefined)?.description !== undefined;
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

/** One violation, as a problem: the JSON pointer, the value found, and what the schema expects there. */
function describe(error: ErrorObject, format: string): string {
  const at = error.instancePath || '(the whole file)';
  const found = `${at} (${shown(error.data)})`;
  const expected = (error.parentSchema as { description?: string } | undefined)?.description;
  switch (error.keyword) {
    case 'required':
      return `${error.instancePath}/${pointerToken(error.params.missingProperty)} is missing`;
    case 'additionalProperties':
      return `${error.instancePath}/${pointerToken(error.params.additionalProperty)} is not part of ${format}`;
    case 'type':
      return `${found} must be ${ARTICLE[String(error.params.type)] ?? error.params.type}`;
    default:
      return `${found} must be ${expected ?? error.message}`;
  }
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
