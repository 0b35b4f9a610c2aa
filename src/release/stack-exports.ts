import { isMaskedValue, lockedManifest } from './locked-manifest';

/** One CloudFormation export of a stack: an output with an `Export` whose `Name` is a string. */
export interface StackExport {
  /** The export name (`shop-Base:ExportsOutputRefLogs6819BB446A932AEA`), unique in an account and region. */
  readonly name: string;
  /** The logical id of its output. */
  readonly output: string;
  /** The output's `Value`, as the template (or the lock) holds it. */
  readonly value: unknown;
  /** True when the lock holds a masked leaf in `value` (`(sensitive)`, `(known after deploy)`): it cannot be compared. */
  readonly masked?: true;
}

/** The exports of a template. */
export interface TemplateExports {
  /** The exports by name. */
  readonly byName: ReadonlyMap<string, StackExport>;
  /** The logical ids of outputs that export under a name that is no string (an intrinsic such as `Fn::Sub`): names not known at synth. */
  readonly unnamed: ReadonlySet<string>;
}

/** One `Fn::ImportValue` of a stack whose argument is a string. */
export interface StackImport {
  /** The export name it imports. */
  readonly name: string;
  /** Where the template holds it (`Resources.P4E0919BE.Properties.Value`), in the lock's path form. */
  readonly at: string;
}

/** The exports of a synthesized template (`Outputs.<id>.Export.Name`). */
export function templateExports(template: unknown): TemplateExports {
  const byName = new Map<string, StackExport>();
  const unnamed = new Set<string>();
  const outputs = (template as { Outputs?: unknown } | undefined)?.Outputs;
  if (!isMap(outputs)) return { byName, unnamed };
  for (const [output, o] of Object.entries(outputs)) {
    if (!isMap(o) || !isMap(o.Export) || o.Export.Name === undefined) continue;
    const name = o.Export.Name;
    if (typeof name === 'string' && !isMaskedValue(name)) byName.set(name, { name, output, value: o.Value, ...(hasMaskedLeaf(o.Value) ? { masked: true } : {}) });
    else unnamed.add(output);
  }
  return { byName, unnamed };
}

/**
 * The exports of a locked stack, from the leaves the lock records for it (`LockedUnit.values`); an export
 * whose name the lock masked is left out, one whose value holds a masked leaf is `masked`.
 */
export function lockedExports(values: Readonly<Record<string, unknown>>): TemplateExports {
  let outputs: Record<string, unknown> | undefined;
  // its keys alone, not its entries: a stack's leaves are read once per release check, most of them no output;
  // indexed, not `for...of`, whose iterator protocol V8 would compile into this loop too (here and in lockedImports)
  const paths = Object.keys(values);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    if (path.startsWith('Outputs') && (path[7] === '.' || path[7] === '[')) (outputs ??= {})[path] = values[path];
  }
  return outputs === undefined ? { byName: new Map(), unnamed: new Set() } : templateExports(lockedManifest(outputs));
}

const IMPORT_VALUE = '["Fn::ImportValue"]';

/**
 * The imports of a locked stack (`Fn::ImportValue` of a string), from the leaves the lock records for it,
 * in the order the lock holds them. An import whose name is an intrinsic, or that the lock masked, is left out.
 */
export function lockedImports(values: Readonly<Record<string, unknown>>): StackImport[] {
  const imports: StackImport[] = [];
  const paths = Object.keys(values);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    if (!path.endsWith(IMPORT_VALUE)) continue;
    const value = values[path];
    if (typeof value !== 'string' || isMaskedValue(value)) continue;
    imports.push({ name: value, at: path.slice(0, -IMPORT_VALUE.length) });
  }
  return imports;
}

function hasMaskedLeaf(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasMaskedLeaf);
  if (isMap(value)) return Object.values(value).some(hasMaskedLeaf);
  return isMaskedValue(value);
}

function isMap(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
