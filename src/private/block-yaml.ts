/**
 * A manifest written as js-yaml's `dump` writes it with the options of `toYaml` (block style, `lineWidth: -1`,
 * double quotes, `noRefs`, `undefined` as `null`), for the documents most manifests are: plain objects and
 * arrays of strings of printable ASCII on one line, integers, booleans and nulls. Anything else (a float, a
 * string on several lines or with another character, a key over 1,024 characters, an object that is not
 * plain) returns `undefined`, and `toYaml` leaves the whole document to js-yaml.
 *
 * Why: js-yaml decides every node through its schema's types and styles, which costs about 40 us a small
 * manifest while its code is still cold, as it is in a synth's one run: 50 ms for 1,200 ConfigMaps, against
 * 10 ms warm. This writer makes the same decisions for the common case in a few small functions. That it
 * writes js-yaml's bytes is a property test against `jsyaml.dump` itself (test/block-yaml.test.ts).
 *
 * @param doc the document
 * @param resolvesAsOther whether a string written plain would be read back as something else (every implicit
 *   type of the schema js-yaml would be given): such a string is written in double quotes
 * @returns the YAML text with its final newline, or `undefined` for a document this writer leaves to js-yaml
 */
export function blockYaml(doc: unknown, resolvesAsOther: (text: string) => boolean): string | undefined {
  const text = new BlockWriter(resolvesAsOther).node(doc, 0, true);
  return text === undefined ? undefined : `${text}\n`;
}

/** js-yaml quotes these whatever the schema (its `DEPRECATED_BOOLEANS_SYNTAX` and `DEPRECATED_BASE60_SYNTAX`). */
const YAML_1_1_BOOLEANS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
const YAML_1_1_BASE60 = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

/** The characters a plain scalar may not start with (YAML's indicators, and a space). */
const NOT_FIRST = new Set([...'-?:,[]{}#&*!|=>\'"%@` '].map((c) => c.charCodeAt(0)));

const SPACE = 0x20;
const COLON = 0x3a;
const SHARP = 0x23;
const TILDE = 0x7e;

/** The longest key js-yaml writes as an implicit key (longer ones become `? key`). */
const IMPLICIT_KEY_MAX = 1024;

class BlockWriter {
  constructor(private readonly resolvesAsOther: (text: string) => boolean) {}

  /**
   * A node at `level`: a non-empty mapping or sequence in block style (from a new line unless `compact`),
   * an empty one in flow style, or a scalar.
   */
  node(value: unknown, level: number, compact: boolean): string | undefined {
    if (value === undefined || value === null) return 'null';
    switch (typeof value) {
      case 'string':
        return this.string(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'number':
        return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : undefined;
      case 'object':
        break;
      default:
        return undefined;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto === Array.prototype) return this.sequence(value as unknown[], level, compact);
    if (proto === Object.prototype || proto === null) return this.mapping(value as Record<string, unknown>, level, compact);
    return undefined;
  }

  private mapping(object: Record<string, unknown>, level: number, compact: boolean): string | undefined {
    let out = '';
    const indent = nextLine(level);
    for (const key of Object.keys(object)) {
      const name = this.string(key);
      if (name === undefined || name.length > IMPLICIT_KEY_MAX) return undefined;
      const value = object[key];
      const text = this.node(value, level + 1, false);
      if (text === undefined) return undefined;
      if (!compact || out !== '') out += indent;
      out += name;
      out += text.charCodeAt(0) === 0x0a ? ':' : ': ';
      out += text;
    }
    return out === '' ? '{}' : out;
  }

  private sequence(array: readonly unknown[], level: number, compact: boolean): string | undefined {
    if (array.length === 0) return '[]';
    let out = '';
    const indent = nextLine(level);
    for (let i = 0; i < array.length; i++) {
      const text = this.node(array[i], level + 1, true);
      if (text === undefined) return undefined;
      if (!compact || out !== '') out += indent;
      out += '- ';
      out += text;
    }
    return out;
  }

  /** A string of printable ASCII on one line, plain where js-yaml writes it plain, else double-quoted. */
  private string(text: string): string | undefined {
    if (text.length === 0) return '""';
    let plain = !NOT_FIRST.has(text.charCodeAt(0));
    let prev = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < SPACE || c > TILDE) return undefined;
      // `: ` would start a value, ` #` a comment
      if ((c === SPACE && prev === COLON) || (c === SHARP && prev === SPACE)) plain = false;
      prev = c;
    }
    if (prev === SPACE || prev === COLON) plain = false;
    if (plain && !YAML_1_1_BOOLEANS.has(text) && !YAML_1_1_BASE60.test(text) && !this.resolvesAsOther(text)) return text;
    return `"${text.replace(/["\\]/g, '\\$&')}"`;
  }
}

const lines: string[] = [];
/** A new line indented for `level` (two spaces a level). */
function nextLine(level: number): string {
  return (lines[level] ??= `\n${'  '.repeat(level)}`);
}
