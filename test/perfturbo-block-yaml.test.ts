import * as fc from 'fast-check';
import { isAmbiguous } from '../src/private/ambiguous-strings';
import { blockYaml } from '../src/private/block-yaml';

/**
 * The block writer as it was before it became one recursive function reading strings by regular expressions
 * (node/mapping/sequence methods, a loop over each string's characters): a test-only reference. The rewrite
 * must write the same bytes, and leave to js-yaml exactly the documents this one left (`undefined`), which
 * test/block-yaml.test.ts, comparing with js-yaml only what the writer writes, does not see.
 */
function referenceBlockYaml(doc: unknown, resolvesAsOther: (text: string) => boolean): string | undefined {
  const YAML_1_1_BOOLEANS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
  const YAML_1_1_BASE60 = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;
  const NOT_FIRST = new Set([...'-?:,[]{}#&*!|=>\'"%@` '].map((c) => c.charCodeAt(0)));
  const [SPACE, COLON, SHARP, TILDE, NEWLINE] = [0x20, 0x3a, 0x23, 0x7e, 0x0a];
  const parts: string[] = [];
  const nextLine = (level: number) => `\n${'  '.repeat(level)}`;
  const put = (text: string): true => {
    parts.push(text);
    return true;
  };
  const string = (text: string): string | undefined => {
    if (text.length === 0) return '""';
    let plain = !NOT_FIRST.has(text.charCodeAt(0));
    let prev = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < SPACE || c > TILDE) return undefined;
      if ((c === SPACE && prev === COLON) || (c === SHARP && prev === SPACE)) plain = false;
      prev = c;
    }
    if (prev === SPACE || prev === COLON) plain = false;
    if (plain && !YAML_1_1_BOOLEANS.has(text) && !YAML_1_1_BASE60.test(text) && !resolvesAsOther(text)) return text;
    return `"${text.replace(/["\\]/g, '\\$&')}"`;
  };
  const mapping = (object: Record<string, unknown>, level: number, compact: boolean): boolean => {
    const indent = nextLine(level);
    let first = true;
    for (const key of Object.keys(object)) {
      const name = string(key);
      if (name === undefined || name.length > 1024) return false;
      if (!compact || !first) parts.push(indent);
      const colon = parts.length + 1;
      parts.push(name, ': ');
      if (!node(object[key], level + 1, false)) return false;
      if (parts[colon + 1].charCodeAt(0) === NEWLINE) parts[colon] = ':';
      first = false;
    }
    return first ? put('{}') : true;
  };
  const sequence = (array: readonly unknown[], level: number, compact: boolean): boolean => {
    if (array.length === 0) return put('[]');
    const indent = nextLine(level);
    for (let i = 0; i < array.length; i++) {
      if (!compact || i > 0) parts.push(indent);
      parts.push('- ');
      if (!node(array[i], level + 1, true)) return false;
    }
    return true;
  };
  const node = (value: unknown, level: number, compact: boolean): boolean => {
    if (value === undefined || value === null) return put('null');
    switch (typeof value) {
      case 'string': {
        const text = string(value);
        return text !== undefined && put(text);
      }
      case 'boolean':
        return put(value ? 'true' : 'false');
      case 'number':
        return Number.isInteger(value) && !Object.is(value, -0) && put(String(value));
      case 'object':
        break;
      default:
        return false;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto === Array.prototype) return sequence(value as unknown[], level, compact);
    if (proto === Object.prototype || proto === null) return mapping(value as Record<string, unknown>, level, compact);
    return false;
  };
  if (!node(doc, 0, true)) return undefined;
  parts.push('\n');
  return parts.join('');
}

/** The characters the string test decides on: `: `, ` #`, a last space or colon, the ends of printable ASCII and just past them. */
const DECIDING = [...': #-?"\\\'~!|>{}[],&*%@`=ab01.', '\x1f', '\x7f', '\t', '\n', '\u00e9', '\u2028', '\ud83d'];
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...DECIDING), maxLength: 8 }),
  fc.constantFrom('a: b', 'a:b', 'a #b', 'a#b', 'a ', 'a:', ' a', ':a', '~', 'a~', 'a\x7f', '', 'yes', '1:20', 'x'.repeat(1_025)),
  fc.string(),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.constantFrom(-0, 0.5, NaN, true, false, null, undefined, 10n, Symbol.for('s')),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 2, noNullPrototype: false }),
    fc.date({ noInvalidDate: true }),
  ),
}));

describe('blockYaml, rewritten for a cold run', () => {
  test('writes the bytes the previous writer wrote, and leaves to js-yaml exactly the documents it left (fast-check)', () => {
    // GIVEN random documents, their strings made of the characters that decide a string's style
    let written = 0;
    let leftOver = 0;
    fc.assert(
      fc.property(fc.oneof(value, fc.dictionary(text, value, { maxKeys: 6 })), (doc) => {
        // WHEN both writers write it
        const expected = referenceBlockYaml(doc, isAmbiguous);
        // THEN the same text, or both leave it
        expect(blockYaml(doc, isAmbiguous)).toBe(expected);
        if (expected === undefined) leftOver++;
        else written++;
      }),
      { numRuns: 5_000 },
    );
    // both outcomes were exercised
    expect(written).toBeGreaterThan(500);
    expect(leftOver).toBeGreaterThan(500);
  });

  test('a string with a character outside printable ASCII anywhere is left to js-yaml, in a key or a value', () => {
    for (const c of ['\x1f', '\x7f', '\t', '\u00e9']) {
      expect(blockYaml({ a: `x${c}y` }, isAmbiguous)).toBeUndefined();
      expect(blockYaml({ [`x${c}`]: 'y' }, isAmbiguous)).toBeUndefined();
    }
  });

  test('`: ` and ` #` inside, a space or a colon at the end, quote a string; `:` and `#` alone do not', () => {
    expect(blockYaml({ k: ['a: b', 'a #b', 'a ', 'a:', 'a:b', 'a#b', '~a~'] }, isAmbiguous)).toBe(
      'k:\n  - "a: b"\n  - "a #b"\n  - "a "\n  - "a:"\n  - a:b\n  - a#b\n  - ~a~\n',
    );
  });
});
