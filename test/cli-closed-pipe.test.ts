/**
 * A reader that stops early (`cdk-capability plan --json | head -1`) closes the pipe, and the writes still
 * queued fail with EPIPE, raised by Node as an 'error' event of stdout or stderr after the command returned.
 * That ends the output, not the command: no stack trace, and the exit code stays the command's.
 */
import { capturingOutput } from './util';
import { main } from '../src/cli/main';

/** The error a write into a pipe its reader closed fails with. */
function closedPipe(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' });
}

test.each([
  ['stdout', () => process.stdout],
  ['stderr', () => process.stderr],
] as const)('an EPIPE of %s after a command ran is dropped, and the command keeps its exit code', (_name, stream) => {
  // GIVEN a command that ran and printed
  const ran = capturingOutput(() => main(['--version']));
  expect(ran.result).toBe(0);

  // WHEN its reader has closed the pipe THEN the error event is handled, not thrown as an unhandled 'error'
  expect(() => stream().emit('error', closedPipe())).not.toThrow();
});

test('any other error of stdout is raised as before', () => {
  // GIVEN a command that ran
  capturingOutput(() => main(['--version']));

  // WHEN stdout fails otherwise THEN the error is not swallowed
  const full = Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' });
  expect(() => process.stdout.emit('error', full)).toThrow('write ENOSPC');
});

test('running commands again adds no second listener', () => {
  // GIVEN
  capturingOutput(() => main(['--version']));
  const listeners = process.stdout.listenerCount('error');

  // WHEN
  capturingOutput(() => main(['--version']));
  capturingOutput(() => main(['--help']));

  // THEN
  expect(process.stdout.listenerCount('error')).toBe(listeners);
});
