/**
 * A string that some YAML reader of a manifest would not read back as that
 * string when it is written plain, so it must be quoted: YAML 1.1 booleans,
 * nulls, ints (binary, octal, hex, with `_`, sexagesimal), floats and
 * timestamps as kubectl's reader (go-yaml) and `yaml`'s 1.1 schema resolve
 * them, YAML 1.2's core schema, and the merge (`<<`) and value (`=`) keys.
 * Quoting more than a reader needs is harmless; quoting less loses data.
 *
 * It takes in every string js-yaml's own default schema resolves (a property
 * test holds it to that, test/block-yaml.test.ts), so a string is ambiguous here
 * exactly when js-yaml, given this test as a type, would quote it.
 */
const AMBIGUOUS = new RegExp(
  [
    '(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)',
    '(?:~|null|Null|NULL)',
    '[-+]?0b[0-1_]+',
    '[-+]?0o?[0-7_]+',
    '[-+]?0x[0-9a-fA-F_]+',
    '[-+]?(?:[0-9][0-9_]*)?(?:\\.[0-9_.]*)?(?:[eE][-+]?[0-9]+)?',
    '[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?',
    '[-+]?\\.(?:inf|Inf|INF)',
    '\\.(?:nan|NaN|NAN)',
    '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?',
    '<<',
    '=',
  ]
    .map((alternative) => `^${alternative}$`)
    .join('|'),
);

/** Whether a non-empty string written plain would be read back as something else than that string (`AMBIGUOUS`). */
export function isAmbiguous(text: string): boolean {
  return text !== '' && AMBIGUOUS.test(text);
}
