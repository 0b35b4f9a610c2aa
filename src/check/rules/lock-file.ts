import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/** `CAP010`: a lock file that exists but cannot be read as a lock: the release checks cannot run against it. */
export const lockFile = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'lock file',
  explanation: 'The lock file records the previous release; one that is unreadable or does not match its schema cannot be compared against, so nothing is checked against it until it is fixed.',
  run: ({ lockProblem }) => (lockProblem ? [{ message: `${lockProblem}.`, paths: [] }] : []),
});
