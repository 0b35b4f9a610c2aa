import * as fs from 'fs';
import { CfnOutput, Fn } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, release, removeReleaseDirs } from './release-fixtures';
import { lockedExports, lockedImports, templateExports } from '../src/release/stack-exports';

afterAll(removeReleaseDirs);

/** The export aws-cdk makes for `bucket.bucketName` of the base's bucket `Logs`, and where the tenant imports it. */
const LOGS_EXPORT = 'shop-Base:ExportsOutputRefLogs6819BB446A932AEA';
const IMPORTED_AT = 'Resources.BucketName742CD8B0.Properties.Value';

/** The CAP008 message of an export removed from `exporter` while `importer` imported it. */
function exportRemoved(name: string, exporter: string, importer: string, at: string): string {
  return `unsafe deletion: this release removes export '${name}' of ${exporter}, but ${importer} remains and it imported it in the locked release (${at}). `
    + `CloudFormation refuses to delete an export that a stack imports, and the version of ${importer} in the cloud imports it until that stack's own update, `
    + `which aws-cdk deploys after ${exporter} while it depends on it: removing the import in this release too is not enough. `
    + `Keep the export one more release with this.exportValue(...) on ${exporter} (aws-cdk's way to keep an export while its importers stop using it), deploy, and remove it in the next release.`;
}

