import { carriesItsFix } from '../../collect/render-error';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a construct whose own validation fails (cdk8s and aws-cdk
 * validations, `node.addValidation`), and an object that cannot be rendered.
 */
export const constructValidation = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'construct validation',
  explanation: 'cdk8s and aws-cdk constructs validate themselves at synth (addValidation); an error they report would fail the deploy, so it refuses the composition here, named by the construct.',
  run({ facts }) {
    const found: RuleFinding[] = facts.problems.validationErrors.map(({ path, error }) => ({ message: `'${path}' failed its own validation: ${error}`, paths: [path] }));
    for (const { path, error } of facts.problems.renderErrors) {
      // a second copy of a package, a value named with its fix: the error says the fix itself
      const fix = carriesItsFix(error) ? '' : error.startsWith('JSON patch ') ? ' Fix the patch.' : " Fix the object's props.";
      found.push({ message: `'${path}' could not be rendered: ${error}.${fix}`, paths: [path] });
    }
    return found;
  },
});
