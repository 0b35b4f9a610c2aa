/**
 * Writes `src/release/replacement-properties.generated.ts`: for each resource type whose explicit name is a
 * physical name (collect's `PHYSICAL_NAMES`), the properties a change of which makes CloudFormation replace the
 * resource ("Update requires: Replacement"), as AWS's published specification says: `@aws-cdk/aws-service-spec`,
 * the database aws-cdk generates its L1 classes from (each property's `causesReplacement`: `yes`, `maybe` or
 * `no`).
 *
 * A property of a nested type counts on its own where its ancestors do not (`ResourcesVpcConfig.SubnetIds` of an
 * EKS cluster, whose `ResourcesVpcConfig` is updated in place otherwise); below a property that is replaced
 * whole, its parts add nothing. A step into a list's elements or a map's values is `*`. The type's name
 * property itself is left out: a changed name is a new name, no replacement under the old one.
 *
 * Why generated: the database is 2.6 MB compressed, never loaded by a synth; the table is a few lines. Run it with
 * `npx projen replacement-properties` after upgrading the package; `test/replacement-properties.test.ts`
 * regenerates it into a temporary file and fails when the committed file differs. `--out FILE` writes elsewhere.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import { PHYSICAL_NAMES } from '../src/collect/ledger/physical-names';

/** The repository's root folder. */
const ROOT = path.resolve(__dirname, '..');

/** The generated file, relative to the repository root. */
export const OUTPUT = 'src/release/replacement-properties.generated.ts';

/** The package the table is read from. */
export const SPEC_PACKAGE = '@aws-cdk/aws-service-spec';

type SpecDatabase = ReturnType<typeof loadAwsServiceSpecSync>;

/** A property's type as the database writes it (`@aws-cdk/service-spec-types` `PropertyType`). */
interface SpecType {
  readonly type: string;
  readonly reference?: { readonly $ref: string };
  readonly element?: SpecType;
  readonly types?: readonly SpecType[];
}

/** A property as the database writes it. */
interface SpecProperty {
  readonly type: SpecType;
  readonly causesReplacement?: 'yes' | 'no' | 'maybe';
}

/** The property paths of one type, by what the specification says a change does. */
interface Replacing {
  yes: string[];
  maybe: string[];
}

/** The version of the installed package. */
export function specVersion(): string {
  return (JSON.parse(fs.readFileSync(require.resolve(`${SPEC_PACKAGE}/package.json`), 'utf-8')) as { version: string }).version;
}

/**
 * The table for `types`, from the database: per type, the sorted paths of the properties whose
 * `causesReplacement` is `yes`, and of those whose is `maybe` (conditional: the specification does not say when).
 */
export function replacementTable(db: SpecDatabase, types: Readonly<Record<string, { readonly property: string }>>): Record<string, Replacing> {
  const table: Record<string, Replacing> = {};
  for (const type of Object.keys(types).sort()) {
    const resource = db.lookup('resource', 'cloudFormationType', 'equals', type).only();
    const found: Replacing = { yes: [], maybe: [] };
    walk(db, resource.properties as unknown as Record<string, SpecProperty>, [], new Set(), found);
    found.yes = found.yes.filter((p) => p !== types[type].property).sort();
    found.maybe.sort();
    table[type] = found;
  }
  return table;
}

/** Records each property of `properties` (at `at`) that causes replacement, and walks into the nested types of the others. */
function walk(db: SpecDatabase, properties: Record<string, SpecProperty>, at: readonly string[], seen: ReadonlySet<string>, found: Replacing): void {
  for (const name of Object.keys(properties)) {
    const property = properties[name];
    const here = [...at, name];
    if (property.causesReplacement === 'yes') {
      found.yes.push(here.join('.'));
      continue;
    }
    if (property.causesReplacement === 'maybe') found.maybe.push(here.join('.'));
    for (const { ref, steps } of nestedTypes(property.type, [])) {
      if (seen.has(ref)) continue;
      const nested = db.get('typeDefinition', ref) as unknown as { properties: Record<string, SpecProperty> };
      walk(db, nested.properties, [...here, ...steps], new Set([...seen, ref]), found);
    }
  }
}

/** The type definitions a property type refers to, with the steps into lists and maps (`*`) on the way. */
function nestedTypes(type: SpecType, steps: readonly string[]): Array<{ ref: string; steps: readonly string[] }> {
  switch (type.type) {
    case 'ref':
      return [{ ref: type.reference!.$ref, steps }];
    case 'array':
    case 'map':
      return nestedTypes(type.element!, [...steps, '*']);
    case 'union':
      return (type.types ?? []).flatMap((t) => nestedTypes(t, steps));
    default:
      return [];
  }
}

/** The generated module's text: a header naming the package and its version, then the table. */
export function renderReplacementProperties(table: Record<string, Replacing>, version: string): string {
  const lines = [
    `// Generated by scripts/generate-replacement-properties.ts from ${SPEC_PACKAGE} ${version} (db.json.gz, causesReplacement). Do not edit: run \`npx projen replacement-properties\`.`,
    '',
    '/** Where the table was read from: the package and its version. */',
    `export const REPLACEMENT_SPEC = { package: '${SPEC_PACKAGE}', version: '${version}' } as const;`,
    '',
    '/**',
    ' * Per resource type of collect\'s `PHYSICAL_NAMES`, the properties whose change makes CloudFormation replace the',
    ' * resource (`yes`: "Update requires: Replacement"), and those whose change may (`maybe`: conditional), by path',
    ' * (`ResourcesVpcConfig.SubnetIds`; `*` steps into a list\'s elements or a map\'s values). The name property itself is not listed.',
    ' */',
    'export const REPLACEMENT_PROPERTIES: Readonly<Record<string, { readonly yes: readonly string[]; readonly maybe: readonly string[] }>> = {',
  ];
  for (const [type, { yes, maybe }] of Object.entries(table)) {
    lines.push(`  '${type}': { yes: [${yes.map((p) => `'${p}'`).join(', ')}], maybe: [${maybe.map((p) => `'${p}'`).join(', ')}] },`);
  }
  lines.push('};', '');
  return lines.join('\n');
}

/** The module's text from the installed package. */
export function generate(): string {
  return renderReplacementProperties(replacementTable(loadAwsServiceSpecSync(), PHYSICAL_NAMES), specVersion());
}

function main(): void {
  const i = process.argv.indexOf('--out');
  const out = i >= 0 ? path.resolve(process.argv[i + 1]) : path.join(ROOT, OUTPUT);
  const text = generate();
  fs.writeFileSync(out, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out) || out} (${text.length} characters)\n`);
}

if (require.main === module) main();
