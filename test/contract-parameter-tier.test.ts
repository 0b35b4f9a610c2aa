import { aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Capability, Field, InterfaceContract, SharedBase } from '../src';
import { summary } from './contract-fixtures';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

/** GIVEN-side helper: capability `cdn` with contract `Settings` (one string field `blob`) and its shared base. */
function settings() {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  const contract = new InterfaceContract(cdn, 'Settings', { version: '1.0.0', fields: { blob: Field.string() } });
  const base = new SharedBase(cdn, 'Base');
  return { app, contract, base };
}

/** The one SSM parameter of a stack, as aws-cdk synthesized it. */
function parameterOf(stack: Stack): { Tier?: string; Value: string } {
  const [parameter] = Object.values(Template.fromStack(stack).findResources('AWS::SSM::Parameter')) as any[];
  return parameter.Properties;
}

const PARAMETER = '/cdk-capability/cdn/settings/v1';

describe('the SSM tier of the interface parameter follows the size of what is published', () => {
  test('values within 4 KB get the Standard tier (no Tier property, the service default)', () => {
    // GIVEN 3,000 characters published
    const { app, contract, base } = settings();
    contract.publish(base, { blob: 'x'.repeat(3000) });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN accepted, and the parameter sets no tier
    expect(violations).toEqual([]);
    expect(parameterOf(base).Tier).toBeUndefined();
  });

  test('values over 4 KB and within 8 KB get the Advanced tier', () => {
    // GIVEN 5,000 characters published, no tier given
    const { app, contract, base } = settings();
    contract.publish(base, { blob: 'x'.repeat(5000) });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN accepted, and the parameter is Advanced
    expect(violations).toEqual([]);
    expect(parameterOf(base).Tier).toBe('Advanced');
  });

  test('the 4 KB boundary is the byte length of the JSON aws-cdk writes into the parameter (multi-byte characters count their bytes)', () => {
    // GIVEN a value whose JSON is exactly 4,096 bytes, then one byte more (a two-byte character)
    const exact = settings();
    const overhead = Buffer.byteLength(JSON.stringify({ blob: '' }));
    exact.contract.publish(exact.base, { blob: 'x'.repeat(4096 - overhead) });
    const over = settings();
    over.contract.publish(over.base, { blob: `${'x'.repeat(4096 - overhead - 1)}é` });

    // WHEN both are synthesized
    exact.app.synthesize();
    over.app.synthesize();

    // THEN aws-cdk wrote 4,096 and 4,097 bytes, Standard and Advanced
    expect(Buffer.byteLength(parameterOf(exact.base).Value)).toBe(4096);
    expect(parameterOf(exact.base).Tier).toBeUndefined();
    expect(Buffer.byteLength(parameterOf(over.base).Value)).toBe(4097);
    expect(parameterOf(over.base).Tier).toBe('Advanced');
  });

  test('values over 8 KB are refused: no tier holds them', () => {
    // GIVEN 9,000 characters published
    const { app, contract, base } = settings();
    contract.publish(base, { blob: 'x'.repeat(9000) });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP009 with the size aws-cdk would write and the 8 KB limit
    const bytes = Buffer.byteLength(JSON.stringify({ blob: 'x'.repeat(9000) }));
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: 'cdn/Base' publishes ${bytes} bytes as 'cdn/Settings', more than the Advanced tier of its SSM parameter '${PARAMETER}' holds (8192 bytes). No tier holds more than 8 KB: publish less (names and ARNs rather than documents), or split the interface across capabilities.`,
        paths: ['cdn/Base', 'cdn/Settings'],
      },
    ]);
  });

  test('an explicit Standard tier too small for the values is refused, with the tier that fits', () => {
    // GIVEN 5,000 characters published with tier Standard
    const { app, contract, base } = settings();
    contract.publish(base, { blob: 'x'.repeat(5000) }, { tier: ssm.ParameterTier.STANDARD });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP009 naming the Standard limit and the fix
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: 'cdn/Base' publishes 5011 bytes as 'cdn/Settings', more than the Standard tier of its SSM parameter '${PARAMETER}' holds (4096 bytes). Publish with { tier: ssm.ParameterTier.ADVANCED } (8 KB), or publish less.`,
        paths: ['cdn/Base', 'cdn/Settings'],
      },
    ]);
  });

  test('with a deploy-time value, the size known at synth is a lower bound, and over the limit is refused', () => {
    // GIVEN 4,200 characters around the stack's region (a token) with tier Standard
    const { app, contract, base } = settings();
    contract.publish(base, { blob: `${'x'.repeat(4200)}${base.region}` }, { tier: ssm.ParameterTier.STANDARD });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN refused, "at least" the literal part
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: 'cdn/Base' publishes at least 4211 bytes (counting deploy-time values as empty) as 'cdn/Settings', more than the Standard tier of its SSM parameter '${PARAMETER}' holds (4096 bytes). Publish with { tier: ssm.ParameterTier.ADVANCED } (8 KB), or publish less.`,
        paths: ['cdn/Base', 'cdn/Settings'],
      },
    ]);
  });

  test('Intelligent-Tiering, given, is kept and holds up to 8 KB', () => {
    // GIVEN 5,000 characters with tier Intelligent-Tiering
    const { app, contract, base } = settings();
    contract.publish(base, { blob: 'x'.repeat(5000) }, { tier: ssm.ParameterTier.INTELLIGENT_TIERING });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN accepted, the tier as given
    expect(violations).toEqual([]);
    expect(parameterOf(base).Tier).toBe('Intelligent-Tiering');
  });
});
