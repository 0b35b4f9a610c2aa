import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP010`: a Contribution that cannot write: props it cannot use (nothing to
 * write, `fields` not an object, `patches` not JSON patches, a target that is
 * no object), a write callback that throws, a target that cannot be
 * rendered before its callback runs, callbacks into a plain cdk8s object
 * that wrote it outside its API, callbacks that changed a CloudFormation
 * resource other than their targets, or several callbacks that ran one after
 * another while one of them changed another callback's target (what they
 * wrote cannot be attributed). It writes nothing.
 */
export const contributionProps = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'contribution props',
  explanation: 'A Contribution that cannot write (no fields, patches or write callback, props of the wrong shape, a callback that throws) would silently write nothing; it refuses the composition, named by the contribution.',
  run: ({ facts }) =>
    facts.problems.contributionErrors.map(({ path, others, error }) => ({ message: `Contribution '${path}': ${error}.`.replace(/\.\.$/, '.'), paths: [path, ...(others ?? [])] })),
});
