import type { TemplateFinding } from '../../collect/facts';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

const FLAG = '@aws-cdk/core:validateAgainstDefaultRules';

/**
 * `CAP010` (error): what aws-cdk's built-in template validator reports as an
 * error, as aws-cdk reports it for an aws-cdk `App`: only with the feature flag
 * `@aws-cdk/core:validateAgainstDefaultRules` true, or in construct-library
 * strict mode.
 */
export const templateValidationErrors = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'template validation',
  explanation: "aws-cdk's built-in CloudFormation validator checks each capability's templates as it checks an aws-cdk App's; with the feature flag @aws-cdk/core:validateAgainstDefaultRules its errors refuse the composition.",
  run: ({ facts }) => (facts.problems.templateFindings ?? []).filter((f) => f.severity === 'error').map((f) => templateFinding(f, 'error')),
});

/** `CAP010` (warning): the template validator's findings aws-cdk reports as warnings by default. */
export const templateValidationWarnings = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'template validation (warnings)',
  explanation: "aws-cdk's built-in CloudFormation validator reports its findings as warnings by default, as it does for an aws-cdk App; CDK_VALIDATION=false turns it off.",
  severity: 'warning',
  run: ({ facts }) => (facts.problems.templateFindings ?? []).filter((f) => f.severity === 'warning').map((f) => templateFinding(f, 'warning')),
});

/** The validator's rule for a template whose Resources section is missing or empty. */
const EMPTY_TEMPLATE = 'F0001';

/** What a finding of the validator is called, in place of the code's title: the validator's, on a stack's template, not an invalid object of ours. */
const VALIDATOR_FINDING = 'template validator finding';

function templateFinding(f: TemplateFinding, severity: 'error' | 'warning'): RuleFinding {
  const resources = f.resources.map((r) => (r.path ? `${r.logicalId} ('${r.path}')` : r.logicalId)).join(', ');
  const how = severity === 'warning'
    ? `aws-cdk reports this as a warning; set the feature flag "${FLAG}" to true to make it an error`
    : `aws-cdk's template validator refuses it ("${FLAG}" is true)`;
  const paths = [f.stack, ...f.resources.flatMap((r) => (r.path ? [r.path] : []))];
  // F0001: a template without resources, which CloudFormation refuses to deploy: no property to fix, no flag to turn
  if (f.rule === EMPTY_TEMPLATE) {
    return {
      message: `stack '${f.stack}' declares no resource (the validator's ${f.rule}: ${f.description}), and CloudFormation refuses a template without one at deploy. `
        + `Declare a resource in stack '${f.stack}', or drop the stack.`,
      paths,
      title: VALIDATOR_FINDING,
    };
  }
  return {
    message: `the template of stack '${f.stack}'${resources ? `, resource ${resources}` : ''}: ${f.rule} ${f.description}. ${how}; `
      + 'fix the property, or turn the validator off with CDK_VALIDATION=false or the CapabilityApp prop builtinCloudFormationValidation: false.',
    paths,
    title: VALIDATOR_FINDING,
  };
}