describe('CAP008: a CloudFormation export that a remaining stack imported', () => {
  interface BaseVariant {
    /** The construct id of the base's bucket; absent: no bucket. */
    readonly bucket?: string;
    /** The tenant's parameter holds the bucket's name (aws-cdk imports it from the base). */
    readonly reads?: boolean;
    /** The base keeps the bucket's export with `exportValue`, whether or not the tenant reads it. */
    readonly keepExport?: boolean;
    /** The tenant `shop/acme` is declared; default true. */
    readonly tenant?: boolean;
    /** The shared base `shop/Base` is declared; default true. */
    readonly base?: boolean;
  }

  /** GIVEN-side builder: shared base `shop/Base` with a bucket, tenant `shop/acme` with a parameter holding its name. */
  function shop(app: CapabilityApp, v: BaseVariant): void {
    const cdn = new Capability(app, 'shop');
    const base = v.base === false ? undefined : new SharedBase(cdn, 'Base');
    const bucket = base && v.bucket ? new s3.Bucket(base, v.bucket) : undefined;
    if (bucket && v.keepExport) base!.exportValue(bucket.bucketName);
    if (v.tenant === false) return;
    const acme = new DeploymentAggregate(cdn, 'acme');
    new ssm.StringParameter(acme, 'BucketName', { stringValue: bucket && v.reads ? bucket.bucketName : 'none' });
  }

  test('renaming the bucket whose name a remaining stack imported is refused, naming the export, both stacks and exportValue', () => {
    // GIVEN the real lock of a release where shop/acme imports the name of bucket Logs from shop/Base
    const series = lockedSeries(shop, { bucket: 'Logs', reads: true });

    // WHEN the next release renames the bucket (a new logical id, so a new export), the tenant reading the new one
    const { violations } = nextRelease(series, shop, { bucket: 'Data', reads: true });

    // THEN one CAP008 names the old export, the exporter, the importer and where it imported it
    expect(coded(violations)).toEqual([
      { code: 'CAP008', message: exportRemoved(LOGS_EXPORT, 'stack shop/Base', 'stack shop/acme', IMPORTED_AT), paths: ['shop/Base', 'shop/acme'] },
    ]);
  });

  test('removing the export is refused even when the importer drops its import in the same release', () => {
    // GIVEN the real lock of a release where shop/acme imports the name of bucket Logs from shop/Base
    const series = lockedSeries(shop, { bucket: 'Logs', reads: true });

    // WHEN the next release removes the bucket and the tenant's reference to it
    const { violations } = nextRelease(series, shop, { reads: false });

    // THEN it is refused all the same: the deployed shop/acme imports it until its own update
    expect(coded(violations)).toEqual([
      { code: 'CAP008', message: exportRemoved(LOGS_EXPORT, 'stack shop/Base', 'stack shop/acme', IMPORTED_AT), paths: ['shop/Base', 'shop/acme'] },
    ]);
  });

  test('keeping the export with exportValue for one release, then removing it, is accepted in both releases', () => {
    // GIVEN the real lock of a release where shop/acme imports the name of bucket Logs from shop/Base
    const series = lockedSeries(shop, { bucket: 'Logs', reads: true });

    // WHEN the next release drops the reference and keeps the export with exportValue, and the one after removes the bucket
    const keep = nextRelease(series, shop, { bucket: 'Logs', reads: false, keepExport: true });
    release(series, shop, { bucket: 'Logs', reads: false, keepExport: true });
    const remove = nextRelease(series, shop, { reads: false });

    // THEN both are accepted
    expect(keep.violations).toEqual([]);
    expect(remove.violations).toEqual([]);
  });

  test('removing the export together with the stack that imported it is accepted', () => {
    // GIVEN the real lock of a release where shop/acme imports the name of bucket Logs from shop/Base
    const series = lockedSeries(shop, { bucket: 'Logs', reads: true });

    // WHEN the next release removes the bucket and the tenant
    const { violations } = nextRelease(series, shop, { tenant: false });

    // THEN it is accepted
    expect(violations).toEqual([]);
  });

  test('removing the exporting stack is the one CAP008 of a stack the importer depended on, not a second one of its export', () => {
    // GIVEN the real lock of a release where shop/acme imports the name of bucket Logs from shop/Base
    const series = lockedSeries(shop, { bucket: 'Logs', reads: true });

    // WHEN the next release removes shop/Base
    const { violations } = nextRelease(series, shop, { base: false });

    // THEN one CAP008, the stack dependency's
    expect(coded(violations)).toEqual([
      {
        code: 'CAP008',
        message: 'unsafe deletion: this release removes stack shop/Base, but stack shop/acme remains and it depends on it in the locked release. '
          + 'Remove stack shop/acme in this release too, or keep stack shop/Base one more release (the version of stack shop/acme deployed with CloudFormation needs it until this release is deployed) and remove it in the next.',
        paths: ['shop/Base', 'shop/acme'],
      },
    ]);
  });

  test('a lock written before values were recorded holds no exports: the removal is not judged', () => {
    // GIVEN the lock of a release where shop/acme imports from shop/Base, without the units' values (an older lock)
    const series = lockedSeries(shop, { bucket: 'Logs', reads: true });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    for (const u of lock.units) delete u.values;
    delete lock.contentDigest; // an edited lock, read as one an earlier version wrote: without the contentDigest an edit would no longer match
    fs.writeFileSync(series.lockFile, JSON.stringify(lock));

    // WHEN the next release renames the bucket
    const { violations } = nextRelease(series, shop, { bucket: 'Data', reads: true });

    // THEN the lock is read and nothing is refused
    expect(violations).toEqual([]);
  });

  describe('an export written by hand, imported with Fn.importValue', () => {
    interface TenantVariant {
      /** The construct id of the bucket whose name shop/acme exports as `shop-acme-logs`; absent: no shop/acme. */
      readonly exported?: string;
    }

    /** GIVEN-side builder: tenant `shop/acme` exports a bucket's name as `shop-acme-logs`, tenant `shop/globex` imports it by name. */
    function tenants(app: CapabilityApp, v: TenantVariant): void {
      const cdn = new Capability(app, 'shop');
      if (v.exported) {
        const acme = new DeploymentAggregate(cdn, 'acme');
        new CfnOutput(acme, 'LogsName', { value: new s3.Bucket(acme, v.exported).bucketName, exportName: 'shop-acme-logs' });
      }
      new ssm.StringParameter(new DeploymentAggregate(cdn, 'globex'), 'Logs', { stringValue: Fn.importValue('shop-acme-logs') });
    }

    test('changing its value while a remaining stack imported it is refused, with the old and new value', () => {
      // GIVEN the real lock of a release where shop/globex imports shop-acme-logs, the name of bucket Logs
      const series = lockedSeries(tenants, { exported: 'Logs' });

      // WHEN the next release exports the name of bucket Data under the same name
      const { violations } = nextRelease(series, tenants, { exported: 'Data' });

      // THEN one CAP008 says that the value changes, from what to what
      expect(coded(violations)).toEqual([
        {
          code: 'CAP008',
          message: 'unsafe deletion: this release changes the value of export \'shop-acme-logs\' of stack shop/acme (from {"Ref":"Logs6819BB44"} to {"Ref":"Data666C94C7"}), '
            + 'but stack shop/globex remains and it imported it in the locked release (Resources.Logs6819BB44.Properties.Value). '
            + 'CloudFormation refuses to change an export that a stack imports. Keep \'shop-acme-logs\' with its value one more release, '
            + 'export the new value under another name and move the importers to it, and change or remove the old export in the next release.',
          paths: ['shop/acme', 'shop/globex'],
        },
      ]);
    });

    describe('in the accounts and regions the lock records', () => {
      interface EnvVariant {
        /** The construct id of the bucket whose name shop/acme exports; absent: no shop/acme. */
        readonly exported?: string;
        /** shop/acme's environment. */
        readonly acme?: { account?: string; region?: string };
        /** shop/globex's environment. */
        readonly globex?: { account?: string; region?: string };
      }

      /** GIVEN-side builder: `tenants` with an environment for each stack. */
      function placed(app: CapabilityApp, v: EnvVariant): void {
        const cdn = new Capability(app, 'shop');
        if (v.exported) {
          const acme = new DeploymentAggregate(cdn, 'acme', { env: v.acme });
          new CfnOutput(acme, 'LogsName', { value: new s3.Bucket(acme, v.exported).bucketName, exportName: 'shop-acme-logs' });
        }
        new ssm.StringParameter(new DeploymentAggregate(cdn, 'globex', { env: v.globex }), 'Logs', { stringValue: Fn.importValue('shop-acme-logs') });
      }

      /** The CAP008 message of removing shop/acme while shop/globex imported its export, `note` after the reason. */
      const stackRemoved = (note: string) => 'unsafe deletion: this release removes stack shop/acme, but stack shop/globex remains and it imported its export \'shop-acme-logs\' '
        + `in the locked release (Resources.Logs6819BB44.Properties.Value)${note}. `
        + 'Remove stack shop/globex in this release too, or keep stack shop/acme one more release (the version of stack shop/globex deployed with CloudFormation needs it until this release is deployed) and remove it in the next.';

      test.each([
        ['regions', { region: 'eu-west-1' }, { region: 'us-east-1' }],
        ['accounts', { account: '111111111111', region: 'eu-west-1' }, { account: '222222222222', region: 'eu-west-1' }],
      ])('an export of one name in other %s is another export: removing it is accepted', (_, acme, globex) => {
        // GIVEN the real lock of a release where shop/globex imports shop-acme-logs, shop/acme deploying elsewhere
        const series = lockedSeries(placed, { exported: 'Logs', acme, globex });

        // WHEN the next release removes shop/acme, or changes the value it exports
        const removed = nextRelease(series, placed, { globex });
        const changed = nextRelease(series, placed, { exported: 'Data', acme, globex });

        // THEN neither is refused: what shop/globex imports is an export of its own account and region
        expect(coded(removed.violations)).toEqual([]);
        expect(coded(changed.violations)).toEqual([]);
      });

      test('an export in the importer\'s own account and region is refused, naming both stacks, the account and the region', () => {
        // GIVEN both stacks in account 111111111111, region eu-west-1
        const env = { account: '111111111111', region: 'eu-west-1' };
        const series = lockedSeries(placed, { exported: 'Logs', acme: env, globex: env });

        // WHEN the next release removes shop/acme, or changes the value it exports
        const removed = nextRelease(series, placed, { globex: env });
        const changed = nextRelease(series, placed, { exported: 'Data', acme: env, globex: env });

        // THEN each is one CAP008 that says where both deploy
        const where = ' (CloudFormation exports are per account and region: both deploy to account 111111111111, region eu-west-1)';
        expect(coded(removed.violations)).toEqual([{ code: 'CAP008', message: stackRemoved(where), paths: ['shop/acme', 'shop/globex'] }]);
        expect(coded(changed.violations)).toEqual([{
          code: 'CAP008',
          message: 'unsafe deletion: this release changes the value of export \'shop-acme-logs\' of stack shop/acme (from {"Ref":"Logs6819BB44"} to {"Ref":"Data666C94C7"}), '
            + `but stack shop/globex remains and it imported it in the locked release (Resources.Logs6819BB44.Properties.Value)${where}. `
            + 'CloudFormation refuses to change an export that a stack imports. Keep \'shop-acme-logs\' with its value one more release, '
            + 'export the new value under another name and move the importers to it, and change or remove the old export in the next release.',
          paths: ['shop/acme', 'shop/globex'],
        }]);
      });

      test('two stacks in one region, one naming its account, are refused naming the region and what was assumed of the account', () => {
        // GIVEN shop/acme in account 111111111111, region eu-west-1; shop/globex in region eu-west-1, naming no account
        const series = lockedSeries(placed, { exported: 'Logs', acme: { account: '111111111111', region: 'eu-west-1' }, globex: { region: 'eu-west-1' } });

        // WHEN the next release removes shop/acme
        const { violations } = nextRelease(series, placed, { globex: { region: 'eu-west-1' } });

        // THEN one CAP008 names the shared region, then the account taken for shop/globex
        expect(coded(violations)).toEqual([{
          code: 'CAP008',
          message: stackRemoved(' (CloudFormation exports are per account and region: both deploy to region eu-west-1; '
            + 'stack shop/globex names no account, so it is taken to deploy where stack shop/acme does (account 111111111111))'),
          paths: ['shop/acme', 'shop/globex'],
        }]);
      });

      test('a stack that names no region is taken to deploy beside the one that does, and the message says so', () => {
        // GIVEN shop/acme pinned to region eu-west-1, shop/globex environment-agnostic
        const series = lockedSeries(placed, { exported: 'Logs', acme: { region: 'eu-west-1' } });

        // WHEN the next release removes shop/acme
        const { violations } = nextRelease(series, placed, {});

        // THEN it is refused, saying what was assumed
        expect(coded(violations)).toEqual([{
          code: 'CAP008',
          message: stackRemoved(' (CloudFormation exports are per account and region: stack shop/globex names no region, so it is taken to deploy where stack shop/acme does (region eu-west-1))'),
          paths: ['shop/acme', 'shop/globex'],
        }]);
      });
    });

    test('removing the exporting stack while a stack that imported it by name remains is refused, with no stack dependency to name', () => {
      // GIVEN the real lock of a release where shop/globex imports shop-acme-logs from shop/acme, with no stack dependency
      const series = lockedSeries(tenants, { exported: 'Logs' });

      // WHEN the next release removes shop/acme
      const { violations } = nextRelease(series, tenants, {});

      // THEN one CAP008 names the stack, the export and where it was imported
      expect(coded(violations)).toEqual([
        {
          code: 'CAP008',
          message: 'unsafe deletion: this release removes stack shop/acme, but stack shop/globex remains and it imported its export \'shop-acme-logs\' in the locked release (Resources.Logs6819BB44.Properties.Value). '
            + 'Remove stack shop/globex in this release too, or keep stack shop/acme one more release (the version of stack shop/globex deployed with CloudFormation needs it until this release is deployed) and remove it in the next.',
          paths: ['shop/acme', 'shop/globex'],
        },
      ]);
    });
  });
});

