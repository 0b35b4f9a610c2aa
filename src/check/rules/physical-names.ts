import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { quoted } from './text';

/** `CAP002`: two CloudFormation resources claim one physical name (an SSM parameter name, a Route53 record), or two Outputs one export name. */
export const physicalNames = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'physical names',
  explanation: 'Two resources claiming one physical name (an SSM parameter, a DNS record name and type), or two Outputs one export name in an account and region, collide at deploy time; each physical name has one owner.',
  run({ facts }) {
    const claims = new Map<string, { claim: string; claimants: string[] }>();
    for (const c of facts.physicalNames) {
      const entry = claims.get(c.key) ?? { claim: c.claim, claimants: [] };
      entry.claimants.push(c.claimant);
      claims.set(c.key, entry);
    }
    return [...claims.values()]
      .filter((c) => c.claimants.length > 1)
      .map((c) => ({
        message: `${quoted(c.claimants).join(' and ')} both claim the physical name ${c.claim}. Give each resource its own name, or declare the resource once and share it.`,
        paths: c.claimants,
      }));
  },
});
