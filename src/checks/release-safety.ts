import { interfaceArtifact, InterfaceRecord } from '../output/interface-artifact';
import { findUnsafeDeletions } from '../release/deletion-safety';
import { compareInterfaces } from '../release/interface-compatibility';
import { violation, ViolationCode } from '../violation';
import { Check, CheckContext } from './check';

/** The interface records of the composition as it is now. */
export function currentInterfaces({ model }: CheckContext): InterfaceRecord[] {
  return interfaceArtifact(model.contracts).interfaces;
}

/** `CAP007`: an interface change without the version bump it needs, or a version that went backwards. */
export const interfaceCompatibility: Check = {
  name: 'interface compatibility',
  code: ViolationCode.BREAKING_CHANGE,
  run(context) {
    if (!context.previous) return [];
    const { incompatible } = compareInterfaces(context.previous.interfaces, currentInterfaces(context));
    return incompatible.map((p) => {
      const path = p.contract;
      if (p.needs === 'backwards') {
        return violation(
          ViolationCode.BREAKING_CHANGE,
          `breaking interface change: the version of '${path}' went backwards from ${p.from} to ${p.to}. Versions only go up: set it to ${p.from} or higher.`,
          [path],
        );
      }
      const what = p.changes.map((c) => `field '${c.field}' ${c.change} (needs ${c.needs})`).join('; ');
      return violation(
        ViolationCode.BREAKING_CHANGE,
        `breaking interface change: '${path}' changed (${what}), which needs a ${p.needs} version bump, but the version went from ${p.from} to ${p.to}. Set the version to ${p.suggested}, or undo the change.`,
        [path],
      );
    });
  },
};

/** `CAP008`: a removal that breaks what remains (CRD, Namespace, depended-on stack or object, consumed field). */
export const deletionSafety: Check = {
  name: 'deletion safety',
  code: ViolationCode.UNSAFE_DELETION,
  run(context) {
    if (!context.previous) return [];
    return findUnsafeDeletions(context.previous, context.model, currentInterfaces(context)).map((d) =>
      violation(
        ViolationCode.UNSAFE_DELETION,
        `unsafe deletion: this release removes ${d.removed}, but ${d.neededBy} remains and ${d.why}. Remove or move the dependent in the same release, or keep what it needs.`,
        d.paths,
      ),
    );
  },
};
