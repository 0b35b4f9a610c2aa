import type { ValidationAuthor } from '../../collect/facts';
import { carriesItsFix } from '../../collect/render-error';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { withoutFinalPeriod } from './text';

/**
 * `CAP010`: a construct whose own validation fails (cdk8s and aws-cdk
 * validations, `node.addValidation`), and an object that cannot be rendered.
 * A validation that is not this package's is quoted as its author's words,
 * saying whose they are, with the fix: the program's own check, or a construct
 * library's (by its class).
 */
export const constructValidation = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'construct validation',
  explanation: 'cdk8s and aws-cdk constructs validate themselves at synth (addValidation); an error they report would fail the deploy, so it refuses the composition here, named by the construct.',
  run({ facts }) {
    const found: RuleFinding[] = facts.problems.validationErrors.map(({ path, error, by }) => ({
      message: validationMessage(path, error, by),
      paths: [path],
    }));
    for (const { path, error } of facts.problems.renderErrors) {
      // a second copy of a package, a value named with its fix: the error says the fix itself
      const fix = carriesItsFix(error) ? '' : error.startsWith('JSON patch ') ? ' Fix the patch.' : " Fix the object's props.";
      found.push({ message: `'${path}' could not be rendered: ${error}.${fix}`, paths: [path] });
    }
    return found;
  },
});

/**
 * A failed validation, as the finding says it: this package's own as it is (it names its fix); the program's
 * (`node.addValidation` on a construct of its own class) quoted as its own check, to be fixed at the construct
 * or in the check; a construct library's quoted with its class, to be fixed in the construct's props or use.
 */
function validationMessage(path: string, error: string, by: ValidationAuthor | undefined): string {
  if (by === undefined) return `'${path}' failed its own validation: ${error}`;
  const quoted = `"${withoutFinalPeriod(error.trim())}"`;
  const where = '(cdk-capability plan, and its --format github and sarif, name the line that created it)';
  if (by.kind === 'program') {
    return `'${path}' failed a validation the program added to it (node.addValidation): ${quoted}. `
      + `This is the program's own check, not one of cdk-capability's: fix what it says at '${path}' ${where}, or change the check if it no longer holds.`;
  }
  const [library] = by.fqn.split('.');
  return `'${path}' (${by.fqn}) failed its own validation: ${quoted}. `
    + `This is ${library}'s check of the construct (or one the program added to it with node.addValidation), not one of cdk-capability's: `
    + `fix what it says in the props or the use of '${path}' ${where}.`;
}
