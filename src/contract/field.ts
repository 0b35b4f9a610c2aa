import { Token } from 'aws-cdk-lib';
import { fieldValueProblem, shapeOf } from '../private/field-value';

/** Options of every field builder. */
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
    return new Field<string>('string', undefined, true, options.description);
  }

  /** A DNS name (RFC 1123 hostname), such as `d111111abcdef8.cloudfront.net`. */
  public static dnsName(options: FieldOptions = {}): Field<string> {
    return new Field<string>('string', 'hostname', true, options.description);
  }

  /** An absolute `http` or `https` URL. */
  public static url(options: FieldOptions = {}): Field<string> {
    return new Field<string>('string', 'uri', true, options.description);
  }

  /** A number. */
  public static number(options: FieldOptions = {}): Field<number> {
    return new Field<number>('number', undefined, true, options.description);
  }

  /** A boolean. */
  public static boolean(options: FieldOptions = {}): Field<boolean> {
    return new Field<boolean>('boolean', undefined, true, options.description);
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
