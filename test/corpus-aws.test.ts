import * as fs from 'fs';
import * as path from 'path';
import * as cdk from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Construct } from 'constructs';
import { Capability, CapabilityApp } from '../src';
import { SynthesisResult } from '../src/app/synthesize';
import { DemoCloudfrontFunctionsStack } from './fixtures/corpus/aws-cdk/cloudfront-functions/lib/demo-cloudfront-functions-stack';
import { DemoCloudfrontFunctionsStack as PortedCloudfrontFunctions } from './fixtures/corpus/aws-cdk/cloudfront-functions/ported/lib/demo-cloudfront-functions-stack';
import { MyStack } from './fixtures/corpus/aws-cdk/custom-logical-names';
import { MyStack as PortedMyStack } from './fixtures/corpus/aws-cdk/custom-logical-names/ported';
import { DdbStreamStack } from './fixtures/corpus/aws-cdk/ddb-stream-lambda-sns/lib/ddb-stream-stack';
import { DdbStreamStack as PortedDdbStream } from './fixtures/corpus/aws-cdk/ddb-stream-lambda-sns/ported/lib/ddb-stream-stack';
import { LambdaCronStack } from './fixtures/corpus/aws-cdk/lambda-cron';
import { LambdaCronStack as PortedLambdaCron } from './fixtures/corpus/aws-cdk/lambda-cron/ported';
import { MyWidgetServiceStack } from './fixtures/corpus/aws-cdk/my-widget-service';
import { MyWidgetServiceStack as PortedWidgetService } from './fixtures/corpus/aws-cdk/my-widget-service/ported';
import { ResourceOverridesExample } from './fixtures/corpus/aws-cdk/resource-overrides';
import { ResourceOverridesExample as PortedResourceOverrides } from './fixtures/corpus/aws-cdk/resource-overrides/ported';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

type StackClass = new (scope: Construct, id: string, props?: cdk.StackProps) => cdk.Stack;

/** One upstream example (test/fixtures/corpus/README.md): its folder, its stack class, the id its program gives it, its ported class. */
interface Example {
  readonly name: string;
  readonly plain: StackClass;
  readonly id: string;
  readonly ported: StackClass;
  /** `--context` values the example's README passes on the aws-cdk command line (through `CDK_CONTEXT_JSON`). */
  readonly cliContext?: Record<string, string>;
  /** Whether aws-cdk derives no template value from the whole construct path (`Names.nodeUniqueId`, `node.addr`), so the stack under a Stage gives the template it gives under the App itself. */
  readonly pathFree?: boolean;
}

// lambda-cron, resource-overrides and my-widget-service type their scope as `cdk.App` (what their programs pass); run in a Stage or a
// capability they work unchanged, and their ported copies type it `Construct`.
const EXAMPLES: readonly Example[] = [
  { name: 'lambda-cron', plain: LambdaCronStack as unknown as StackClass, id: 'LambdaCronExample', ported: PortedLambdaCron },
  { name: 'custom-logical-names', plain: MyStack, id: 'MyStack', ported: PortedMyStack, cliContext: { prefix: 'PREFIX' }, pathFree: true },
  { name: 'my-widget-service', plain: MyWidgetServiceStack as unknown as StackClass, id: 'MyWidgetServiceStack', ported: PortedWidgetService },
  { name: 'cloudfront-functions', plain: DemoCloudfrontFunctionsStack, id: 'DemoCloudfrontFunctionsStack', ported: PortedCloudfrontFunctions },
  { name: 'ddb-stream-lambda-sns', plain: DdbStreamStack, id: 'DdbStreamStack', ported: PortedDdbStream },
];

const CORPUS = path.join(__dirname, 'fixtures', 'corpus', 'aws-cdk');

/**
 * Runs `build` in the example's folder with `CDK_CONTEXT_JSON` as the aws-cdk CLI would set it there (the
 * context of its cdk.json and the `--context` values), or unset (`cdkCli: false`: the program reads cdk.json
 * itself, as under `cdk8s synth`). The examples read their files relative to the working directory.
 */
function inExample<T>(example: Example, cdkCli: boolean, build: () => T): T {
  const dir = path.join(CORPUS, example.name);
  const before = { cwd: process.cwd(), context: process.env.CDK_CONTEXT_JSON };
  const cdkJson = JSON.parse(fs.readFileSync(path.join(dir, 'cdk.json'), 'utf-8'));
  process.chdir(dir);
  if (cdkCli) process.env.CDK_CONTEXT_JSON = JSON.stringify({ ...cdkJson.context, ...example.cliContext });
  else delete process.env.CDK_CONTEXT_JSON;
  try {
    return build();
  } finally {
    process.chdir(before.cwd);
    if (before.context === undefined) delete process.env.CDK_CONTEXT_JSON;
    else process.env.CDK_CONTEXT_JSON = before.context;
  }
}

/** What one example gives in each form, synthesized once and shared by its tests. */
interface Forms {
  /** The templates plain aws-cdk gives, by stack name: the stack under the App itself, as the example's program has it. */
  readonly plain: Record<string, unknown>;
  /**
   * The templates plain aws-cdk gives for the stack in a Stage whose id is the capability's ("shop") and whose
   * stageName is empty (no stack name prefix, `prefixStackNames: false`), as a
   * capability holds it: the values aws-cdk derives from the whole construct path include that id.
   */
  readonly plainInStage: Record<string, unknown>;
  /** The unchanged stack class placed in capability "shop", and the ported class (`extends SharedBase`). */
  readonly placed: SynthesisResult;
  readonly ported: SynthesisResult;
}

