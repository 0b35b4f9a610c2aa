/**
 * aws-cdk annotations (`Annotations.of(c).addError/addWarningV2`: an Aspect's, cdk-nag's, aws-cdk's own) are
 * reported as `cdk synth` reports them: an error refuses the composition (`CAP018`), a warning is printed unless
 * acknowledged.
 */
import { Annotations, Aspects } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { IConstruct } from 'constructs';
import { Capability, CapabilityTesting, DeploymentAggregate, SharedBase } from '../src';

const messages = (vs: ReadonlyArray<{ code: string; message: string }>) => vs.map((v) => `${v.code} ${v.message}`);

/** Adds an error to every bucket it visits, as a policy Aspect (or cdk-nag) does. */
const bucketPolicy = { visit(n: IConstruct) { if (n instanceof s3.CfnBucket) Annotations.of(n).addError('policy: buckets need encryption keys'); } };

describe('aws-cdk annotations', () => {
  test("an Aspect's error annotation on a shared base's bucket refuses the composition, naming the construct", () => {
    // GIVEN
    const app = CapabilityTesting.app();
    new s3.Bucket(new SharedBase(new Capability(app, 'shop'), 'Base'), 'B');

    // WHEN
    Aspects.of(app).add(bucketPolicy);

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(messages(result.violations)).toEqual([
      "CAP018 construct error: 'shop/Base/B/Resource' has the aws-cdk error annotation: policy: buckets need encryption keys. "
      + 'Address its cause (for cdk-nag, fix the resource or add a NagSuppressions entry with a reason); cdk deploy refuses it as "Synthesis finished with errors".',
    ]);
    expect(result.violations[0].paths).toEqual(['shop/Base/B/Resource']);
  });

  test("an error annotation on a tenant aggregate's construct refuses the composition", () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const shop = new Capability(app, 'shop');
    new SharedBase(shop, 'Base');
    const bucket = new s3.Bucket(new DeploymentAggregate(shop, 'acme'), 'B');

    // WHEN (a sentence of its own: the message ends it once)
    Annotations.of(bucket).addError('tenant buckets are not allowed.');

    // THEN
    expect(messages(CapabilityTesting.synth(app).violations)).toEqual([
      "CAP018 construct error: 'shop/acme/B' has the aws-cdk error annotation: tenant buckets are not allowed. "
      + 'Address its cause (for cdk-nag, fix the resource or add a NagSuppressions entry with a reason); cdk deploy refuses it as "Synthesis finished with errors".',
    ]);
  });

  test('a warning annotation is reported as a warning, and synth succeeds', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const bucket = new s3.Bucket(new SharedBase(new Capability(app, 'shop'), 'Base'), 'B');

    // WHEN
    Annotations.of(bucket).addWarningV2('acme:versioning', 'buckets should be versioned');

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(messages(result.warnings)).toEqual([
      "CAP018 construct error: 'shop/Base/B' has the aws-cdk warning annotation: buckets should be versioned [ack: acme:versioning]. "
      + 'Address its cause, or acknowledge it with Annotations.of(construct).acknowledgeWarning(id).',
    ]);
  });

  test('an acknowledged warning annotation is not reported, another of the construct is', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const base = new SharedBase(new Capability(app, 'shop'), 'Base');
    const bucket = new s3.Bucket(base, 'B');
    Annotations.of(bucket).addWarningV2('acme:versioning', 'buckets should be versioned');
    Annotations.of(bucket).addWarningV2('acme:logging', 'buckets should log access');

    // WHEN one of its two warnings is acknowledged
    Annotations.of(base).acknowledgeWarning('acme:versioning', 'versioning is handled by the backup plan');

    // THEN only the other is reported
    const result = CapabilityTesting.synth(app);
    expect(result.violations).toEqual([]);
    expect(messages(result.warnings)).toEqual([
      "CAP018 construct error: 'shop/Base/B' has the aws-cdk warning annotation: buckets should log access [ack: acme:logging]. "
      + 'Address its cause, or acknowledge it with Annotations.of(construct).acknowledgeWarning(id).',
    ]);
  });
});
