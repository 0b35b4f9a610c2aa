import * as path from 'path';
import { aws_sqs as sqs } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { removeTempDirs, tempDir } from './util';
import { formatPlan } from '../src/cli/format-plan';
import { CONTRACT_VERSION_ANNOTATION } from '../src/contract/interface-contract';

afterAll(() => {
  removeReleaseDirs();
  removeTempDirs();
});

// The External Secrets Operator updates a binding's Secret "when the ExternalSecret's labels or annotations are
// changed", "the ExternalSecret's spec has been changed" or the refreshInterval has passed (external-secrets
// docs/api/externalsecret.md, "Update Behavior"), not when the parameter it extracts changes. A field added to a
// contract changes neither the binding's spec nor its name: without the version annotation, the Secret lacked the
// new key for up to an hour, and a reader's pod failed with CreateContainerConfigError.

/** Release 1.0.0 reads `queueUrl`; 1.1.0 adds `deadLetterQueueUrl` and reads it too. */
const build = (app: CapabilityApp, version: '1.0.0' | '1.1.0') => {
  const jobs = new Capability(app, 'jobs');
  const base = new SharedBase(jobs, 'Base');
  const queue = new sqs.Queue(base, 'Queue');
  const fields: Record<string, ReturnType<typeof Field.url>> = version === '1.0.0' ? { queueUrl: Field.url() } : { queueUrl: Field.url(), deadLetterQueueUrl: Field.url() };
  const contract = new InterfaceContract(jobs, 'Queue', { name: 'queue', version, fields });
  contract.publish(base, version === '1.0.0' ? { queueUrl: queue.queueUrl } : { queueUrl: queue.queueUrl, deadLetterQueueUrl: queue.queueUrl });
  const routing = new RuntimeRouting(jobs, 'Routing');
  const values = contract.consume(routing, { namespace: 'workers' }) as Record<string, { envVar(): unknown }>;
  new ApiObject(routing, 'Worker', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'worker', namespace: 'workers' },
    spec: { containers: [{ name: 'worker', image: 'ghcr.io/acme/worker:1', env: Object.keys(fields).map((f) => values[f].envVar()) }] },
  });
};

test('the binding carries the contract version as an annotation', () => {
  // GIVEN release 1.0.0, WHEN synthesized
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  build(app, '1.0.0');
  const result = app.synthesize();

  // THEN its ExternalSecret is annotated with the version
  expect(result.violations).toEqual([]);
  const binding = result.runtimeFiles!.flatMap((f) => f.objects.map((o) => o.manifest)).find((m) => m.kind === 'ExternalSecret');
  expect(binding?.metadata).toEqual({ name: 'jobs-queue-interface', namespace: 'workers', annotations: { [CONTRACT_VERSION_ANNOTATION]: '1.0.0' } });
  expect(CONTRACT_VERSION_ANNOTATION).toBe('cdk-capability.io/contract-version');
});

test('a field added and read in one release changes the binding, so the operator reads the parameter again on apply', () => {
  // GIVEN release 1.0.0 locked, WHEN 1.1.0 adds a field and a reader of it
  const { violations, plan } = nextRelease(lockedSeries(build, '1.0.0'), build, '1.1.0');
  expect(violations).toEqual([]);

  // THEN the plan changes the binding's annotation beside the reader's new env entry
  const text = formatPlan(plan!);
  expect(text).toContain(
    '  ~ external-secrets.io/ExternalSecret workers/jobs-queue-interface\n'
      + '      ~ metadata.annotations["cdk-capability.io/contract-version"]: "1.0.0" -> "1.1.0"\n'
      + '  ~ Pod workers/worker\n',
  );
});
