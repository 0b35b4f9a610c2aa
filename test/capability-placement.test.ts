/**
 * Where a capability may be created: in a `CapabilityApp`, whose synth writes each capability's cloud assembly,
 * checks and plan.json. A plain cdk8s `App` would write the charts' YAML alone and drop the stacks without a word;
 * an aws-cdk `App` or `Stage`, or another capability, would throw aws-cdk's uncoded
 * `OutdirCannotBeSpecifiedForNestedStage`. Each is refused with one coded CAP015 as the capability is created.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as cdk from 'aws-cdk-lib';
import { App } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, CompositionError } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';
import * as runtime from '../src/runtime';

afterAll(removeTempDirs);

/** The violations of the refusal `make` throws, each as `<code> <message>`; fails unless it is a CompositionError. */
function refusalsOf(make: () => unknown): string[] {
  const error = thrownBy(make);
  expect(CompositionError.isCompositionError(error)).toBe(true);
  return (error as CompositionError).violations.map((v) => `${v.code} ${v.message}`);
}

const PLAIN_CDK8S = "CAP015 misplaced construct: Capability 'web' is created in a plain cdk8s App, whose synth writes the charts' YAML alone: ";
const NEW_APP = "Create the app with new CapabilityApp() (cdk8s' App, with the same props).";

describe('a capability under a plain cdk8s App', () => {
  test('a Capability that takes stacks is refused as it is created, naming what the App would drop and the fix', () => {
    // GIVEN
    const outdir = path.join(tempDir(), 'dist');
    const app = new App({ outdir });

    // THEN
    expect(refusalsOf(() => new Capability(app, 'web'))).toEqual([
      `${PLAIN_CDK8S}its stacks (no cloud assembly is written), its checks and plan.json would be dropped without a word. ${NEW_APP}`,
    ]);
    expect(app.node.children).toEqual([]);
    expect(fs.existsSync(outdir)).toBe(false);
  });

  test('a runtime-only Capability is refused the same way, since the App would skip its checks and plan.json', () => {
    expect(refusalsOf(() => new runtime.Capability(new App({ outdir: path.join(tempDir(), 'dist') }), 'web'))).toEqual([
      `${PLAIN_CDK8S}its checks, plan.json and the apply order would be dropped without a word. ${NEW_APP}`,
    ]);
  });

  test('a capability under a construct under the plain App is refused the same way, naming its path', () => {
    const group = new Construct(new App({ outdir: path.join(tempDir(), 'dist') }), 'group');
    expect(refusalsOf(() => new Capability(group, 'web'))[0]).toMatch(/^CAP015 misplaced construct: Capability 'group\/web' is created in a plain cdk8s App,/);
  });
});

describe('a capability under aws-cdk', () => {
  const ADOPT = "Create the app with new CapabilityApp() (cdk8s' App props), the capability under it, and the aws-cdk app's stacks under the capability (docs/adoption.md, section 5).";

  test('a Capability in an aws-cdk App is refused with CAP015, not aws-cdk\'s OutdirCannotBeSpecifiedForNestedStage', () => {
    expect(refusalsOf(() => new Capability(new cdk.App({ outdir: path.join(tempDir(), 'cdk.out') }), 'web'))).toEqual([
      "CAP015 misplaced construct: Capability 'web' is created in an aws-cdk App, but a Capability is created in a CapabilityApp (cdk8s' App), "
        + `whose synth writes each capability's cloud assembly beside its charts. ${ADOPT}`,
    ]);
  });

  test('a Capability in a Stage of an aws-cdk App is refused naming the Stage', () => {
    const stage = new cdk.Stage(new cdk.App({ outdir: path.join(tempDir(), 'cdk.out') }), 'prod');
    expect(refusalsOf(() => new Capability(stage, 'web'))).toEqual([
      "CAP015 misplaced construct: Capability 'prod/web' is created in the aws-cdk Stage 'prod', but a Capability is created in a CapabilityApp (cdk8s' App), "
        + `whose synth writes each capability's cloud assembly beside its charts. ${ADOPT}`,
    ]);
  });

  test('a Capability in an aws-cdk Stage under a CapabilityApp is refused: a Capability is itself the Stage', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const stage = new cdk.Stage(app as unknown as Construct, 'prod');
    expect(refusalsOf(() => new Capability(stage, 'web'))).toEqual([
      "CAP015 misplaced construct: Capability 'prod/web' is created in the aws-cdk Stage 'prod', but a Capability is itself a Stage, created in the CapabilityApp. "
        + "Create it with the CapabilityApp as scope (new Capability(app, 'web')), and the Stage's stacks under it.",
    ]);
  });
});

describe('a capability inside another capability', () => {
  test.each([
    ['Capability', (app: CapabilityApp) => new Capability(new Capability(app, 'shop'), 'web')],
    ['runtime-only Capability', (app: CapabilityApp) => new runtime.Capability(new runtime.Capability(app, 'shop'), 'web')],
  ])('a %s in a capability is refused: capabilities do not nest', (_kind, make) => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    expect(refusalsOf(() => make(app))).toEqual([
      "CAP015 misplaced construct: Capability 'shop/web' is created inside the capability 'shop', but capabilities do not nest. "
        + "Create it beside that one, with the CapabilityApp as scope (new Capability(app, 'web')).",
    ]);
  });
});

describe('where a capability is accepted', () => {
  test('under a CapabilityApp, directly or under a plain construct', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    expect(new Capability(app, 'web').node.path).toBe('web');
    expect(new Capability(new Construct(app, 'group'), 'api').node.path).toBe('group/api');
  });

  test('under a bare construct, whose program synthesizes the capability itself (nothing is dropped unseen)', () => {
    expect(new runtime.Capability(new Construct(undefined as any, 'root'), 'web').node.path).toBe('root/web');
  });
});
