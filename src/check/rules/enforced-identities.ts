import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP010`, with `enforce`: a `RuntimeWriter` whose identity is `enforce.deployer`. The field-ownership
 * policies tell the writers of a leaf apart by the identity of the request alone, and `enforce.deployer` is
 * the one identity that may change the composition's leaves, the runtime writer's identity the one that may
 * change its fields: given one identity for both, the policies let it change every leaf of both, so the map
 * between them is not enforced, though `enforce` says it is. A refusal, not a warning: the options contradict
 * each other, and no policy can follow both.
 */
export const enforcedIdentities = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'enforced identities',
  explanation: 'The admission policies of enforce tell the deployer from a runtime writer by the identity of the request alone; one identity for both would let it change every leaf of both, and the ownership map between them would not be enforced.',
  run({ facts, enforce }) {
    const deployer = enforce?.deployer;
    if (deployer === undefined) return [];
    return facts.runtimeWriters
      .filter((w) => w.identity === deployer)
      .map((w) => ({
        message: `RuntimeWriter '${w.path}' writes as '${w.identity}', which is also CapabilityApp's enforce.deployer: the field-ownership policies tell writers apart by identity alone, `
          + 'so they would let that one identity change every leaf, the deployer\'s and this runtime writer\'s alike, and nothing between the two would be enforced. '
          + 'Run the deployer under its own identity (a CI job\'s or GitOps controller\'s service account, such as system:serviceaccount:ci:deployer) and give it as enforce.deployer, '
          + 'or give the RuntimeWriter the identity its controller runs as.',
        paths: [w.path],
      }));
  },
});
