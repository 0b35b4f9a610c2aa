import { parameterNameProblem } from '../../private/parameter-name';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP010`: a contract whose SSM parameter name AWS would refuse. Checked also when it is not published:
 * its consumers' `ExternalSecret`s read that name, and `interface.json` and the lock record it (a lock
 * refuses a name without its leading `/`, `CAP014`).
 */
export const parameterNames = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'parameter names',
  explanation: 'SSM parameter names have rules beyond what aws-cdk checks (no aws or ssm prefix, at most 15 levels); a name that breaks them fails at deploy time.',
  run: ({ facts }) =>
    facts.contracts.flatMap((c) => {
      const problem = parameterNameProblem(c.parameterName);
      if (!problem) return [];
      return [
        {
          message: `the parameter name of '${c.path}' is invalid: ${problem}. Choose a contract name (its 'name', else its id) and parameterPrefix of letters, digits, . - _ that do not begin with "aws" or "ssm".`,
          paths: [c.path],
        },
      ];
    }),
});
