import { isMap } from './maps';

/** One `Fn::ImportValue` of a literal export name in a synthesized template. */
export interface TemplateImport {
  /** The export name it imports (`acme-value`). */
  readonly name: string;
  /** The template section that holds it (`Resources`, `Outputs`, `Conditions`). */
  readonly section: string;
  /** The logical id of the resource, output or condition that holds it. */
  readonly logicalId: string;
}

/** What aws-cdk's export names for its cross-stack references hold after the stack name (`shop-Base:ExportsOutputRefLogs...`). */
const AWS_CDK_EXPORT = ':ExportsOutput';

/** The template sections whose entries may hold an `Fn::ImportValue`. */
const SECTIONS = ['Resources', 'Outputs', 'Conditions'] as const;

/**
 * The exports a program names itself in a synthesized template (`Outputs.<id>.Export.Name`, a `CfnOutput`'s
 * `exportName`, `Stack.exportValue`'s `name`), by name, each with the logical id of its output. Left out: a name
 * that is an intrinsic (`Fn::Sub`, `Fn::Join`), not known at synth, and aws-cdk's own exports for its cross-stack
 * references (`<stack name>:ExportsOutput...`), which it makes a stack dependency of itself; a composition
 * without an export of its own so reads no template further.
 */
export function literalExports(template: unknown): Map<string, string> {
  const byName = new Map<string, string>();
  const outputs = isMap(template) ? template.Outputs : undefined;
  if (!isMap(outputs)) return byName;
  for (const [logicalId, output] of Object.entries(outputs)) {
    const name = isMap(output) && isMap(output.Export) ? output.Export.Name : undefined;
    if (typeof name === 'string' && !name.includes(AWS_CDK_EXPORT) && !byName.has(name)) byName.set(name, logicalId);
  }
  return byName;
}

/**
 * Every `Fn::ImportValue` of a literal export name in a synthesized template, anywhere in a resource, output
 * or condition (also nested in `Fn::Join` or `Fn::Sub`), in template order. An import whose name is itself an
 * intrinsic (`{ 'Fn::ImportValue': { 'Fn::Sub': '${Env}-value' } }`) names an export that is not known at synth
 * and is left out. Iterative: a deep template costs no stack.
 */
export function literalImports(template: unknown): TemplateImport[] {
  const found: TemplateImport[] = [];
  if (!isMap(template)) return found;
  for (const section of SECTIONS) {
    const entries = template[section];
    if (!isMap(entries)) continue;
    for (const [logicalId, entry] of Object.entries(entries)) {
      if (entry === null || typeof entry !== 'object') continue;
      // only maps and lists are pushed: a template is mostly strings
      const pending: object[] = [entry];
      while (pending.length > 0) {
        const value = pending.pop()!;
        if (Array.isArray(value)) {
          for (let i = value.length - 1; i >= 0; i--) {
            const v: unknown = value[i];
            if (v !== null && typeof v === 'object') pending.push(v);
          }
          continue;
        }
        const map = value as Record<string, unknown>;
        const name = map['Fn::ImportValue'];
        if (typeof name === 'string') found.push({ name, section, logicalId });
        const keys = Object.keys(map);
        for (let i = keys.length - 1; i >= 0; i--) {
          const v = map[keys[i]];
          if (v !== null && typeof v === 'object') pending.push(v);
        }
      }
    }
  }
  return found;
}
