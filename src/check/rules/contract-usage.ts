import { sharedCapabilityFix } from './contract-advice';
import { quoted } from './text';
import type { ContractFact } from '../../collect/facts';
import { undeclaredReadText } from '../../contract/contract-arguments';
import { appendAll, appendTo } from '../../private/append';
import { fieldValueProblem } from '../../private/field-value';
import { nearMiss } from '../../private/near-miss';
import { isSemverVersion, majorOfVersion } from '../../private/semver-version';
import { ViolationCode } from '../finding';
import { CheckContext, defineRule, RuleFinding } from '../rule';

/**
 * `CAP009`: the contract used wrongly: more than one contract in a capability
 * (majors of one contract side by side excepted, each major once),
 * an invalid version, a second publication, a publication from another
 * capability, a declared field not published, an undeclared field published,
 * a value of the wrong type, a secret published, a consumer reading an
 * undeclared field.
 */
export const contractUsage = defineRule({
  code: ViolationCode.CONTRACT_MISUSE,
  title: 'contract usage',
  explanation: 'The interface contract is the one typed crossing from deployment time to runtime: every declared field published once with a value of its type, no undeclared field, one contract per capability.',
  run(context) {
    const { facts } = context;
    const found: RuleFinding[] = [];
    for (const capability of facts.capabilities) {
      const contracts = facts.contracts.filter((c) => c.capability === capability.path);
      const names = new Set(contracts.map((c) => c.name));
      const mine = contracts.map((c) => c.path);
      if (names.size > 1) {
        found.push({
          message: `capability '${capability.path}' declares ${mine.length} contracts (${quoted(mine).join(', ')}); exactly one interface crosses to runtime. `
            + (sharedCapabilityFix(contracts) ?? 'Merge their fields into one InterfaceContract.'),
          paths: mine,
        });
        continue;
      }
      // Majors side by side: one contract name, each major once.
      const byMajor = new Map<number, string[]>();
      for (const c of contracts) {
        const major = majorOfVersion(c.version);
        if (major !== undefined) appendTo(byMajor, major, c.path);
      }
      for (const [major, paths] of byMajor) {
        if (paths.length < 2) continue;
        const fix = sharedCapabilityFix(contracts.filter((c) => paths.includes(c.path))) ?? 'Give the new one the next major, or remove one.';
        found.push({
          message: `capability '${capability.path}' declares major ${major} of contract '${contracts[0].name}' ${paths.length} times (${quoted(paths).join(', ')}); majors side by side must differ. ${fix}`,
          paths,
        });
      }
    }
    for (const contract of facts.contracts) appendAll(found, contractProblems(contract, context));
    return found;
  },
});

function contractProblems(contract: ContractFact, { facts }: CheckContext): RuleFinding[] {
  const path = contract.path;
  const declared = Object.keys(contract.fields).join(', ');
  const found: RuleFinding[] = [];
  const [publication, ...again] = contract.publications;
  for (const other of again) {
    found.push({ message: `'${path}' is published twice (by '${publication.stack}' and '${other.stack}'). Publish once, from one stack.`, paths: [path, other.stack] });
  }
  for (const p of contract.publications) {
    if (facts.stacks.find((s) => s.path === p.stack)?.capability === contract.capability) continue;
    found.push({
      message: `'${path}' is published by '${p.stack}', which is not in capability '${contract.capability}'. Publish from its SharedBase or one of its DeploymentAggregates.`,
      paths: [path, p.stack],
    });
  }
  const subject = { path, capability: contract.capabilityId, fields: Object.keys(contract.fields) };
  for (const read of contract.undeclaredReads) {
    found.push({ message: undeclaredReadText(subject, read.chart, read.field), paths: [path, read.chart] });
  }
  if (!isSemverVersion(contract.version)) {
    found.push({ message: `'version' (${JSON.stringify(contract.version)}) of '${path}' must be a semver version such as "1.2.0".`, paths: [path] });
  }
  if (!publication) {
    const required = Object.entries(contract.fields).filter(([, f]) => f.required).map(([n]) => n);
    if (required.length > 0) {
      found.push({ message: `'${path}' is never published, so its fields ${required.join(', ')} reach no consumer. Call contract.publish(sharedBase, values).`, paths: [path] });
    }
    return found;
  }
  const stack = publication.stack;
  const where = [path, stack];
  const early = new Set<string>();
  for (const read of contract.earlyValueReads) {
    const value = publication.values[read.field];
    const key = `${read.chart}\u0000${read.field}`;
    if (value === undefined || value.deployTime || value.literal === undefined || early.has(key)) continue;
    early.add(key);
    found.push({
      message: `'${read.chart}' read the value of '${read.field}' of '${path}' before '${stack}' published it, so it got undefined, not ${JSON.stringify(value.literal)}. `
        + 'Publish the contract before reading a handle\'s value, or read the field at runtime with envValue() or envVar().',
      paths: [path, read.chart],
    });
  }
  for (const [name, field] of Object.entries(contract.fields)) {
    const value = publication.values[name];
    if (value === undefined) {
      if (field.required) found.push({ message: `'${stack}' does not publish the declared field '${name}' of '${path}'. Publish a value for it, or declare it with .optional().`, paths: where });
      continue;
    }
    if (value.secret) {
      found.push({
        message: `'${stack}' publishes a secret${value.secretSource ? ` (${value.secretSource})` : ''} as '${name}' of '${path}'; the interface is a plain String parameter that every reader of the contract sees, not a secret store. Publish the secret's name or ARN and read the secret itself at runtime.`,
        paths: where,
      });
      continue;
    }
    const problem = fieldValueProblem(field, value);
    if (problem) found.push({ message: `'${stack}' publishes '${name}' of '${path}' with the wrong type: ${problem}.`, paths: where });
  }
  for (const name of Object.keys(publication.values)) {
    if (!(name in contract.fields)) {
      const meant = nearMiss(name, subject.fields);
      found.push({
        message: `'${stack}' publishes '${name}', which '${path}' does not declare (declared: ${declared}${meant ? `; did you mean '${meant}'?` : ''}). Declare the field in the contract or stop publishing it.`,
        paths: where,
      });
    }
  }
  return found;
}
