import * as fs from 'fs';
import { aws_iam as iam, aws_secretsmanager as secretsmanager, CfnParameter, Fn, SecretValue } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Capability, CompositionError, DeploymentAggregate, Field, FieldMap, InterfaceContract, SharedBase } from '../src';
import { edgeComposition, summary } from './contract-fixtures';
import { lockedSeries, nextRelease, ReleaseBuilder, removeReleaseDirs } from './release-fixtures';
import { capturingOutput, newApp, removeTempDirs, thrownBy } from './util';

afterAll(removeTempDirs);
afterAll(removeReleaseDirs);

const EDGE = 'cdn/Edge';
const BASE = 'cdn/Base';

/** GIVEN-side helper: capability `cdn` whose only contract `Limits` has `fields`, and its shared base. */
function limitsContract<F extends FieldMap>(fields: F) {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  const limits = new InterfaceContract(cdn, 'Limits', { version: '1.0.0', fields });
  const base = new SharedBase(cdn, 'Base');
  return { app, cdn, limits, base };
}

function wrongType(field: string, problem: string) {
  return {
    code: 'CAP009',
    message: `contract misuse: '${BASE}' publishes '${field}' of 'cdn/Limits' with the wrong type: ${problem}.`,
    paths: [BASE, 'cdn/Limits'],
  };
}

function secretPublished(field: string, source: string) {
  return {
    code: 'CAP009',
    message: `contract misuse: '${BASE}' publishes a secret (${source}) as '${field}' of '${EDGE}'; the interface is a plain String parameter that every reader of the contract sees, not a secret store. Publish the secret's name or ARN and read the secret itself at runtime.`,
    paths: [BASE, EDGE],
  };
}

describe('CAP009: the version', () => {
  test('a version that is not semver ("1.2") is refused, quoting the prop and the value', () => {
    // GIVEN the contract at version "1.2", otherwise used correctly
    const { app, edge, base, distribution } = edgeComposition({ version: '1.2' });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN exactly one CAP009 names the version
    expect(summary(violations)).toEqual([
      { code: 'CAP009', message: `contract misuse: 'version' ("1.2") of '${EDGE}' must be a semver version such as "1.2.0".`, paths: [EDGE] },
    ]);
  });

  test('app.synth() throws a CompositionError with the version violation and writes nothing', () => {
    // GIVEN the contract at version "1.2"
    const { app, edge, base, distribution } = edgeComposition({ version: '1.2' });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });

    // WHEN synth runs
    let thrown: unknown;
    try {
      app.synth();
    } catch (e) {
      thrown = e;
    }

    // THEN the error reports CAP009 and the outdir was not created
    expect(thrown).toBeInstanceOf(CompositionError);
    expect((thrown as Error).message).toBe(
      'The composition was refused with 1 violation:\n' +
        `CAP009 contract misuse: 'version' ("1.2") of '${EDGE}' must be a semver version such as "1.2.0".`,
    );
    expect(fs.existsSync(app.outdir)).toBe(false);
  });
});

