import { isAmbiguous } from './ambiguous-strings';
import { blockYaml } from './block-yaml';
import type * as JsYamlDump from './js-yaml-dump';
import { lazily } from './lazy';

/** js-yaml's writer, loaded for the first document `blockYaml` leaves to it: most syntheses never load js-yaml. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
const jsYamlDump = lazily(() => require('./js-yaml-dump') as typeof JsYamlDump);

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
  return blockYaml(doc, isAmbiguous);
}

/** `toYaml` through js-yaml's `dump`, whatever the document. */
export function dumpYaml(doc: unknown): string {
  return jsYamlDump().dumpYaml(doc);
}
