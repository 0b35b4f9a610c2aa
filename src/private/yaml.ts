import type * as JsYaml from 'js-yaml';
import { blockYaml } from './block-yaml';
import { jsyaml } from './js-yaml';

/**
 * A string that some YAML reader of a manifest would not read back as that
 * string when it is written plain, so it must be quoted: YAML 1.1 booleans,
 * nulls, ints (binary, octal, hex, with `_`, sexagesimal), floats and
 * timestamps as kubectl's reader (go-yaml) and `yaml`'s 1.1 schema resolve
 * them, YAML 1.2's core schema, and the merge (`<<`) and value (`=`) keys.
 * Quoting more than a reader needs is harmless; quoting less loses data.
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

/**
 * A type that claims no value but makes the writer quote every string in
 * `AMBIGUOUS`: js-yaml quotes a string whenever a type of the schema would
 * resolve it.
 */
const AMBIGUOUS_STRINGS = new jsyaml.Type('tag:cdk-capability,2026:ambiguous', {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && data !== '' && AMBIGUOUS.test(data),
  predicate: () => false,
});

const SCHEMA = jsyaml.DEFAULT_SCHEMA.extend({ implicit: [AMBIGUOUS_STRINGS] });

/**
 * Whether a string written plain would be read back as something else: js-yaml's own test, every implicit
 * type of the schema (`compiledImplicit`, not in js-yaml's typings). A js-yaml without that list leaves every
 * document to `jsyaml.dump`.
 */
const IMPLICIT = (SCHEMA as unknown as { compiledImplicit?: readonly JsYaml.Type[] }).compiledImplicit;
const resolvesAsOther = Array.isArray(IMPLICIT) ? (text: string) => IMPLICIT.some((type) => type.resolve(text)) : undefined;

/** Written as cdk8s writes an undefined map value: `null`. */
const undefinedAsNull = (_key: unknown, value: unknown) => (value === undefined ? null : value);

/**
 * One YAML document, byte for byte as cdk8s' own writer (`Yaml.stringify`)
 * writes the manifests it emits: double-quoted strings where quoting is needed,
 * no line folding, block style, `null` for undefined. js-yaml writes it several
 * times faster; strings a YAML 1.1 reader (kubectl's) or a 1.2 reader would
 * take for something else (`"yes"`, `"on"`, `"0123"`, `"1_000"`) are quoted,
 * so every reader reads back exactly the document given. The common manifest
 * is written by `blockYaml`, with js-yaml's bytes; any other by js-yaml.
 */
export function toYaml(doc: unknown): string {
  return commonYaml(doc) ?? dumpYaml(doc);
}

/** `toYaml` of a document `blockYaml` writes, else `undefined`. */
export function commonYaml(doc: unknown): string | undefined {
  return resolvesAsOther ? blockYaml(doc, resolvesAsOther) : undefined;
}

/** `toYaml` through js-yaml's `dump`, whatever the document. */
export function dumpYaml(doc: unknown): string {
  return jsyaml.dump(doc, { schema: SCHEMA, noRefs: true, lineWidth: -1, quotingType: '"', replacer: undefinedAsNull });
}