describe('CAP009: the version is a semver 2.0 version exactly as written, as the lock schema reads it', () => {
  // semver's valid() reads the first three as 1.0.0; the lock schema does not, so a lock holding them was refused (CAP014)
  test.each(['v1.0.0', ' 1.0.0', '1.0.0 ', '1.0', '01.0.0', '=1.0.0'])('version %j is refused, quoting it', (version) => {
    // GIVEN the contract at that version, otherwise used correctly
    const { app, edge, base, distribution } = edgeComposition({ version });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN exactly one CAP009 names the version as given
    expect(summary(violations)).toEqual([
      { code: 'CAP009', message: `contract misuse: 'version' (${JSON.stringify(version)}) of '${EDGE}' must be a semver version such as "1.2.0".`, paths: [EDGE] },
    ]);
  });

  test.each(['1.0.0', '0.0.1', '1.0.0-rc.1', '1.0.0+build.5', '10.20.30-alpha.beta-1+exp.sha.5114f85'])('version %j is accepted', (version) => {
    // GIVEN the contract at that version, used correctly
    const { app, edge, base, distribution } = edgeComposition({ version });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused
    expect(summary(violations)).toEqual([]);
  });

  test('the lock an accepted version is written to is one the next synth reads', () => {
    // GIVEN a release of the contract at a version with a prerelease and build metadata, its lock written
    const build: ReleaseBuilder<undefined> = (app) => {
      const { edge, base, distribution } = edgeComposition({ version: '1.0.0-rc.1+build.5', app });
      edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    };
    const series = capturingOutput(() => lockedSeries(build, undefined)).result;

    // WHEN the same release is checked against that lock
    const { violations } = nextRelease(series, build, undefined);

    // THEN the lock holds the version as written, and is accepted
    expect(JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')).interfaces[0].version).toBe('1.0.0-rc.1+build.5');
    expect(summary(violations)).toEqual([]);
  });
});

describe('CAP009: what is published', () => {
  test('a declared field left out of the publication is refused', () => {
    // GIVEN tenantHeader not published (the types forbid it; bypassed)
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName } as any);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the missing field is named
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: '${BASE}' does not publish the declared field 'tenantHeader' of '${EDGE}'. Publish a value for it, or declare it with .optional().`,
        paths: [BASE, EDGE],
      },
    ]);
  });

  test('a published field the contract does not declare is refused', () => {
    // GIVEN an extra field "region" published
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id', region: 'eu-west-1' } as any);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the extra field is named with the declared ones
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: '${BASE}' publishes 'region', which '${EDGE}' does not declare (declared: originDnsName, tenantHeader). Declare the field in the contract or stop publishing it.`,
        paths: [BASE, EDGE],
      },
    ]);
  });

  test('a string published for a number field is refused', () => {
    // GIVEN maxTenants (a number) published as "3"
    const { app, limits, base } = limitsContract({ maxTenants: Field.number() });
    limits.publish(base, { maxTenants: '3' as any });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the type problem is named
    expect(summary(violations)).toEqual([wrongType('maxTenants', '"3" is a string, expected a number')]);
  });

  test('a string that is not a DNS name published for a dnsName field is refused', () => {
    // GIVEN originDnsName published as "not a dns name!"
    const { app, limits, base } = limitsContract({ originDnsName: Field.dnsName() });
    limits.publish(base, { originDnsName: 'not a dns name!' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the value is quoted with an example of a DNS name
    expect(summary(violations)).toEqual([wrongType('originDnsName', '"not a dns name!" is not a DNS name such as "origin.example.com"')]);
  });

  test('a non-http URL published for a url field is refused', () => {
    // GIVEN healthUrl published as "ftp://x"
    const { app, limits, base } = limitsContract({ healthUrl: Field.url() });
    limits.publish(base, { healthUrl: 'ftp://x' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the value is quoted with an example of a URL
    expect(summary(violations)).toEqual([wrongType('healthUrl', '"ftp://x" is not an http(s) URL such as "https://example.com/path"')]);
  });

  test('literals of the right type and format are accepted', () => {
    // GIVEN a literal for each field kind
    const { app, limits, base } = limitsContract({
      originDnsName: Field.dnsName(),
      healthUrl: Field.url(),
      maxTenants: Field.number(),
      cache: Field.boolean(),
      header: Field.string(),
    });
    limits.publish(base, { originDnsName: 'origin.example.com', healthUrl: 'https://example.com/healthz', maxTenants: 3, cache: true, header: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });
});

describe('CAP009: where and how often it is published', () => {
  test('a contract with required fields that is never published is refused', () => {
    // GIVEN the contract declared and never published
    const { app } = edgeComposition();

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the unpublished required fields are named
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: '${EDGE}' is never published, so its fields originDnsName, tenantHeader reach no consumer. Call contract.publish(sharedBase, values).`,
        paths: [EDGE],
      },
    ]);
  });

  test('a contract published from two stacks is refused as published twice', () => {
    // GIVEN the contract published by the base and again by tenant acme
    const { app, cdn, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    edge.publish(new DeploymentAggregate(cdn, 'acme'), { originDnsName: 'acme.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the second publication is refused as CAP009, naming both stacks
    expect(summary(violations.filter((v) => v.code === 'CAP009'))).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: '${EDGE}' is published twice (by '${BASE}' and 'cdn/acme'). Publish once, from one stack.`,
        paths: [EDGE, 'cdn/acme'],
      },
    ]);
  });

  test('a contract published twice from the same stack is reported, not thrown', () => {
    // GIVEN the contract published twice by the base
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });

    // WHEN it is published again from the same stack and synthesized
    const publishAgain = () => edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });

    // THEN publish does not throw and synth reports CAP009 for it
    expect(publishAgain).not.toThrow();
    expect(summary(app.synthesize().violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: '${EDGE}' is published twice (by '${BASE}' and '${BASE}'). Publish once, from one stack.`,
        paths: [BASE, EDGE],
      },
    ]);
  });

  test('a contract published from a stack of another capability is refused', () => {
    // GIVEN cdn's contract published by the shared base of capability "other"
    const { app, edge } = edgeComposition();
    const otherBase = new SharedBase(new Capability(app, 'other'), 'Base');
    edge.publish(otherBase, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the foreign stack is named with the contract's capability
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: '${EDGE}' is published by 'other/Base', which is not in capability 'cdn'. Publish from its SharedBase or one of its DeploymentAggregates.`,
        paths: [EDGE, 'other/Base'],
      },
    ]);
  });

  test('two contracts in one capability are refused', () => {
    // GIVEN a second contract Tenancy in cdn, both published correctly
    const { app, cdn, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    const tenancy = new InterfaceContract(cdn, 'Tenancy', { version: '1.0.0', fields: { maxTenants: Field.number() } });
    tenancy.publish(base, { maxTenants: 10 });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the capability is refused, naming both contracts
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: "contract misuse: capability 'cdn' declares 2 contracts ('cdn/Edge', 'cdn/Tenancy'); exactly one interface crosses to runtime. Merge their fields into one InterfaceContract.",
        paths: [EDGE, 'cdn/Tenancy'],
      },
    ]);
  });
});

