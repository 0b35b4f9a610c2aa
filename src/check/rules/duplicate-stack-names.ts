import type { StackFact } from '../../collect/facts';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { quoted } from './text';

/** The environment of an environment-agnostic stack: it deploys where the aws-cdk CLI points, as every other such stack does. */
const AGNOSTIC = 'aws://unknown-account/unknown-region';

/**
 * `CAP001`: two stacks of the composition deploy to one CloudFormation stack:
 * the same stack name in one environment (account and region). The aws-cdk
 * CLI deploys both, one after the other, into that one stack, and each deploy
 * replaces the stack's template, deleting the other's resources without an
 * error. Stack names derived from a capability's id collide when two
 * capabilities of one id sit under different constructs (two instances of a
 * reusable construct); environment-agnostic stacks all deploy where the CLI
 * points, so they collide with each other.
 */
export const duplicateStackNames = defineRule({
  code: ViolationCode.DUPLICATE_OBJECT,
  title: 'duplicate stack names',
  explanation:
    'Two stacks of one CloudFormation stack name in one account and region are one stack when deployed: each deploy replaces the template, and the resources of the other are deleted without an error.',
  run({ facts }) {
    const byName = new Map<string, StackFact[]>();
    for (const stack of facts.stacks) {
      if (stack.stackName.includes('${Token[')) continue; // a name known only at deploy time
      const key = `${stack.environment}|${stack.stackName}`;
      const list = byName.get(key);
      if (list) list.push(stack);
      else byName.set(key, [stack]);
    }
    return [...byName.values()]
      .filter((stacks) => stacks.length > 1)
      .map((stacks) => {
        const paths = stacks.map((s) => s.path);
        const where = stacks[0].environment === AGNOSTIC ? 'environment-agnostic: both deploy to the account and region the aws-cdk CLI targets' : `environment ${stacks[0].environment}`;
        return {
          message:
            `CloudFormation stack '${stacks[0].stackName}' (${where}) is declared by ${quoted(paths).join(' and ')}: ` +
            'deployed one after the other, each replaces the stack\'s template and deletes the resources of the other. ' +
            `${fixOf(stacks)}`,
          paths,
        };
      });
  },
});

/** How to give each stack its own name: a capability of another id when the names come from two capabilities of one id. */
function fixOf(stacks: readonly StackFact[]): string {
  const capabilityIds = new Set(stacks.map((s) => s.capability?.split('/').pop()));
  const distinctCapabilities = new Set(stacks.map((s) => s.capability)).size === stacks.length;
  const byCapabilityId = distinctCapabilities && capabilityIds.size === 1 && !capabilityIds.has(undefined);
  return byCapabilityId
    ? `Give each stack a name of its own: give the capabilities ${quoted(stacks.map((s) => s.capability!)).join(' and ')} different ids (a stack is named '<capability id>-<stack id>'), or pass each stack a stackName.`
    : 'Give each stack a name of its own: pass one of them another stackName, or give them different ids.';
}
