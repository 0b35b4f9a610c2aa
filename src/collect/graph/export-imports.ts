import type { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { StackDependency } from './composition-graph';
import { awsCdk, isUnresolvedToken } from '../../private/aws-cdk';
import { literalExports, literalImports } from '../../private/import-values';

/**
 * Why a stack waits for the stack whose export it imports, as `plan.json` and CAP004 say it:
 * `export 'acme-value' (CfnOutput 'jobs/acme/Value') imported by 'jobs/globex/Reader/Resource'`.
 */
export function exportImportReason(name: string, output: string, importer: string): string {
  return `${EXPORT_PREFIX}${name}' (CfnOutput '${output}') imported by '${importer}'`;
}

/**
 * True when `reason` is an edge's reason that `exportImportReason` made: the rules that name such a dependency by
 * its export (CAP008's removal of an export a stack imported) know it by this.
 */
export function isExportImportReason(reason: string): boolean {
  return reason.startsWith(EXPORT_PREFIX);
}

const EXPORT_PREFIX = "export '";

/**
 * The stack dependencies that a hand-written `Fn.importValue('<name>')` implies: the stack of the composition that
 * exports `<name>` (a `CfnOutput` with that literal `exportName`) before the stack that imports it. CloudFormation
 * refuses the importer while no stack exports the name (`No export named acme-value found`), and aws-cdk adds no
 * dependency for a name the program wrote itself.
 *
 * One dependency per export name and pair of stacks, named by the first import of it in the importer's template.
 * Left out: an import of a name no stack of the composition exports (it may come from outside), a name that is an
 * intrinsic (not known at synth), a stack that imports its own export, stacks pinned to different accounts or
 * regions (an export is seen only in its own), and a pair the assembly orders already (`existing`: aws-cdk's own
 * cross-stack references import its `ExportsOutput...` names, and an explicit dependency already says it).
 *
 * @param stacks the stacks of the composition, in the order of `Facts.stacks`
 * @param templates each stack's synthesized template
 * @param existing the stack dependencies the cloud assemblies record
 */
export function exportImportDependencies(
  stacks: readonly Stack[],
  templates: ReadonlyMap<Stack, unknown>,
  existing: readonly StackDependency[],
): StackDependency[] {
  const exporters = new Map<string, { stack: Stack; output: string }>();
  for (const stack of stacks) {
    for (const [name, output] of literalExports(templates.get(stack))) if (!exporters.has(name)) exporters.set(name, { stack, output });
  }
  if (exporters.size === 0) return [];

  const ordered = new Map<Stack, Set<Stack>>();
  for (const d of existing) ordered.set(d.to, (ordered.get(d.to) ?? new Set()).add(d.from));
  const paths = new Map<Stack, Map<string, string>>();
  const pathOf = (stack: Stack, logicalId: string) => {
    let byId = paths.get(stack);
    if (!byId) paths.set(stack, (byId = elementPaths(stack)));
    return byId.get(logicalId) ?? `${stack.node.path}/${logicalId}`;
  };

  const found: StackDependency[] = [];
  for (const to of stacks) {
    // per exporting stack, the names this stack's dependencies on it are made for
    const made = new Map<Stack, Set<string>>();
    for (const i of literalImports(templates.get(to))) {
      const exporter = exporters.get(i.name);
      if (!exporter || exporter.stack === to || !sameEnvironment(exporter.stack, to)) continue;
      const from = exporter.stack;
      if (ordered.get(to)?.has(from) || made.get(from)?.has(i.name)) continue;
      made.set(from, (made.get(from) ?? new Set()).add(i.name));
      found.push({ from, to, reason: exportImportReason(i.name, pathOf(from, exporter.output), pathOf(to, i.logicalId)) });
    }
  }
  return found;
}

/** False when both stacks are pinned and to different accounts or regions: an export is seen in its own only. */
function sameEnvironment(a: Stack, b: Stack): boolean {
  const differ = (x: string, y: string) => !isUnresolvedToken(x) && !isUnresolvedToken(y) && x !== y;
  return !differ(a.account, b.account) && !differ(a.region, b.region);
}

/** The construct path of each CloudFormation element (resource, output, condition) of `stack`, by its logical id. */
function elementPaths(stack: Stack): Map<string, string> {
  const { CfnElement, Stack: StackClass } = awsCdk();
  const byId = new Map<string, string>();
  const pending: IConstruct[] = [stack];
  while (pending.length > 0) {
    const c = pending.pop()!;
    if (CfnElement.isCfnElement(c) && StackClass.of(c) === stack) {
      const logicalId: unknown = stack.resolve(c.logicalId);
      if (typeof logicalId === 'string') byId.set(logicalId, c.node.path);
    }
    for (const child of c.node.children) pending.push(child);
  }
  return byId;
}