function inCapability(example: Example, StackOf: StackClass): SynthesisResult {
  const app = inExample(example, example.cliContext !== undefined, () => {
    const capabilityApp = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    new StackOf(new Capability(capabilityApp, 'shop', { prefixStackNames: false }), example.id, {});
    return capabilityApp;
  });
  return app.synthesize();
}

/** The templates of a plain aws-cdk App whose program puts the example's stack in `scope(app)`, by stack name. */
function plainTemplates(example: Example, scope: (app: cdk.App) => Construct): Record<string, unknown> {
  const stack = inExample(example, true, () => new example.plain(scope(new cdk.App({ outdir: tempDir() })), example.id, {}));
  return { [stack.stackName]: Template.fromStack(stack).toJSON() };
}

function synthesizeForms(example: Example): Forms {
  return {
    plain: plainTemplates(example, (app) => app),
    plainInStage: plainTemplates(example, (app) => new cdk.Stage(app, 'shop', { stageName: '' })),
    placed: inCapability(example, example.plain),
    ported: inCapability(example, example.ported),
  };
}

const codes = (result: SynthesisResult): string[] => result.violations.map((v) => `${v.code} ${v.message}`);
/** The templates the capability app synthesized, by stack name. */
function templates(result: SynthesisResult): Record<string, unknown> {
  return Object.fromEntries((result.facts?.stacks ?? []).map((s) => [s.stackName, s.template]));
}

describe.each(EXAMPLES)('the aws-cdk example $name, plain and in a capability', (example) => {
  let forms: Forms;
  beforeAll(() => {
    forms = synthesizeForms(example);
  });

  test('placed in a capability unchanged: accepted, with the CloudFormation templates plain aws-cdk gives in a Stage with the same context', () => {
    expect(codes(forms.placed)).toEqual([]);
    expect(templates(forms.placed)).toEqual(forms.plainInStage);
  });

  test('ported into SharedBase: accepted, with the CloudFormation templates plain aws-cdk gives in a Stage with the same context', () => {
    expect(codes(forms.ported)).toEqual([]);
    expect(templates(forms.ported)).toEqual(forms.plainInStage);
  });

  if (example.name === 'lambda-cron') {
    test('ported: the cdk.json feature flags reach the stack (the function\'s LogGroup of @aws-cdk/aws-lambda:useCdkManagedLogGroup)', () => {
      const template = Template.fromJSON(templates(forms.ported).LambdaCronExample as Record<string, unknown>);
      template.resourceCountIs('AWS::Logs::LogGroup', 1);
    });
  }

  if (example.pathFree) {
    test('ported: the very templates the example\'s own program gives (no value derived from the construct path)', () => {
      expect(templates(forms.ported)).toEqual(forms.plain);
    });
  }
});

describe('the aws-cdk example resource-overrides, plain and in a capability', () => {
  const example: Example = { name: 'resource-overrides', plain: ResourceOverridesExample as unknown as StackClass, id: 'resource-overrides', ported: PortedResourceOverrides };
  let forms: Forms;
  beforeAll(() => {
    forms = synthesizeForms(example);
  });

  test.each(['placed', 'ported'] as const)('%s: the CloudFormation templates plain aws-cdk gives in a Stage with the same context, every override applied', (form) => {
    expect(templates(forms[form])).toEqual(forms.plainInStage);
  });

  test.each([['placed', 'index.ts'], ['ported', 'ported/index.ts']] as const)(
    '%s: accepted, each override of the bucket\'s own values in the plan, the deletion of CorsConfiguration.Bar over the addOverride that set it and of the Metadata its cfnOptions set among them',
    (form, file) => {
      const at = (line: number) => `test/fixtures/corpus/aws-cdk/resource-overrides/${file}:${line + (form === 'ported' ? 3 : 0)}`;
      const object = 'AWS::S3::Bucket shop/resource-overrides/MyBucket/Resource';
      const by = (api: string, line: number) => `shop/resource-overrides/MyBucket/Resource (${api} at ${at(line)})`;
      expect(codes(forms[form])).toEqual([]);
      expect(forms[form].plan!.ownership!.overrides).toEqual([
        { object, field: 'BucketEncryption.ServerSideEncryptionConfiguration["0"].EncryptEverythingAndAlways', by: by('addPropertyOverride', 27), patched: true },
        { object, field: 'BucketEncryption.ServerSideEncryptionConfiguration["0"].ServerSideEncryptionByDefault', by: by('addPropertyDeletionOverride', 28), rendered: { SSEAlgorithm: 'aws:kms' } },
        { object, field: 'CorsConfiguration.Bar', by: by('addPropertyDeletionOverride', 97), over: by('addOverride', 56), rendered: ['A', 'B'] },
        { object, field: 'VersioningConfiguration.Status', by: by('addPropertyOverride', 62), rendered: 'Enabled', patched: 'NewStatus' },
        { object: `${object} (resource attributes)`, field: 'Metadata', by: by('addDeletionOverride', 96), rendered: { MetadataKey: 'MetadataValue' } },
      ]);
    },
  );

  test('plain aws-cdk deep-merges its two CorsConfiguration overrides: the object the first sets keeps its keys beside the rules the second adds', () => {
    // addOverride('Properties.CorsConfiguration', { Custom, Bar }), addPropertyOverride('CorsConfiguration.CorsRules', ...),
    // addPropertyDeletionOverride('CorsConfiguration.Bar'): the rules are a leaf the first override never wrote.
    Template.fromJSON(forms.plainInStage['resource-overrides'] as Record<string, unknown>).hasResource('AWS::S3::Bucketeer', {
      Transform: 'Boom',
      Properties: { CorsConfiguration: { Custom: 123, Bar: Match.absent(), CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] }, VersioningConfiguration: { Status: 'NewStatus' } },
    });
  });
});
