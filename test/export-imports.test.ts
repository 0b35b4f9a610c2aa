/**
 * A stack that imports another stack's export by name (`Fn.importValue('acme-value')`) deploys after the stack
 * that exports it (a `CfnOutput` with that `exportName`), whatever order they were declared in: CloudFormation
 * refuses the importer while no stack exports the name (`No export named acme-value found`).
 */
import * as fs from 'fs';
import { CfnOutput, Fn } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { newApp, removeTempDirs, stepIds } from './util';
import { formatPlan } from '../src/cli/format-plan';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

const SHARED_BASE_REASON = 'shared base before tenant aggregate';
const IMPORT_REASON = "export 'acme-value' (CfnOutput 'jobs/acme/Value') imported by 'jobs/globex/Reader/Resource'";

interface Variant {
  /** The name tenant globex imports; default `acme-value`. */
  readonly imports?: string;
  /** Tenant acme exports `acme-value`; default true. */
  readonly exports?: boolean;
  /** The shared base imports `acme-value` too. */
  readonly baseImports?: boolean;
  /** A second name tenant globex imports. */
  readonly alsoImports?: string;
}

/** Capability `jobs`: a shared base; tenant globex, declared first, reads an export of tenant acme, declared after it. */
function jobs(app: CapabilityApp, v: Variant = {}): void {
  const capability = new Capability(app, 'jobs');
  const base = new SharedBase(capability, 'Base');
  if (v.baseImports) new ssm.StringParameter(base, 'Reader', { stringValue: Fn.importValue('acme-value') });
  const globex = new DeploymentAggregate(capability, 'globex');
  new ssm.StringParameter(globex, 'Reader', { stringValue: Fn.importValue(v.imports ?? 'acme-value') });
  if (v.alsoImports) new ssm.StringParameter(globex, 'Queue', { stringValue: Fn.importValue(v.alsoImports) });
  const acme = new DeploymentAggregate(capability, 'acme');
  if (v.exports !== false) new CfnOutput(acme, 'Value', { value: 'v1', exportName: 'acme-value' });
  else new CfnOutput(acme, 'Value', { value: 'v1' });
}

describe('a stack that imports an export of another stack of the composition', () => {
  test('is deployed after the exporting stack, and plan.json says why', () => {
    // GIVEN globex, declared before acme, imports the export acme-value of acme
    const app = newApp();
    jobs(app);

    // WHEN synthesized and written
    const { violations, plan } = app.synthesize();
    app.synth();

    // THEN acme takes the step before globex, which waits for it for the export
    expect(violations).toEqual([]);
    expect(stepIds(plan)).toEqual(['jobs/Base', 'jobs/acme', 'jobs/globex']);
    const expected = [{ step: 'jobs/Base', reasons: [SHARED_BASE_REASON] }, { step: 'jobs/acme', reasons: [IMPORT_REASON] }];
    expect(plan!.steps[2].dependsOn).toEqual(expected);
    const written = JSON.parse(fs.readFileSync(`${app.outdir}/plan.json`, 'utf-8'));
    expect(written.steps.map((s: { id: string }) => s.id)).toEqual(['jobs/Base', 'jobs/acme', 'jobs/globex']);
    expect(written.steps[2].dependsOn).toEqual(expected);
  });

  test('the text plan names the export on the importer\'s step', () => {
    const app = newApp();
    jobs(app);

    const { plan } = app.synthesize();

    const lines = formatPlan(plan!).split('\n');
    const step = lines.findIndex((l) => l.startsWith('  3. deploy  jobs/globex '));
    expect(lines.slice(step + 1, step + 3)).toEqual([
      '       after jobs/Base: shared base before tenant aggregate',
      `       after jobs/acme: ${IMPORT_REASON}`,
    ]);
  });

  test('is ordered by the templates as synthesized: the import and the export are the literal name', () => {
    const app = newApp();
    jobs(app);

    const { facts, plan } = app.synthesize();

    const template = (path: string) => Template.fromJSON(facts!.stacks.find((s) => s.path === path)!.template);
    template('jobs/acme').hasOutput('Value', { Value: 'v1', Export: { Name: 'acme-value' } });
    template('jobs/globex').hasResourceProperties('AWS::SSM::Parameter', { Value: { 'Fn::ImportValue': 'acme-value' } });
    expect(stepIds(plan)).toEqual(['jobs/Base', 'jobs/acme', 'jobs/globex']);
  });

  test('that closes a cycle is a CAP004 cycle naming the export', () => {
    // GIVEN the shared base, which every tenant waits for, imports acme's export too
    const app = newApp();
    jobs(app, { baseImports: true });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP004 names both dependencies, the import by its export
    expect(coded(violations)).toEqual([{
      code: 'CAP004',
      message: 'dependency cycle: jobs/Base => jobs/acme => jobs/Base (jobs/Base => jobs/acme: '
        + "export 'acme-value' (CfnOutput 'jobs/acme/Value') imported by 'jobs/Base/Reader/Resource'; jobs/acme => jobs/Base: shared base before tenant aggregate). "
        + 'Remove one of these dependencies (addDependency, or the reference that implies it).',
      paths: ['jobs/Base', 'jobs/acme'],
    }]);
  });
});

