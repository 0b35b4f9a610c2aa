/**
 * aws-cdk's own error text, and a validation the program added, used to be passed through as the whole finding:
 * no fix, and a program's own check read as one of cdk-capability's. Each now says whose words they are, quotes
 * them, and ends with the fix.
 */
import * as path from 'path';
import * as cdk from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting, SharedBase } from '../src';
import { dependencyCycles } from '../src/check/rules/dependency-cycles';

afterAll(removeTempDirs);

function shop(): { app: CapabilityApp; shop: Capability } {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  return { app, shop: new Capability(app, 'shop') };
}
const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
const PLAN_NAMES_IT = '(cdk-capability plan, and its --format github and sarif, name the line that created it)';

describe("a validation that is not cdk-capability's says whose it is, and the fix", () => {
  test("the program's own node.addValidation on its own construct: quoted as the program's check, with the fix", () => {
    // GIVEN a construct of the program's own class that validates itself
    const { app, shop: s } = shop();
    class Replicas extends Construct {
      constructor(scope: Construct, id: string) {
        super(scope, id);
        this.node.addValidation({ validate: () => ['the replicas must be at least 2.'] });
      }
    }
    new Replicas(new RuntimeRouting(s, 'Routing'), 'Web');

    // WHEN synthesized, THEN its message is quoted as the program's, with where and how to fix it
    expect(messages(app)).toEqual([
      "CAP010 invalid object: 'shop/Routing/Web' failed a validation the program added to it (node.addValidation): \"the replicas must be at least 2\". "
      + `This is the program's own check, not one of cdk-capability's: fix what it says at 'shop/Routing/Web' ${PLAN_NAMES_IT}, or change the check if it no longer holds.`,
    ]);
  });

  test("a validation on an aws-cdk construct: named with its class, aws-cdk-lib's check or the program's, with the fix", () => {
    const { app, shop: s } = shop();
    const bucket = new s3.Bucket(new SharedBase(s, 'Base'), 'Assets');
    bucket.node.addValidation({ validate: () => ['the bucket must be versioned'] });

    expect(messages(app)).toEqual([
      "CAP010 invalid object: 'shop/Base/Assets' (aws-cdk-lib.aws_s3.Bucket) failed its own validation: \"the bucket must be versioned\". "
      + "This is aws-cdk-lib's check of the construct (or one the program added to it with node.addValidation), not one of cdk-capability's: "
      + `fix what it says in the props or the use of 'shop/Base/Assets' ${PLAN_NAMES_IT}.`,
    ]);
  });
});

describe("an aws-cdk synthesis error no rule knows: aws-cdk's words quoted, then the fix", () => {
  test('a Lazy whose produce function throws: a value aws-cdk could not resolve, and where the known fixes are', () => {
    const { app, shop: s } = shop();
    new cdk.CfnOutput(new SharedBase(s, 'Base'), 'Origin', { value: cdk.Lazy.string({ produce: () => { throw new Error('no origin yet'); } }) });

    expect(messages(app)).toEqual([
      "CAP010 invalid object: the stacks of capability 'shop' could not be synthesized: aws-cdk says \"Resolution error: no origin yet\". "
      + "aws-cdk could not resolve a value of the stacks of capability 'shop' (a Lazy, a token or an override): fix the value it names, such as a Lazy whose produce function throws or returns nothing. "
      + 'docs/errors.md, "CAP010 invalid object", lists the aws-cdk errors cdk-capability knows a fix for.',
    ]);
  });

  test('an override that holds itself: the resource named by its path, the repeated key said once, and the fix', () => {
    const { app, shop: s } = shop();
    const loop: Record<string, unknown> = { mode: 'fast' };
    loop.again = loop;
    new ssm.CfnParameter(new SharedBase(s, 'Base'), 'Origin', { type: 'String', value: 'x' }).addPropertyOverride('Value', loop);

    expect(messages(app)).toEqual([
      "CAP010 invalid object: the stacks of capability 'shop' could not be synthesized: aws-cdk says \"Resolution error: Unable to resolve object tree with circular reference. "
      + "Path: /Resources/<resource 'shop/Base/Origin'>/Properties/Value/again (repeated 197 times)\". "
      + 'A value in the template holds itself (a map or list inside itself), which has no form in JSON: give a copy of it without the key that holds it (in the props or the override of the resource it names).',
    ]);
  });

  test("a generated L1's props of the wrong type: the class named, and the fix", () => {
    const { app, shop: s } = shop();
    new ssm.CfnParameter(new SharedBase(s, 'Base'), 'Origin', { type: 'String', value: 5n as unknown as string });

    expect(messages(app)).toEqual([
      "CAP010 invalid object: the stacks of capability 'shop' could not be synthesized: aws-cdk says \"Resolution error: Supplied properties not correct for \"CfnParameterProps\"\n  value: {} should be a string\". "
      + 'The props of a CfnParameter (an L1 of aws-cdk-lib) are not of the types it takes: give each field it names a value of that type (as a string where it says "should be a string").',
    ]);
  });
});

describe('a cycle of stacks aws-cdk reports in its own words', () => {
  test("aws-cdk's text quoted, then how to break the cycle", () => {
    // GIVEN the facts of a synth whose stacks aws-cdk refused as a cycle no other check named
    const error = "'shop/acme' depends on 'shop/beta' (shop/acme -> shop/beta/P.Ref). Adding this dependency (shop/beta -> shop/acme/Q.Ref) would create a cyclic reference.";
    const facts = {
      graph: { sort: () => ({ cycles: [], cycleEdges: [] }) },
      problems: { selfDependencies: [], wiringErrors: [], stackCycles: [], synthesisErrors: [{ capability: 'shop', error }] },
    };

    // WHEN the rule runs
    const found = dependencyCycles.run({ facts, claims: [] } as any);

    // THEN
    expect(found.map((f) => `${f.code} ${f.message}`)).toEqual([
      `CAP004 dependency cycle: the stacks of capability 'shop' could not be synthesized: aws-cdk says "${error.slice(0, -1)}". `
      + "Its stacks depend on each other in a cycle, so none can deploy first: remove one of the dependencies it names (a stack's addDependency, or a reference from one stack to a value of the other, which makes one); "
      + 'pass such a value through an InterfaceContract, or an SSM parameter read by its name, to keep it without the dependency.',
    ]);
  });
});
