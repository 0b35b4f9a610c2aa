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
  const writer = new BlockWriter(resolvesAsOther);
  if (!writer.node(doc, 0, true)) return undefined;
  writer.parts.push('\n');
  // joined once: the document is one flat string, not a tree of every piece added to it (see `flatString`)
  return writer.parts.join('');
}

/** js-yaml quotes these whatever the schema (its `DEPRECATED_BOOLEANS_SYNTAX` and `DEPRECATED_BASE60_SYNTAX`). */
const YAML_1_1_BOOLEANS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
const YAML_1_1_BASE60 = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

/** The characters a plain scalar may not start with (YAML's indicators, and a space). */
const NOT_FIRST = new Set([...'-?:,[]{}#&*!|=>\'"%@` '].map((c) => c.charCodeAt(0)));

/** A character this writer leaves to js-yaml: anything but printable ASCII (a space to a tilde). */
const NOT_PRINTABLE = /[^\x20-\x7e]/;
/** What makes a string of printable ASCII not plain after its first character: `: ` would start a value, ` #` a comment, and it may not end in a space or a colon. */
const NOT_PLAIN = /: | #|[ :]$/;
const NEWLINE = 0x0a;

/** The longest key js-yaml writes as an implicit key (longer ones become `? key`). */
const IMPLICIT_KEY_MAX = 1024;

class BlockWriter {
  /** The document's text so far, in the order written. */
  public readonly parts: string[] = [];

  constructor(private readonly resolvesAsOther: (text: string) => boolean) {}

  /**
   * Writes a node at `level`: a non-empty mapping or sequence in block style (from a new line unless
   * `compact`), an empty one in flow style, or a scalar. False for a node this writer leaves to js-yaml.
   *
   * One recursive function, mappings and sequences written in its own loops: a synth's one run has V8 optimize
   * it part way through, and separate functions calling each other were each compiled with the others inlined
   * into them, which cost more than writing the documents.
   */
  node(value: unknown, level: number, compact: boolean): boolean {
    const parts = this.parts;
    if (value === undefined || value === null) {
      parts.push('null');
      return true;
    }
    switch (typeof value) {
      case 'string': {
        const text = this.string(value);
        if (text === undefined) return false;
        parts.push(text);
        return true;
      }
      case 'boolean':
        parts.push(value ? 'true' : 'false');
        return true;
      case 'number':
        if (!Number.isInteger(value) || Object.is(value, -0)) return false;
        parts.push(String(value));
        return true;
      case 'object':
        break;
      default:
        return false;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto === Array.prototype) {
      const array = value as readonly unknown[];
      if (array.length === 0) {
        parts.push('[]');
        return true;
      }
      const indent = nextLine(level);
      for (let i = 0; i < array.length; i++) {
        if (!compact || i > 0) parts.push(indent);
        parts.push('- ');
        if (!this.node(array[i], level + 1, true)) return false;
      }
      return true;
    }
    if (proto !== Object.prototype && proto !== null) return false;
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (keys.length === 0) {
      parts.push('{}');
      return true;
    }
    const indent = nextLine(level);
    // indexed, not `for...of`: its iterator protocol would be compiled into this function too
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const name = this.string(key);
      if (name === undefined || name.length > IMPLICIT_KEY_MAX) return false;
      if (!compact || i > 0) parts.push(indent);
      const colon = parts.length + 1;
      parts.push(name, ': ');
      if (!this.node(object[key], level + 1, false)) return false;
      // a block value starts on the next line: no space after the colon
      if (parts[colon + 1].charCodeAt(0) === NEWLINE) parts[colon] = ':';
    }
    return true;
  }

  /**
   * A string of printable ASCII on one line, plain where js-yaml writes it plain, else double-quoted. Read by
   * regular expressions, not a loop over its characters: a synth's one run writes most strings while its code is
   * still interpreted, where a loop costs a dozen bytecodes a character and a regular expression runs as machine code.
   */
  private string(text: string): string | undefined {
    if (text.length === 0) return '""';
    if (NOT_PRINTABLE.test(text)) return undefined;
    const plain = !NOT_FIRST.has(text.charCodeAt(0)) && !NOT_PLAIN.test(text);
    if (plain && !YAML_1_1_BOOLEANS.has(text) && !YAML_1_1_BASE60.test(text) && !this.resolvesAsOther(text)) return text;
    return `"${text.replace(/["\\]/g, '\\$&')}"`;
  }
}

const lines: string[] = [];
/** A new line indented for `level` (two spaces a level). */
function nextLine(level: number): string {
  return (lines[level] ??= `\n${'  '.repeat(level)}`);
}
