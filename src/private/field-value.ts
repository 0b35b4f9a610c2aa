/** The JSON types a contract field can have, and the formats it can check. */
export interface FieldShape {
  /** The JSON type of the value. */
  readonly type: 'string' | 'number' | 'boolean';
  /** The JSON Schema format, if any. */
  readonly format?: 'hostname' | 'uri';
}

/** A value as the checks see it: its JSON type, the literal when known at synth, and how messages show it. */
export interface ValueShape {
  /** `string`, `number`, `boolean`, `list`, `object`, `null`, or `other`. */
  readonly type: string;
  /** True when it is an aws-cdk token, known only at deploy time. */
  readonly deployTime: boolean;
  /** The value itself when known at synth. */
  readonly literal?: unknown;
  /** How a message quotes it: JSON for strings, else its text. */
  readonly shown: string;
}

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/i;

/** The shape of any value, for `fieldValueProblem`. */
export function shapeOf(value: unknown, deployTime: boolean): ValueShape {
  const type = value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;
  const known = ['string', 'number', 'boolean', 'list', 'object', 'null'].includes(type) ? type : 'other';
  return { type: known, deployTime, literal: deployTime ? undefined : value, shown: shown(value, known) };
}

/** A value as a message quotes it: JSON for a string, a map or a list (cut at 60 characters), else its text. */
function shown(value: unknown, type: string): string {
  if (type !== 'object' && type !== 'list') return typeof value === 'string' ? JSON.stringify(value) : String(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return type === 'list' ? 'a list' : 'an object';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A JSON type with its article, as a message names it. */
const TYPE_TEXT: Readonly<Record<string, string>> = {
  string: 'a string', number: 'a number', boolean: 'a boolean', list: 'a list', object: 'an object', null: 'null', other: 'no JSON value',
};

/**
 * Why a value does not fit a field, or undefined when it does. A token of the
 * right type fits: its value is known only at deploy time.
 */
export function fieldValueProblem(field: FieldShape, value: ValueShape): string | undefined {
  if (value.type !== field.type) return `${value.shown} is ${TYPE_TEXT[value.type] ?? value.type}, expected a ${field.type}`;
  if (value.deployTime || typeof value.literal !== 'string') return undefined;
  if (field.format === 'hostname' && !DNS_NAME.test(value.literal)) return `${value.shown} is not a DNS name such as "origin.example.com"`;
  if (field.format === 'uri' && !isHttpUrl(value.literal)) return `${value.shown} is not an http(s) URL such as "https://example.com/path"`;
  return undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
