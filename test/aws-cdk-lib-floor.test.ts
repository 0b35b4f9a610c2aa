import * as fs from 'fs';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';

afterAll(removeTempDirs);

// trial10: an app on aws-cdk-lib 2.261.0 (installed despite the peer range) was refused with a false CAP004,
// "'jobs/acme' must deploy after its shared base 'jobs/Base', but Cannot read properties of undefined (reading 'call')":
// Stack.addStackDependency is new in aws-cdk-lib 2.262.0. Here the installed aws-cdk-lib is made to look older by
// taking the method off Stack's prototype for the test.

test('a tenant under an aws-cdk-lib without Stack.addStackDependency is CAP010 naming the version and the fix', () => {
  const add = Object.getOwnPropertyDescriptor(Stack.prototype, 'addStackDependency')!;
  delete (Stack.prototype as { addStackDependency?: unknown }).addStackDependency;
  let error: unknown;
  try {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const jobs = new Capability(app, 'jobs');
    new SharedBase(jobs, 'Base');
    error = thrownBy(() => {
      new DeploymentAggregate(jobs, 'acme');
      app.synth();
    });
  } finally {
    Object.defineProperty(Stack.prototype, 'addStackDependency', add);
  }
  const version = JSON.parse(fs.readFileSync(require.resolve('aws-cdk-lib/package.json'), 'utf-8')).version;
  expect((error as Error).message).toBe(
    'The composition was refused with 1 violation:\n'
      + `CAP010 invalid object: 'jobs/acme' needs aws-cdk-lib 2.262.0 or later (cdk-capability's peer range, ^2.262.0), and ${version} is installed: `
      + 'it has no Stack.addStackDependency, which orders a stack after another. Install a version in range: npm i aws-cdk-lib@^2.262.0.',
  );
});