describe('an import of a name no stack of the composition exports', () => {
  test('one or two edits from an export of the composition is a CAP005 warning naming the export meant; one far from all is not', () => {
    // GIVEN globex imports acme-valeu, while acme exports acme-value, and billing-queue-arn, which may be exported elsewhere
    const app = newApp();
    jobs(app, { imports: 'acme-valeu', alsoImports: 'billing-queue-arn' });

    // WHEN synthesized
    const { violations, warnings, plan } = app.synthesize();

    // THEN accepted, with one warning, for the near miss alone; neither import orders globex
    expect(violations).toEqual([]);
    expect(coded(warnings)).toEqual([{
      code: 'CAP005',
      message: "dangling reference: stack 'jobs/globex' imports the export 'acme-valeu' (Fn::ImportValue in 'jobs/globex/Reader'), which no stack of the composition exports; "
        + "did you mean 'acme-value', exported by stack 'jobs/acme' (Outputs.Value)? CloudFormation refuses the stack at deploy unless a stack outside the composition "
        + "exports 'acme-valeu'. Fix the name in Fn.importValue, or keep it when that export lives outside the composition.",
      paths: ['jobs/acme', 'jobs/globex'],
    }]);
    expect(plan!.steps.find((s) => s.id === 'jobs/globex')!.dependsOn).toEqual([{ step: 'jobs/Base', reasons: [SHARED_BASE_REASON] }]);
  });
});

describe('CAP008 with the import\'s dependency in the lock', () => {
  test('removing the export while the importer remains is still refused, naming the export', () => {
    // GIVEN the real lock of a release where globex imports acme-value from acme, and waits for it
    const series = lockedSeries(jobs, {});
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    expect(JSON.stringify(lock)).toContain(JSON.stringify(IMPORT_REASON));

    // WHEN the next release drops the export (and globex its import: it must import something, so another name)
    const { violations } = nextRelease(series, jobs, { exports: false, imports: 'billing-queue-arn' });

    // THEN one CAP008 names the export, both stacks and the way out
    expect(coded(violations)).toEqual([{
      code: 'CAP008',
      message: "unsafe deletion: this release removes export 'acme-value' of stack jobs/acme, but stack jobs/globex remains and it imported it in the locked release (Resources.ReaderF7BF189D.Properties.Value). "
        + 'CloudFormation refuses to delete an export that a stack imports, and the version of stack jobs/globex in the cloud imports it until that stack\'s own update, '
        + 'which aws-cdk deploys after stack jobs/acme while it depends on it: removing the import in this release too is not enough. '
        + 'Keep the export one more release with this.exportValue(...) on stack jobs/acme (aws-cdk\'s way to keep an export while its importers stop using it), deploy, and remove it in the next release.',
      paths: ['jobs/acme', 'jobs/globex'],
    }]);
  });
});
