import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { quoted } from './text';

/** `CAP001`: a capability declares more than one `SharedBase`. */
export const duplicateSharedBases = defineRule({
  code: ViolationCode.DUPLICATE_OBJECT,
  title: 'duplicate shared bases',
  explanation: 'A capability has exactly one shared base, the stack every tenant stack deploys after; a second one has no place in the order.',
  run: ({ facts }) =>
    facts.capabilities.flatMap((capability) => {
      const bases = facts.stacks.filter((s) => s.capability === capability.path && s.role === 'base').map((s) => s.path);
      if (bases.length < 2) return [];
      return [
        {
          message: `capability '${capability.path}' declares ${bases.length} shared bases (${quoted(bases).join(', ')}). Keep one SharedBase per capability and put shared resources in it.`,
          paths: bases,
        },
      ];
    }),
});
