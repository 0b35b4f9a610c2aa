/**
 * A stack dependency made with `node.addDependency` is one edge of the plan, the explicit one with its call
 * site: the stack dependency aws-cdk adds to the cloud assembly for it is the same dependency, not a second
 * reason beside it.
 */
import * as fs from 'fs';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Capability, DeploymentAggregate, SharedBase } from '../src';
import { newApp, removeTempDirs, siteOfNextLine } from './util';

afterAll(removeTempDirs);

const SHARED_BASE_REASON = 'shared base before tenant aggregate';
const EXPLICIT_REASON = 'explicit dependency (addDependency)';

/** Capability `cdn` with a shared base and tenants acme and globex. */
function fixture() {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  new SharedBase(cdn, 'Base');
  return { app, acme: new DeploymentAggregate(cdn, 'acme'), globex: new DeploymentAggregate(cdn, 'globex') };
}

describe('a stack dependency made with node.addDependency', () => {
  test('is shown once in plan.json, as the explicit dependency, and the graph names it by its call site', () => {
    // GIVEN globex made to wait for acme at the constructs level
    const { app, acme, globex } = fixture();
    const site = siteOfNextLine();
    globex.node.addDependency(acme);

    // WHEN synthesized and written
    const { violations, plan, facts } = app.synthesize();
    app.synth();

    // THEN one reason, in the plan and in plan.json on disk, and one edge with the call
    expect(violations).toEqual([]);
    const expected = [{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }, { step: 'cdn/acme', reasons: [EXPLICIT_REASON] }];
    expect(plan!.steps[2].dependsOn).toEqual(expected);
    const written = JSON.parse(fs.readFileSync(`${app.outdir}/plan.json`, 'utf-8'));
    expect(written.steps.find((s: { id: string }) => s.id === 'cdn/globex').dependsOn).toEqual(expected);
    const graph = facts!.graph;
    expect([...graph.edges()].filter((e) => graph.label(e.from) === 'cdn/acme' && graph.label(e.to) === 'cdn/globex').map((e) => [e.reason, e.origin])).toEqual([
      [EXPLICIT_REASON, `'cdn/globex'.addDependency('cdn/acme') at ${site}`],
    ]);
  });

  test('between constructs of the stacks is shown once too, named by that call', () => {
    const { app, acme, globex } = fixture();
    const origin = new ssm.StringParameter(acme, 'Origin', { stringValue: 'acme.example.com' });
    const copy = new ssm.StringParameter(globex, 'Copy', { stringValue: 'globex.example.com' });
    const site = siteOfNextLine();
    copy.node.addDependency(origin);

    const { violations, plan, facts } = app.synthesize();

    expect(violations).toEqual([]);
    expect(plan!.steps[2].dependsOn).toEqual([{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }, { step: 'cdn/acme', reasons: [EXPLICIT_REASON] }]);
    const graph = facts!.graph;
    expect([...graph.edges()].filter((e) => graph.label(e.from) === 'cdn/acme' && graph.label(e.to) === 'cdn/globex').map((e) => [e.reason, e.origin])).toEqual([
      [EXPLICIT_REASON, `'cdn/globex/Copy'.addDependency('cdn/acme/Origin') at ${site}`],
    ]);
  });

  test('beside a cross-stack reference between the same stacks keeps the reference\'s edge, which names another cause', () => {
    const { app, acme, globex } = fixture();
    const origin = new ssm.StringParameter(acme, 'Origin', { stringValue: 'acme.example.com' });
    new ssm.StringParameter(globex, 'Copy', { stringValue: origin.stringValue });
    globex.node.addDependency(acme);

    const { plan } = app.synthesize();

    expect(plan!.steps[2].dependsOn).toEqual([
      { step: 'cdn/Base', reasons: [SHARED_BASE_REASON] },
      { step: 'cdn/acme', reasons: [EXPLICIT_REASON, 'stack dependency (cloud assembly), cdn/globex -> cdn/acme/Origin/Resource.Value'] },
    ]);
  });
});
