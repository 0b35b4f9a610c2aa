import type { ContractFact } from '../../collect/facts';
import { TIER_LIMITS } from '../../private/ssm-tier';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP009`: a publication larger than its SSM parameter's tier holds (4 KB
 * Standard, 8 KB Advanced). Without it, CloudFormation fails the deployment
 * half-way, after the stacks before it are updated. When some value is a
 * token, the size known at synth (tokens counted as empty) is a lower bound.
 */
export const contractParameterSize = defineRule({
  code: ViolationCode.CONTRACT_MISUSE,
  title: 'contract parameter size',
  explanation: 'The interface contract is published as one SSM parameter, which has a size limit per tier; a contract that does not fit fails at deploy time.',
  run: ({ facts }) => facts.contracts.flatMap(sizeProblems),
});

function sizeProblems(contract: ContractFact): RuleFinding[] {
  const found: RuleFinding[] = [];
  for (const p of contract.publications) {
    const parameter = p.parameter;
    if (!parameter) continue;
    const limit = TIER_LIMITS[parameter.tier] ?? TIER_LIMITS.Standard;
    if (parameter.bytes <= limit) continue;
    const size = parameter.exact ? `${parameter.bytes} bytes` : `at least ${parameter.bytes} bytes (counting deploy-time values as empty)`;
    const fix = limit < TIER_LIMITS.Advanced
      ? 'Publish with { tier: ssm.ParameterTier.ADVANCED } (8 KB), or publish less.'
      : 'No tier holds more than 8 KB: publish less (names and ARNs rather than documents), or split the interface across capabilities.';
    found.push({
      message: `'${p.stack}' publishes ${size} as '${contract.path}', more than the ${parameter.tier} tier of its SSM parameter '${contract.parameterName}' holds (${limit} bytes). ${fix}`,
      paths: [contract.path, p.stack],
    });
  }
  return found;
}
