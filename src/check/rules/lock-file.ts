import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/** `CAP010`: a lock file that exists but cannot be read as a lock: the release checks cannot run against it. */
export const lockFile = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'lock file',
  run: ({ lockProblem }) => (lockProblem ? [{ message: `${lockProblem}.`, paths: [] }] : []),
});
