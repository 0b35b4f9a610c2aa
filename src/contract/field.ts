import { Token } from 'aws-cdk-lib';
import { fieldValueProblem, shapeOf } from '../private/field-value';
import { invalidInput } from '../private/invalid-input';
import { keysOf, unknownKeyProblems } from '../private/near-miss';
import { valueText } from '../private/value-text';

/**
 * Options of every field builder. A builder given options that are not of this shape (a
 * description that is no string, a misspelt option) throws `CAP010`, naming each.
 */
export interface FieldOptions {
  /**
   * What the field means, written to the JSON Schema in `interface.json`.
   *
   * @default - none
   */
  readonly description?: string;
}

/**
 * One typed field of an `InterfaceContract`. `T` is the TypeScript type of its
 * value, so `publish` values and `consume` handles are checked by the compiler.
 *
 * @example
 * const fields = {
 *   originDnsName: Field.dnsName({ description: 'DNS name of the edge origin' }),
 *   tenantHeader: Field.string(),
 *   maxTenants: Field.number().optional(),
 * };
 */
export class Field<T> {
  /** A string. */
  public static string(options: FieldOptions = {}): Field<string> {
    return new Field<string>('string', undefined, true, descriptionOf('string', options));
  }

  /** A DNS name (RFC 1123 hostname), such as `d111111abcdef8.cloudfront.net`. */
  public static dnsName(options: FieldOptions = {}): Field<string> {
    return new Field<string>('string', 'hostname', true, descriptionOf('dnsName', options));
  }

  /** An absolute `http` or `https` URL. */
  public static url(options: FieldOptions = {}): Field<string> {
    return new Field<string>('string', 'uri', true, descriptionOf('url', options));
  }

  /** A number. */
  public static number(options: FieldOptions = {}): Field<number> {
    return new Field<number>('number', undefined, true, descriptionOf('number', options));
  }

  /** A boolean. */
  public static boolean(options: FieldOptions = {}): Field<boolean> {
    return new Field<boolean>('boolean', undefined, true, descriptionOf('boolean', options));
  }

  /** Marks values of `T` for the compiler only; never set. */
  declare protected readonly _value?: T;

  private constructor(
    /** The JSON type of the value. */
    public readonly type: 'string' | 'number' | 'boolean',
    /** The JSON Schema format (`hostname`, `uri`), if any. */
    public readonly format: 'hostname' | 'uri' | undefined,
    /** Whether a publication must include the field. */
    public readonly required: boolean,
    /** What the field means. */
    public readonly description: string | undefined,
  ) {}

  /** The same field, optional: a publication may leave it out. */
  public optional(): Field<T | undefined> {
    return new Field<T | undefined>(this.type, this.format, false, this.description);
  }

  /** The field as JSON Schema (draft 2020-12). */
  public toJsonSchema(): Record<string, unknown> {
    return {
      type: this.type,
      ...(this.format ? { format: this.format } : {}),
      ...(this.description ? { description: this.description } : {}),
    };
  }

  /**
   * Why `value` does not fit the field, or undefined when it does. aws-cdk
   * tokens of the right type fit: their value is known only at deploy time.
   */
  public problemWith(value: unknown): string | undefined {
    return fieldValueProblem(this, shapeOf(value, Token.isUnresolved(value)));
  }
}

/** The options every field builder takes. */
const FIELD_OPTIONS = keysOf<FieldOptions>({ description: true });

/**
 * The description in a field builder's `options`; the `CAP010` refusal naming each problem when they are not
 * `FieldOptions` (from JavaScript, anything): a description of another type would reach the JSON Schema of
 * `interface.json` as it is, and a misspelt option would be dropped without a word.
 */
function descriptionOf(builder: string, options: unknown): string | undefined {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidInput(`Field.${builder}: its options (${valueText(options)}) must be an object, such as { description: 'DNS name of the edge origin' }`);
  }
  const problems = unknownKeyProblems(options, FIELD_OPTIONS, '');
  const { description } = options as { description?: unknown };
  if (description !== undefined && typeof description !== 'string') {
    problems.push(`'description' (${valueText(description)}) must be a string: what the field means, written to interface.json`);
  }
  if (problems.length > 0) throw invalidInput(`Field.${builder} options: ${problems.join('; ')}`);
  return description as string | undefined;
}

/** The fields of a contract, by name. */
export type FieldMap = Record<string, Field<any>>;

/** The value type of a field. */
export type FieldValue<F> = F extends Field<infer T> ? T : never;

type RequiredKeys<F extends FieldMap> = { [K in keyof F]: undefined extends FieldValue<F[K]> ? never : K }[keyof F];
type OptionalKeys<F extends FieldMap> = Exclude<keyof F, RequiredKeys<F>>;

/** What `publish` takes: every required field, optional ones as wished, nothing else. */
export type PublishedValues<F extends FieldMap> = { [K in RequiredKeys<F>]: FieldValue<F[K]> } & {
  [K in OptionalKeys<F>]?: Exclude<FieldValue<F[K]>, undefined>;
};
