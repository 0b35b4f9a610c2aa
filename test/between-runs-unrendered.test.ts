/**
 * A policy declared empty, which a write callback fills, cannot be rendered strictly before the callbacks run (an
 * IAM policy with no statement: aws-cdk refuses CfnPolicy props without a policyDocument). It is rendered without
 * the properties it lacks instead, so it is watched from before all callbacks, as a policy declared with a
 * statement is: what another callback does to it before its own callback runs is that callback's, and is judged as
 * there (a statement added is a grant; any other change, such as attaching the policy to a role, CAP010). So is
 * what a callback does to such a policy that no callback targets (`OutsideWrites`).
 */
import { Tags } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as kplus from 'cdk8s-plus-30';
import { fixture } from './write-fixtures';
import { CapabilityApp, CapabilityTesting, Contribution } from '../src';
import { formatPath } from '../src/collect/ledger/field-path';
import { writerName } from '../src/collect/ledger/writer';

const POLICY = 'AWS::IAM::Policy cdn/Base/Storage/Empty/Resource';
const statement = (action: string) => new iam.PolicyStatement({ actions: [action], resources: ['*'] });
const key = (action: string) => `PolicyDocument.Statement[={"Action":"${action}","Effect":"Allow","Resource":"*"}]`;

/** The policy's writes, by writer name and path. */
function policyWrites(app: CapabilityApp) {
  const policy = app.synthesize().facts!.ledger.objects.find((o) => o.label === POLICY)!;
  return policy.writes.map((w) => [writerName(w.writer), formatPath(w.path)]);
}

const refusedB = (paths: string) =>
  `invalid object: Contribution '${paths}': its write callback changed the resource 'cdn/Base/Storage/Empty/Resource', which is not its target, so what it wrote there would be taken for its declarer's and could replace a value the declarer set without a conflict. ` +
  'A callback may add statements to a policy that exists (a grant): each is its own write; it may not change or remove the statements already there, or the policy\'s other properties. Make only the grant in the callback, or write the policy where it is declared.';

/**
 * GIVEN: the policy `Empty` (declared with `declared` statements, attached to a role when `attached`), a bucket X;
 * the callbacks `before` (targets X, run first), then A, which adds its statement to the policy.
 */
