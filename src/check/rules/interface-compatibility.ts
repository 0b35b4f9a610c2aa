import { majorOfVersion } from '../../private/semver-version';
import { compareInterfaces, IncompatibleVersion, lockedReaders } from '../../release/interface-compatibility';
import { interfaceRecord } from '../../release/interface-record';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { contractFix, contractPackage } from './contract-advice';

/** `CAP007`: an interface change without the version bump it needs, or a version that went backwards. */
export const interfaceCompatibility = defineRule({
  code: ViolationCode.BREAKING_CHANGE,
  title: 'interface compatibility',
  explanation: 'Consumers of the interface contract read it by its major version: removing, retyping or tightening a field needs a major bump, adding one at least a minor, and a version never goes back.',
  run({ facts, previous }) {
    if (!previous) return [];
    const { incompatible } = compareInterfaces(previous.interfaces, facts.contracts.map(interfaceRecord));
    if (incompatible.length === 0) return [];
    const declarers = new Set(facts.objects.map((o) => o.declarer));
    const charts = new Set(facts.charts.map((c) => c.path));
    return incompatible.map((p) => {
      const readers = () => lockedReaders(p.locked, declarers, charts);
      const path = p.contract;
      const pkg = contractPackage(facts.contracts, p.locked.capability, p.locked.name);
      if (p.needs === 'backwards') {
        const owner = `Versions only go up: set it to ${p.from} or higher.`;
        return { message: `the version of '${path}' went backwards from ${p.from} to ${p.to}. ${contractFix(pkg, owner)}`, paths: [path] };
      }
      const what = p.changes.map((c) => `field '${c.field}' ${c.change} (needs ${c.needs})`).join('; ');
      return {
        message: `'${path}' changed (${what}), which needs a ${p.needs} version bump, but the version went from ${p.from} to ${p.to}. ${contractFix(pkg, fix(p, readers))}`,
        paths: [path],
        // only a change that needs a major bump breaks the consumers; a compatible one lacks only its bump
        ...(p.needs === 'major' ? {} : { title: 'interface change without its version bump' }),
      };
    });
  },
});

/**
 * How to fix a change that lacks its bump. A new major set in place replaces the contract's parameter (its name
 * carries the major) and deletes the old one before the runtime step moves the readers, which `CAP008` refuses
 * while the lock records a reader of the old major that remains: then the fix is the next major beside this one.
 */
function fix(p: IncompatibleVersion, readers: () => string[]): string {
  const from = majorOfVersion(p.from);
  if (from === undefined || majorOfVersion(p.suggested) === from || readers().length === 0) return `Set the version to ${p.suggested}, or undo the change.`;
  return `Undo the change here and make it in ${p.suggested} published beside this major (a second InterfaceContract with the same name: `
    + `setting this one to ${p.suggested} deletes the major ${from} parameter while the lock records readers of it, CAP008), `
    + `move the readers to it, and retire major ${from} in a later release (docs/releases.md).`;
}
