import { compareInterfaces } from '../../release/interface-compatibility';
import { interfaceRecord } from '../../release/interface-record';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/** `CAP007`: an interface change without the version bump it needs, or a version that went backwards. */
export const interfaceCompatibility = defineRule({
  code: ViolationCode.BREAKING_CHANGE,
  title: 'interface compatibility',
  explanation: 'Consumers of the interface contract read it by its major version: removing, retyping or tightening a field needs a major bump, adding one at least a minor, and a version never goes back.',
  run({ facts, previous }) {
    if (!previous) return [];
    const { incompatible } = compareInterfaces(previous.interfaces, facts.contracts.map(interfaceRecord));
    return incompatible.map((p) => {
      const path = p.contract;
      if (p.needs === 'backwards') {
        return { message: `the version of '${path}' went backwards from ${p.from} to ${p.to}. Versions only go up: set it to ${p.from} or higher.`, paths: [path] };
      }
      const what = p.changes.map((c) => `field '${c.field}' ${c.change} (needs ${c.needs})`).join('; ');
      return {
        message: `'${path}' changed (${what}), which needs a ${p.needs} version bump, but the version went from ${p.from} to ${p.to}. Set the version to ${p.suggested}, or undo the change.`,
        paths: [path],
        // only a change that needs a major bump breaks the consumers; a compatible one lacks only its bump
        ...(p.needs === 'major' ? {} : { title: 'interface change without its version bump' }),
      };
    });
  },
});
