import { literalExports, literalImports, TemplateImport } from '../../private/import-values';
import { nearMiss } from '../../private/near-miss';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP005` (a warning): a stack imports (`Fn.importValue('<name>')`, a literal name) an export that no stack of the
 * composition exports, while one of them exports a name one or two edits away: most likely a typo, which
 * CloudFormation reports only at deploy (`No export named acme-valu found`). A name no export of the composition is
 * near passes without a word: it may be exported outside the composition (another app of the account).
 */
export const danglingImports = defineRule({
  code: ViolationCode.DANGLING_REFERENCE,
  title: 'dangling imports',
  explanation: 'A stack that imports an export no stack exports fails at deploy (No export named ... found); an import one or two letters from an export of the composition most likely misspells it.',
  severity: 'warning',
  run({ facts }) {
    const exporters = new Map<string, { stack: string; output: string }>();
    for (const s of facts.stacks) {
      for (const [name, output] of literalExports(s.template)) if (!exporters.has(name)) exporters.set(name, { stack: s.path, output });
    }
    if (exporters.size === 0) return [];
    const names = [...exporters.keys()];
    const found: RuleFinding[] = [];
    for (const s of facts.stacks) {
      const seen = new Set<string>();
      for (const i of literalImports(s.template)) {
        if (exporters.has(i.name) || seen.has(i.name)) continue;
        seen.add(i.name);
        const meant = nearMiss(i.name, names);
        if (meant === undefined) continue;
        const exporter = exporters.get(meant)!;
        const at = importSite(facts.resourceDeclarers, s.path, i);
        found.push({
          message: `stack '${s.path}' imports the export '${i.name}' (Fn::ImportValue in ${at}), which no stack of the composition exports; `
            + `did you mean '${meant}', exported by stack '${exporter.stack}' (Outputs.${exporter.output})? CloudFormation refuses the stack at deploy `
            + `unless a stack outside the composition exports '${i.name}'. Fix the name in Fn.importValue, or keep it when that export lives outside the composition.`,
          paths: [s.path, exporter.stack],
        });
      }
    }
    return found;
  },
});

/** Where an import is, for a message: the construct that declares the resource (`'jobs/globex/Reader'`), else its place in the template. */
function importSite(declarers: Readonly<Record<string, string>>, stack: string, i: TemplateImport): string {
  const declarer = i.section === 'Resources' ? declarers[`${stack}\u0000${i.logicalId}`] : undefined;
  return declarer !== undefined ? `'${declarer}'` : `${i.section}.${i.logicalId}`;
}
