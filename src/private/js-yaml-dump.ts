import { isAmbiguous } from './ambiguous-strings';
import { jsyaml } from './js-yaml';

/**
 * A type that claims no value but makes the writer quote every ambiguous
 * string (`isAmbiguous`): js-yaml quotes a string whenever a type of the schema
 * would resolve it.
 */
const AMBIGUOUS_STRINGS = new jsyaml.Type('tag:cdk-capability,2026:ambiguous', {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && isAmbiguous(data),
  predicate: () => false,
});

const SCHEMA = jsyaml.DEFAULT_SCHEMA.extend({ implicit: [AMBIGUOUS_STRINGS] });

/** Written as cdk8s writes an undefined map value: `null`. */
const undefinedAsNull = (_key: unknown, value: unknown) => (value === undefined ? null : value);

/**
 * `toYaml` through js-yaml's `dump`, whatever the document: double-quoted
 * strings where quoting is needed, no line folding, block style, `null` for
 * undefined, every ambiguous string quoted.
 */
export function dumpYaml(doc: unknown): string {
  return jsyaml.dump(doc, { schema: SCHEMA, noRefs: true, lineWidth: -1, quotingType: '"', replacer: undefinedAsNull });
}
