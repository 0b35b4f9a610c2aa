import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP014`: a lock file that exists but cannot be read as a lock (not JSON, or
 * not of the shape `docs/lock.schema.json` gives it, one finding per violation
 * with its JSON pointer), or a `CDK_CAPABILITY_LOCK_KEY` too short to keep its
 * digests unguessable: the release checks cannot run against it.
 */
export const lockFile = defineRule({
  code: ViolationCode.LOCK_FILE,
  title: 'lock file',
  explanation: 'The lock file records the previous release; one that is unreadable or does not match its schema cannot be compared against, so nothing is checked against it until it is fixed.',
  run: ({ lockProblems }) => (lockProblems ?? []).map((message) => ({ message, paths: [] })),
});
