// The composition the package's interface test compares with the lock of its last published release.
// Accept a release when publishing it: CDK_CAPABILITY_UPDATE_LOCK=1 npx ts-node --transpile-only interface/release.ts
import * as path from 'path';
import { CapabilityApp } from '../../../../src';
import { QueueWorkerCapability } from '../src';

/** One instance with one tenant: what the contract and its readers look like to an app. */
export function compose(app: CapabilityApp): QueueWorkerCapability {
  return new QueueWorkerCapability(app, 'jobs', { tenants: ['acme'], image: 'ghcr.io/acme/worker:1.0.0' });
}

if (require.main === module) {
  const here = __dirname;
  const app = new CapabilityApp({ outdir: path.join(here, 'dist'), lockFile: path.join(here, 'capability.lock.json'), builtinCloudFormationValidation: false });
  compose(app);
  app.synth();
}
