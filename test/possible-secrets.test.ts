import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting, SharedBase } from '../src';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);
afterEach(() => jest.restoreAllMocks());

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE'; // AWS's documented example key id
const FIX =
  'would be written to the output in clear text. Keep secrets out of the composition: store them in AWS Secrets Manager or SSM SecureString and read them at runtime (an ExternalSecret), or remove the value if it is not a secret.';

/** GIVEN-side helper: an app with capability `cdn` and its routing chart. */
function routing(): { app: CapabilityApp; cdn: Capability; chart: RuntimeRouting } {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  return { app, cdn, chart: new RuntimeRouting(cdn, 'Routing') };
}

describe('possible secrets: warnings, not refusals', () => {
  test('an AWS access key id in a ConfigMap is a CAP012 warning that shows only its ends', () => {
    // GIVEN
    const { app, chart } = routing();
    new ApiObject(chart, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'creds' }, data: { key: `id=${AWS_KEY}` } } as any);

    // WHEN
    const result = app.synthesize();

    // THEN a warning, no violation, and the output is still produced
    expect(result.violations).toEqual([]);
    expect(result.output).toBeDefined();
    expect(result.warnings).toEqual([
      { code: 'CAP012', message: `possible secret: an AWS access key id ("AKIA...MPLE") in data.key of ConfigMap creds declared by 'cdn/Routing/Creds' ${FIX}`, paths: ['cdn/Routing/Creds'] },
    ]);
    expect(result.warnings[0].message).not.toContain(AWS_KEY);
  });

  test('a PEM private key in a manifest is a warning naming the key type', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Tls', {
      apiVersion: 'example.com/v1',
      kind: 'Certificate',
      metadata: { name: 'tls' },
      spec: { key: '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n' },
    } as any);

    expect(app.synthesize().warnings.map((w) => w.message)).toEqual([
      `possible secret: a PEM private key ("-----BEGIN EC PRIVATE KEY-----") in spec.key of example.com/Certificate tls declared by 'cdn/Routing/Tls' ${FIX}`,
    ]);
  });

  test('a PEM key base64-encoded in a Secret\'s data is found', () => {
    const { app, chart } = routing();
    const pem = Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n').toString('base64');
    new ApiObject(chart, 'Key', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'key', namespace: 'edge' }, data: { 'tls.key': pem } } as any);

    expect(app.synthesize().warnings.map((w) => w.message)).toEqual([
      `possible secret: a PEM private key ("-----BEGIN PRIVATE KEY-----") in data["tls.key"] of Secret edge/key declared by 'cdn/Routing/Key' ${FIX}`,
    ]);
  });

  test('a public certificate and a lowercase look-alike are not warned about', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Ca', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ca' },
      data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', 'note': 'akiaiosfodnn7example', 'longer': `X${AWS_KEY}9` },
    } as any);

    expect(app.synthesize().warnings).toEqual([]);
  });

  test('an AWS access key id in a CloudFormation template is a warning naming the stack and the declaring construct', () => {
    // GIVEN a parameter whose value is a key id
    const { app, cdn } = routing();
    new ssm.StringParameter(new SharedBase(cdn, 'Base'), 'Creds', { stringValue: AWS_KEY });

    // WHEN
    const { warnings } = app.synthesize();

    // THEN
    expect(warnings).toEqual([
      {
        code: 'CAP012',
        message: expect.stringMatching(
          /^possible secret: an AWS access key id \("AKIA\.\.\.MPLE"\) in Resources\.Creds[0-9A-F]{8}\.Properties\.Value of the template of stack 'cdn\/Base' \(from 'cdn\/Base\/Creds'\) would be written/,
        ),
        paths: ['cdn/Base/Creds'],
      },
    ]);
  });

  test('app.synth() prints warnings to stderr, code first, and still writes the output', () => {
    // GIVEN
    const { app, chart } = routing();
    new ApiObject(chart, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'creds' }, data: { key: AWS_KEY } } as any);
    const printed: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => printed.push(String(chunk)) > 0);

    // WHEN
    app.synth();

    // THEN
    expect(printed).toEqual([`CAP012 warning: possible secret: an AWS access key id ("AKIA...MPLE") in data.key of ConfigMap creds declared by 'cdn/Routing/Creds' ${FIX}\n`]);
  });

  test('a refused synth still prints its warnings before throwing', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Creds', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' }, data: { key: AWS_KEY } } as any);
    const printed: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => printed.push(String(chunk)) > 0);

    expect(() => app.synth()).toThrow(/CAP010 invalid object: 'metadata\.name' \("Bad_Name"\)/);
    expect(printed).toEqual([expect.stringMatching(/^CAP012 warning: possible secret: /)]);
  });
});
