import { Yaml } from 'cdk8s';

/**
 * One YAML document, as cdk8s writes it: its bundled YAML writer quotes the
 * strings a YAML 1.1 reader (kubectl's) would take for booleans (`"yes"`,
 * `"on"`), and the library then loads no second YAML implementation.
 */
export function toYaml(doc: unknown): string {
  return Yaml.stringify(doc);
}
