import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { CYCLE_ERROR } from './dependency-cycles';
import { withoutFinalPeriod } from './text';

/**
 * `CAP015`: an aws-cdk stack outside every capability (a plain `new Stack(app, ...)` under a `CapabilityApp`):
 * it belongs to no cloud assembly and would not deploy. Checked at synth, as aws-cdk's `Stack` checks nothing
 * of the kind when it is created.
 */
export const misplacedStacks = defineRule({
  code: ViolationCode.MISPLACED_CONSTRUCT,
  title: 'misplaced stacks',
  explanation: "Each aws-cdk stack of a CapabilityApp deploys as part of a capability's cloud assembly; a stack outside every Capability belongs to none and would not be deployed.",
  run: ({ facts }) => facts.stacks
    .filter((s) => s.capability === undefined)
    .map((s) => ({
      message: `stack '${s.path}' is created outside any Capability, so it belongs to no cloud assembly and would not be deployed. `
        + `Create it with a Capability, or a construct inside one, as scope (new Stack(capability, '${s.path.split('/').pop()}')), or keep it in a plain aws-cdk App.`,
      paths: [s.path],
    })),
});

/**
 * `CAP010`: aws-cdk synthesis errors other than cycles, with our advice where we have some.
 */
export const deploySynthesis = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'deploy synthesis',
  explanation: 'The aws-cdk stacks of every capability must synthesize into a cloud assembly; an error that no other rule reports (a failed aws-cdk validation or a synthesis error) refuses the composition.',
  run({ facts }) {
    const found: RuleFinding[] = [];
    const validated = new Set(facts.problems.validationErrors.map((v) => v.path));
    for (const { capability, error, refused } of facts.problems.synthesisErrors) {
      // this library's own refusal of the kind, as it named it (an aws-cdk-lib older than the peer range)
      if (refused?.code === ViolationCode.INVALID_OBJECT) {
        found.push({ message: refused.message, paths: refused.paths });
        continue;
      }
      if (CYCLE_ERROR.test(error)) continue;
      if (onlyReportedValidations(error, validated)) continue; // construct-validation reports each, named by its construct
      if (resolvingReportedResource(error, validated)) continue;
      const where = `the stacks of capability '${capability}' could not be synthesized`;
      const crossEnvironment = crossEnvironmentFix(error.trim());
      let message = `${where}: ${error.trim()}`;
      if (crossEnvironment) {
        message = `${where}: aws-cdk says "${error.trim()}" ${crossEnvironment}`;
      } else if (/cross stage boundaries/.test(error)) {
        message = `${where}: ${error}. Each capability deploys on its own; share values between capabilities through an InterfaceContract, or put stacks that depend on each other in one capability.`;
      } else if (/modified after the first synthesis/.test(error)) {
        message = `${where}: constructs were added after a previous synth of this app. Build the whole composition before the first synth, or build a new app.`;
      } else {
        message = `${where}: aws-cdk says "${withoutFinalPeriod(shownError(error.trim()))}". ${awsCdkErrorFix(error.trim(), capability)}`;
      }
      found.push({ message, paths: [capability] });
    }
    return found;
  },
});

/** Where docs/errors.md lists the errors aws-cdk raises at synth that this package knows a fix for. */
const SEE_DOCS = 'docs/errors.md, "CAP010 invalid object", lists the aws-cdk errors cdk-capability knows a fix for.';

/**
 * aws-cdk's text as a finding quotes it: a resource named by its logical id's token
 * (`${Token[shop.Base.Loop.LogicalID.11]}`) named by its construct path instead, and a run of one repeated path
 * segment (a value that holds itself: `/again/again/...`) said once, with its count.
 */
function shownError(error: string): string {
  return error
    .replace(/\$\{Token\[((?:[^\]]+?))\.LogicalID\.\d+\]\}/g, (_, dotted: string) => `<resource '${dotted.split('.').join('/')}'>`)
    .replace(/((?:\/[^/\s]+))\1{2,}/g, (run: string, segment: string) => `${segment} (repeated ${run.length / segment.length} times)`);
}

/**
 * The fix of an aws-cdk synthesis error that no other branch knows: what it is and what to change, by its kind (a
 * value that holds itself, an L1's props of the wrong type, a value aws-cdk could not resolve), else where to look.
 */
function awsCdkErrorFix(error: string, capability: string): string {
  if (/^Resolution error: Unable to resolve object tree with circular reference/.test(error)) {
    return 'A value in the template holds itself (a map or list inside itself), which has no form in JSON: '
      + 'give a copy of it without the key that holds it (in the props or the override of the resource it names).';
  }
  const props = /^Resolution error: Supplied properties not correct for "(\w+)Props"/.exec(error);
  if (props) {
    return `The props of a ${props[1]} (an L1 of aws-cdk-lib) are not of the types it takes: give each field it names a value of that type (as a string where it says "should be a string").`;
  }
  if (/^Resolution error:/.test(error)) {
    return `aws-cdk could not resolve a value of the stacks of capability '${capability}' (a Lazy, a token or an override): fix the value it names, `
      + `such as a Lazy whose produce function throws or returns nothing. ${SEE_DOCS}`;
  }
  return `This is aws-cdk's own error, which cdk-capability has no advice for: fix what it names in the stacks of capability '${capability}' `
    + `(their constructs, props, overrides or tokens). ${SEE_DOCS}`;
}

/**
 * The fix of aws-cdk's refusal of a reference between stacks of different environments (an
 * environment-specific tenant that reads a value of its environment-agnostic base, or the reverse), naming the
 * stacks aws-cdk names; undefined for another error.
 */
function crossEnvironmentFix(error: string): string | undefined {
  const stacks = /^Stack "([^"]+)" cannot reference .* in stack "([^"]+)"\. Cross stack\/region references are only supported for stacks with an explicit region defined\.?$/s.exec(error);
  const resource = /Cannot use resource '([^']+)' in a cross-environment fashion/.exec(error);
  if (!stacks && !resource) return undefined;
  const which = stacks ? `stack '${stacks[2]}' the same env as stack '${stacks[1]}'` : `the stack of '${resource![1]}' the same env as the stack that reads it`;
  return `Give ${which} (env: { account, region }), so both deploy to one account and region; `
    + 'or pass the value through an InterfaceContract (publish and consume) or an SSM parameter read by its name, not a token of the other stack.';
}

/**
 * True when an aws-cdk synthesis error is its construct validation
 * (`Validation failed with the following errors:` then `[path] message` lines)
 * and every construct it names already failed its own validation: one problem,
 * one finding.
 */
function onlyReportedValidations(error: string, validated: ReadonlySet<string>): boolean {
  if (!/^Validation failed with the following errors:/.test(error)) return false;
  const paths = [...error.matchAll(/^\s*\[([^\]\n]+)\]/gm)].map((m) => m[1]);
  return paths.length > 0 && paths.every((p) => validated.has(p));
}

/**
 * True when an aws-cdk synthesis error is a resolution error in the template of
 * a resource that already failed its own validation (aws-cdk names it by its
 * logical id's token, `${Token[shop.Base.Raw.LogicalID.12]}`): a function in a
 * raw resource's properties or an override, which the validation names by the
 * program's own call. One problem, one finding.
 */
function resolvingReportedResource(error: string, validated: ReadonlySet<string>): boolean {
  const resource = /^Resolution error: .*Path: \/Resources\/\$\{Token\[(.+?)\.LogicalID\.\d+\]\}\//.exec(error)?.[1];
  if (resource === undefined) return false;
  for (const path of validated) if (path.split('/').join('.') === resource) return true;
  return false;
}