type Before = Record<string, (policy: iam.Policy, role: iam.Role, x: s3.Bucket) => void>;
function policyFilledByA(before: Before, { declared = [] as string[], attached = false } = {}) {
  const { app, security, storage } = fixture();
  const role = new iam.Role(storage, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const policy = new iam.Policy(storage, 'Empty', { statements: declared.map(statement), ...(attached ? { roles: [role] } : {}) });
  const x = new s3.Bucket(storage, 'X');
  for (const [id, write] of Object.entries(before)) new Contribution(security, id, { target: x, write: (b) => write(policy, role, b) });
  new Contribution(security, 'A', { target: policy, write: (p) => p.addStatements(statement('s3:GetObject')) });
  return app;
}

/** B attaches the policy to the role and adds a statement to it. */
const attachAndGrant: Before = { B: (p, role) => { p.attachToRole(role); p.addStatements(statement('sqs:SendMessage')); } };

describe('a policy declared empty, changed by another callback before its own callback runs', () => {

  test('attaching it to a role there is refused naming that callback, as for a policy declared with a statement, not a CAP002 of A and the declarer', () => {
    // WHEN B attaches the empty policy to a role and adds a statement, then A fills it
    const violations = CapabilityTesting.synth(policyFilledByA(attachAndGrant)).violations;

    // THEN B is refused for changing Roles of a policy it does not target
    expect(violations).toEqual([{ code: 'CAP010', message: refusedB('cdn/Base/Security/B'), paths: ['cdn/Base/Security/B'] }]);
    expect(CapabilityTesting.synth(policyFilledByA(attachAndGrant, { declared: ['sns:Publish'] })).violations).toEqual(violations);
  });

  test('a statement it adds there is its grant, and the declarer keeps its role and name', () => {
    // WHEN B only adds a statement to the empty policy its declarer attached to a role, then A adds its own
    const app = policyFilledByA({ B: (p) => p.addStatements(statement('sqs:SendMessage')) }, { attached: true });

    // THEN each statement is its adder's, and the synth is accepted
    expect(policyWrites(app)).toEqual([
      ['cdn/Base/Storage/Empty', 'PolicyDocument.Version'],
      ['cdn/Base/Storage/Empty', 'PolicyName'],
      ['cdn/Base/Storage/Empty', 'Roles'],
      ['cdn/Base/Security/B', key('sqs:SendMessage')],
      ['cdn/Base/Security/A', key('s3:GetObject')],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });

  test('a callback that does nothing to it is credited with nothing there', () => {
    // WHEN B only tags its own bucket, then A fills the empty policy
    const app = policyFilledByA({ B: (_p, _r, x) => Tags.of(x).add('owner', 'b') }, { attached: true });

    // THEN A writes its statement, the declarer its name and role, B nothing
    expect(policyWrites(app)).toEqual([
      ['cdn/Base/Storage/Empty', 'PolicyName'],
      ['cdn/Base/Storage/Empty', 'Roles'],
      ['cdn/Base/Security/A', key('s3:GetObject')],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });

  test('two callbacks before it that both add a statement each write their own: a grant names its adder', () => {
    // WHEN B and C each add a statement to the empty policy before A adds its own
    const app = policyFilledByA({
      B: (p) => p.addStatements(statement('sqs:SendMessage')),
      C: (p) => p.addStatements(statement('sns:Publish')),
    }, { attached: true });

    // THEN each statement is its adder's
    expect(policyWrites(app)).toEqual([
      ['cdn/Base/Storage/Empty', 'PolicyDocument.Version'],
      ['cdn/Base/Storage/Empty', 'PolicyName'],
      ['cdn/Base/Storage/Empty', 'Roles'],
      ['cdn/Base/Security/B', key('sqs:SendMessage')],
      ['cdn/Base/Security/C', key('sns:Publish')],
      ['cdn/Base/Security/A', key('s3:GetObject')],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });

  test('two callbacks before it that both change it otherwise are refused together: which of them wrote what cannot be told', () => {
    // WHEN B attaches the empty policy to a role and C adds a statement, before A adds its own
    const app = policyFilledByA({ B: (p, role) => p.attachToRole(role), C: (p) => p.addStatements(statement('sns:Publish')) });

    // THEN one CAP010 names both
    expect(CapabilityTesting.synth(app).violations).toEqual([
      { code: 'CAP010', message: refusedB('cdn/Base/Security/B').replace('its write callback changed', 'one of the write callbacks of it and \'cdn/Base/Security/C\' changed'), paths: ['cdn/Base/Security/B', 'cdn/Base/Security/C'] },
    ]);
  });

  test('its own callback alone fills it: the statement is the callback\'s, not a refusal that it cannot be rendered', () => {
    // GIVEN the empty policy, attached to a role by its declarer, and A alone, which fills it
    const app = policyFilledByA({}, { attached: true });

    // THEN A writes its statement, and the synth is accepted
    expect(policyWrites(app)).toEqual([
      ['cdn/Base/Storage/Empty', 'PolicyName'],
      ['cdn/Base/Storage/Empty', 'Roles'],
      ['cdn/Base/Security/A', key('s3:GetObject')],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});

/**
 * GIVEN: the policy `Empty` (declared with `declared` statements, attached to a role when `attached`), which no
 * callback targets, and a bucket X; the callbacks `writers` target X, run in order, and may write the policy.
 */
function policyOfNoTarget(writers: Before, { declared = [] as string[], attached = false } = {}) {
  const { app, security, storage } = fixture();
  const role = new iam.Role(storage, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const policy = new iam.Policy(storage, 'Empty', { statements: declared.map(statement), ...(attached ? { roles: [role] } : {}) });
  const x = new s3.Bucket(storage, 'X');
  for (const [id, write] of Object.entries(writers)) new Contribution(security, id, { target: x, write: (b) => write(policy, role, b) });
  return app;
}

describe('a policy declared empty that no callback targets, changed by a callback on another target', () => {
  test('a statement the callback adds is its grant, and the declarer keeps its name and role', () => {
    // WHEN B, whose target is the bucket, adds a statement to the empty policy its declarer attached to a role
    const app = policyOfNoTarget({ B: (p) => p.addStatements(statement('sqs:SendMessage')) }, { attached: true });

    // THEN the statement is B's, the rest the declarer's, and the synth is accepted
    expect(policyWrites(app)).toEqual([
      ['cdn/Base/Storage/Empty', 'PolicyDocument.Version'],
      ['cdn/Base/Storage/Empty', 'PolicyName'],
      ['cdn/Base/Storage/Empty', 'Roles'],
      ['cdn/Base/Security/B', key('sqs:SendMessage')],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });

  test('two callbacks\' statements are each their adder\'s', () => {
    // WHEN B and C, whose target is the bucket, each add a statement to the empty policy
    const app = policyOfNoTarget({
      B: (p) => p.addStatements(statement('sqs:SendMessage')),
      C: (p) => p.addStatements(statement('sns:Publish')),
    }, { attached: true });

    // THEN
    expect(policyWrites(app)).toEqual([
      ['cdn/Base/Storage/Empty', 'PolicyDocument.Version'],
      ['cdn/Base/Storage/Empty', 'PolicyName'],
      ['cdn/Base/Storage/Empty', 'Roles'],
      ['cdn/Base/Security/B', key('sqs:SendMessage')],
      ['cdn/Base/Security/C', key('sns:Publish')],
    ]);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });

  test('attaching it to a role there is refused naming the callback, as for a policy declared with a statement', () => {
    // WHEN B attaches the empty policy to a role and adds a statement to it
    const violations = CapabilityTesting.synth(policyOfNoTarget(attachAndGrant)).violations;

    // THEN B is refused for changing Roles of a resource it does not target, as when the policy held a statement
    expect(violations).toEqual([{ code: 'CAP010', message: refusedB('cdn/Base/Security/B'), paths: ['cdn/Base/Security/B'] }]);
    expect(CapabilityTesting.synth(policyOfNoTarget(attachAndGrant, { declared: ['sns:Publish'] })).violations).toEqual(violations);
  });

  test('a callback that leaves it empty changes nothing there: no write, no refusal', () => {
    // WHEN B only tags its own bucket
    const app = policyOfNoTarget({ B: (_p, _r, x) => Tags.of(x).add('owner', 'b') }, { attached: true });

    // THEN the policy, seen without its document before the callbacks and after them, is unchanged: B writes its bucket alone
    const labels = app.synthesize().facts!.ledger.objects.map((o) => o.label);
    expect(labels).toContain('AWS::S3::Bucket cdn/Base/Storage/X/Resource');
    expect(labels).not.toContain(POLICY);
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});

describe('the Kubernetes analogue: a cdk8s-plus Deployment declared without a container', () => {
  // cdk8s-plus refuses to render it (no props validator to leave out: its `_toKube` throws), so there is no render
  // before the callbacks to compare with: what another callback writes into it before its own callback runs cannot
  // be told from its declarer's, and is refused.
  const WEB = 'cdn/Routing/Web/Resource';
  const unrendered = `Failed serializing construct at path '${WEB}' with name 'routing-web-c802ecf1': Error: PodSpec must have at least 1 container`;
  const refused = (which: string, noun: string) =>
    `invalid object: Contribution 'cdn/Routing/NetOp/B': ${which} changed '${WEB}' before the write callback of 'cdn/Routing/NetOp/A', whose target it is, ran; ` +
    `the object could not be rendered before the callbacks (${unrendered}), so what ${noun} wrote there cannot be told from what its declarer wrote, and would be taken for the declarer's. ` +
    'Give the declarer what the object needs to render (a cdk8s-plus workload its first container), then write into it with a Contribution whose target it is.';

  /** GIVEN: the Deployment Web (with `containers`), a ConfigMap; the callbacks `before` (target the ConfigMap), then A, which labels Web. */
  function webLabelledByA(before: Record<string, (web: kplus.Deployment) => void>, containers: kplus.ContainerProps[] = []) {
    const { app, routing, netOp } = fixture();
    const web = new kplus.Deployment(routing, 'Web', { containers });
    const cm = new kplus.ConfigMap(routing, 'Settings');
    for (const [id, write] of Object.entries(before)) new Contribution(netOp, id, { target: cm, write: () => write(web) });
    new Contribution(netOp, 'A', { target: web, write: (d: kplus.Deployment) => d.metadata.addLabel('team', 'a') });
    return app;
  }
  const addSidecar = (web: kplus.Deployment) => { web.addContainer({ name: 'sidecar', image: 'envoy' }); };

  test('a container another callback adds before its own callback runs is refused naming that callback, not taken for the declarer\'s', () => {
    // WHEN B, whose target is the ConfigMap, gives the Deployment its first container before A labels it
    const app = webLabelledByA({ B: addSidecar });

    // THEN B is refused, with the target, why it could not be rendered and the fix; a second synth says the same
    const expected = [{ code: 'CAP010', message: refused('its write callback', 'the callback'), paths: ['cdn/Routing/NetOp/B'] }];
    expect(CapabilityTesting.synth(app).violations).toEqual(expected);
    expect(CapabilityTesting.synth(app).violations).toEqual(expected);
  });

  test('when several callbacks ran before, all of them are named', () => {
    // WHEN B adds the first container and C does nothing to the Deployment, both before A
    const app = webLabelledByA({ B: addSidecar, C: () => undefined });

    // THEN one CAP010 names both
    expect(CapabilityTesting.synth(app).violations).toEqual([{
      code: 'CAP010',
      message: refused('one of the write callbacks of it and \'cdn/Routing/NetOp/C\'', 'the callbacks'),
      paths: ['cdn/Routing/NetOp/B', 'cdn/Routing/NetOp/C'],
    }]);
  });

  test('a callback before that leaves it without a container is not named: only its own callback is refused, as it cannot render it', () => {
    // WHEN B does nothing to the Deployment
    const violations = CapabilityTesting.synth(webLabelledByA({ B: () => undefined })).violations;

    // THEN A is refused, B is not
    expect(violations.map((v) => [v.code, v.paths])).toEqual([['CAP010', [WEB]], ['CAP010', ['cdn/Routing/NetOp/A']]]);
    expect(violations[1].message).toMatch(/^invalid object: Contribution 'cdn\/Routing\/NetOp\/A': its target 'cdn\/Routing\/Web\/Resource' cannot be rendered before the write callback runs/);
  });

  test('the fix: declared with its first container, a container another callback adds is that callback\'s', () => {
    // WHEN the Deployment is declared with its container, and B adds a sidecar before A labels it
    const app = webLabelledByA({ B: addSidecar }, [{ name: 'app', image: 'nginx' }]);

    // THEN the sidecar is B's, the declared container the declarer's, and the synth is accepted
    const deployment = app.synthesize().facts!.ledger.objects.find((o) => o.label === 'apps/Deployment routing-web-c802ecf1')!;
    const writes = deployment.writes.map((w) => [writerName(w.writer), formatPath(w.path)]);
    expect(writes).toContainEqual(['cdn/Routing/NetOp/B', 'spec.template.spec.containers[name=sidecar].image']);
    expect(writes).toContainEqual(['cdn/Routing/Web', 'spec.template.spec.containers[name=app].image']);
    expect(writes.filter(([writer]) => writer === 'cdn/Routing/Web').map(([, path]) => path)).not.toContain('spec.template.spec.containers[name=sidecar].image');
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});