describe('stack exports and imports', () => {
  test('templateExports reads each output export by name, and sets aside a name that is an intrinsic', () => {
    // GIVEN
    const template = {
      Outputs: {
        A: { Value: { Ref: 'Logs' }, Export: { Name: 'shop-logs' } },
        B: { Value: 'x', Export: { Name: { 'Fn::Sub': '${AWS::StackName}-x' } } },
        C: { Value: 'not exported' },
      },
    };

    // WHEN
    const { byName, unnamed } = templateExports(template);

    // THEN
    expect([...byName.values()]).toEqual([{ name: 'shop-logs', output: 'A', value: { Ref: 'Logs' } }]);
    expect([...unnamed]).toEqual(['B']);
  });

  test('lockedExports reads the locked leaves of Outputs, and marks a value with a masked leaf', () => {
    // GIVEN the leaves of a locked stack
    const values = {
      'Resources.Logs.Type': 'AWS::S3::Bucket',
      'Outputs.A.Value.Ref': 'Logs',
      'Outputs.A.Export.Name': 'shop-logs',
      'Outputs.B.Value': '(known after deploy)',
      'Outputs.B.Export.Name': 'shop-b',
      'Outputs.C.Value': 'x',
      'Outputs.C.Export.Name': '(sensitive)',
    };

    // WHEN
    const { byName, unnamed } = lockedExports(values);

    // THEN a masked name is no name known at synth
    expect([...byName.values()]).toEqual([
      { name: 'shop-logs', output: 'A', value: { Ref: 'Logs' } },
      { name: 'shop-b', output: 'B', value: '(known after deploy)', masked: true },
    ]);
    expect([...unnamed]).toEqual(['C']);
  });

  test('lockedImports reads each Fn::ImportValue of a string with where it is, and leaves out one of an intrinsic', () => {
    // GIVEN the leaves of a locked stack
    const values = {
      'Resources.P.Properties.Value["Fn::ImportValue"]': 'shop-logs',
      'Resources.Q.Properties.Tags[0].Value["Fn::ImportValue"]["Fn::Sub"]': '${Env}-logs',
      'Resources.R.Properties.Value["Fn::Join"][1][0]["Fn::ImportValue"]': 'shop-arn',
    };

    // WHEN
    const imports = lockedImports(values);

    // THEN
    expect(imports).toEqual([
      { name: 'shop-logs', at: 'Resources.P.Properties.Value' },
      { name: 'shop-arn', at: 'Resources.R.Properties.Value["Fn::Join"][1][0]' },
    ]);
  });
});