describe('CAP009: the consumer', () => {
  test('a consumer reading a field the contract does not declare is refused at synth, also when the program caught the refusal of the read', () => {
    // GIVEN the routing chart reading "nope" (the types forbid it; bypassed), the refusal caught
    const { app, edge, base, distribution, routing } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    const handles = edge.consume(routing);
    thrownBy(() => (handles as any).nope);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the chart and the field are named with the declared ones
    expect(summary(violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: 'cdn/Routing' reads 'nope', which '${EDGE}' does not declare (declared: originDnsName, tenantHeader). Declare the field or read a declared one.`,
        paths: [EDGE, 'cdn/Routing'],
      },
    ]);
  });

  test('reading a misspelt field throws CAP009 as it is read, naming the field it most likely misspells, not a TypeError at its first method', () => {
    // GIVEN the handles
    const { edge, base, distribution, routing } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
    const handles = edge.consume(routing);

    // WHEN a misspelt field's env entry is made (a TypeError "Cannot read properties of undefined" before)
    const error = thrownBy(() => (handles as any).tenantHeadr.envVar()) as CompositionError;

    // THEN the read is refused, naming the chart, the field, the one meant and the declared ones
    expect(CompositionError.isCompositionError(error)).toBe(true);
    expect(summary(error.violations)).toEqual([
      {
        code: 'CAP009',
        message: `contract misuse: 'cdn/Routing' reads 'tenantHeadr', which '${EDGE}' does not declare (declared: originDnsName, tenantHeader; did you mean 'tenantHeader'?). Declare the field or read a declared one.`,
        paths: [EDGE],
      },
    ]);
  });

  test('keys that libraries probe objects for (then, toJSON, $$typeof, Symbol.iterator) are read as absent, not refused', () => {
    // GIVEN the handles
    const { edge, routing } = edgeComposition();
    const handles = edge.consume(routing) as any;

    // WHEN a promise, JSON and jest read them, THEN nothing is refused and nothing is recorded
    const probed = [handles.then, handles.toJSON, handles.$$typeof, handles.asymmetricMatch, handles[Symbol.iterator]];
    expect(probed).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(Object.keys(JSON.parse(JSON.stringify(handles)))).toEqual(['originDnsName', 'tenantHeader']);
    expect(edge.undeclaredReads).toEqual([]);
  });
});

describe('CAP009: secrets are not published', () => {
  test('a Secrets Manager SecretValue is refused', () => {
    // GIVEN tenantHeader published as SecretValue.secretsManager('x')
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: SecretValue.secretsManager('x') as any });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the secret is refused
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', 'a SecretValue')]);
  });

  test('a string holding a {{resolve:secretsmanager:...}} dynamic reference is refused', () => {
    // GIVEN tenantHeader published as a dynamic reference written by hand
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'prefix-{{resolve:secretsmanager:MySecret:SecretString:password}}' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the secret is refused
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', 'a {{resolve:secretsmanager:...}} dynamic reference')]);
  });

  test('a secret unwrapped into a longer string is refused', () => {
    // GIVEN tenantHeader published as text around an unwrapped Secrets Manager value
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: `x-${SecretValue.secretsManager('x').unsafeUnwrap()}` });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the secret is refused
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', 'a {{resolve:secretsmanager:...}} dynamic reference')]);
  });

  test('an SSM SecureString SecretValue is refused', () => {
    // GIVEN tenantHeader published as SecretValue.ssmSecure('/cdn/header')
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: SecretValue.ssmSecure('/cdn/header') as any });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the secret is refused
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', 'a SecretValue')]);
  });

  // Issue 15, item 3: secrets that passed once unwrapped.
  test("iam.AccessKey's secretAccessKey, unwrapped, is refused as the attribute aws-cdk marks secret", () => {
    // GIVEN tenantHeader published as the unwrapped secret access key of an access key for a user
    const { app, edge, base, distribution } = edgeComposition();
    const key = new iam.AccessKey(base, 'Key', { user: new iam.User(base, 'Deployer') });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: key.secretAccessKey.unsafeUnwrap() });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is refused, naming the attribute and the access key
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', "secretAccessKey of 'cdn/Base/Key', which aws-cdk marks secret")]);
  });

  /** GIVEN-side helper: a construct in `scope` whose one enumerable property counts its reads. */
  function countingReads(scope: Construct): { reads: number } {
    const counter = { reads: 0 };
    Object.defineProperty(new Construct(scope, 'Watched'), 'watched', {
      enumerable: true,
      get: () => {
        counter.reads++;
        return 'plain';
      },
    });
    return counter;
  }

  test('a publication of literals does not walk the constructs for the attributes aws-cdk marks secret', () => {
    // GIVEN a contract published with a literal, and a construct whose one property counts its reads
    const { app, limits, base } = limitsContract({ tier: Field.string() });
    limits.publish(base, { tier: 'gold' });
    const counter = countingReads(base);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is accepted, and no one read the construct's property
    expect(violations).toEqual([]);
    expect(counter.reads).toBe(0);
  });

  test('a publication of a token walks the constructs for the attributes aws-cdk marks secret', () => {
    // GIVEN a contract published with a token, and a construct whose one property counts its reads
    const { app, limits, base } = limitsContract({ tier: Field.string() });
    limits.publish(base, { tier: Fn.join('-', ['gold', base.stackName]) });
    const counter = countingReads(base);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is accepted, and the walk read the property once
    expect(violations).toEqual([]);
    expect(counter.reads).toBe(1);
  });

  test('the L1 attribute CfnAccessKey.attrSecretAccessKey is refused as a secret attribute', () => {
    // GIVEN tenantHeader published as the SecretAccessKey attribute of a CfnAccessKey
    const { app, edge, base, distribution } = edgeComposition();
    const key = new iam.CfnAccessKey(base, 'Key', { userName: 'deployer' });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: key.attrSecretAccessKey });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is refused, naming the attribute
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', "attribute SecretAccessKey of 'cdn/Base/Key', a secret")]);
  });

  test.each([
    ['valueAsString', (p: CfnParameter) => p.valueAsString],
    ['inside Fn.join', (p: CfnParameter) => Fn.join('-', ['x', p.valueAsString])],
  ])('a CfnParameter with noEcho (%s) is refused, naming the parameter', (_, read) => {
    // GIVEN tenantHeader published from a NoEcho parameter
    const { app, edge, base, distribution } = edgeComposition();
    const password = new CfnParameter(base, 'Password', { noEcho: true });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: read(password) });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is refused, naming the parameter
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', "the NoEcho CfnParameter 'cdn/Base/Password'")]);
  });

  test("a secret's ARN is accepted, though a construct holds a SecretValue that reads the secret by that ARN", () => {
    // GIVEN a Secrets Manager secret, a construct holding SecretValue.secretsManager(secret.secretArn), and the ARN published
    const { app, edge, base, distribution } = edgeComposition();
    const secret = new secretsmanager.Secret(base, 'Db');
    const holder = new Construct(base, 'Holder') as Construct & { password?: SecretValue };
    holder.password = SecretValue.secretsManager(secret.secretArn);
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: secret.secretArn });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused: the ARN names the secret, it is not the secret
    expect(violations).toEqual([]);
  });

  test('a CfnParameter without noEcho is accepted', () => {
    // GIVEN tenantHeader published from an ordinary parameter
    const { app, edge, base, distribution } = edgeComposition();
    const header = new CfnParameter(base, 'Header', { default: 'x-tenant-id' });
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: header.valueAsString });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN nothing is refused
    expect(violations).toEqual([]);
  });

  test('SecretValue.unsafePlainText(...).toString() is refused as a SecretValue', () => {
    // GIVEN tenantHeader published as the string form of a plain-text SecretValue
    const { app, edge, base, distribution } = edgeComposition();
    edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: SecretValue.unsafePlainText('hunter2').toString() });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN it is refused
    expect(summary(violations)).toEqual([secretPublished('tenantHeader', 'a SecretValue')]);
  });
});
