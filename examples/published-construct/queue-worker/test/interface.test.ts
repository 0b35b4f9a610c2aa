import * as path from 'path';
import { CapabilityTesting } from '../../../../src';
import { compose } from '../interface/release';

test('the contract changes only as the release published last allows', () => {
  // GIVEN the lock of the release published last, committed in the package
  const app = CapabilityTesting.app({
    lockFile: path.join(__dirname, '..', 'interface', 'capability.lock.json'),
    builtinCloudFormationValidation: false,
  });
  compose(app);

  // WHEN this source is synthesized against it
  const result = CapabilityTesting.synth(app);

  // THEN no CAP007 (a change without its version bump) and no CAP008 (a major its readers still read, removed)
  expect(result.violations).toEqual([]);
});
