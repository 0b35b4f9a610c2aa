/**
 * A terse plan, as terraform prints one: an added or removed CloudFormation resource is one line, an
 * intrinsic function is one value, and traffic lists only the weights that move.
 */
import { aws_iam as iam, aws_ssm as ssm } from 'aws-cdk-lib';
import { Capability, CapabilityApp, SharedBase } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { formatPlan } from '../src/cli/format-plan';
import { terseFields } from '../src/cli/terse-fields';

afterAll(removeReleaseDirs);

/** A base stack with a parameter, and with `policy` an IAM policy on it whose resource is an Fn::Join. */
function base(app: CapabilityApp, v: { policy: boolean }): void {
  const stack = new SharedBase(new Capability(app, 'cdn'), 'Base');
  const parameter = new ssm.StringParameter(stack, 'Origin', { stringValue: 'origin.example.com' });
  if (v.policy) {
    new iam.ManagedPolicy(stack, 'ReadOrigin', {
      statements: [new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameter.parameterArn] })],
    });
  }
}

describe('a terse plan', () => {
  test('an added IAM policy is one line, with its type', () => {
    // GIVEN the lock of a release without the policy
    const series = lockedSeries(base, { policy: false });

    // WHEN the next release adds it
    const result = nextRelease(series, base, { policy: true });

    // THEN its stack's change is one line, where the policy's leaves were many (Fn::Join parts included)
    expect(result.violations).toEqual([]);
    const text = formatPlan(result.plan!);
    const changes = text.slice(text.indexOf('Changes against the lock:'));
    expect(changes).toMatch(/^Changes against the lock:\n {2}~ stack cdn\/Base\n {6}\+ Resources\.ReadOrigin[0-9A-F]{8} \(AWS::IAM::ManagedPolicy\)\n$/);
    const unit = result.plan!.changes.fields.find((f) => f.unit === 'stack cdn/Base')!;
    expect(unit.fields.length).toBeGreaterThan(5);
  });

  test('a resource that only gained leaves (a statement\'s actions grew) is not shown as added: its new leaf is', () => {
    // GIVEN the lock of a release whose policy allows two actions
    const policy = (app: CapabilityApp, v: { actions: string[] }) => {
      const stack = new SharedBase(new Capability(app, 'cdn'), 'Base');
      new iam.ManagedPolicy(stack, 'Read', { statements: [new iam.PolicyStatement({ actions: v.actions, resources: ['*'] })] });
    };
    const series = lockedSeries(policy, { actions: ['ssm:GetParameter', 'ssm:GetParameters'] });

    // WHEN the next release allows a third
    const result = nextRelease(series, policy, { actions: ['ssm:GetParameter', 'ssm:GetParameters', 'ssm:DescribeParameters'] });

    // THEN each added action is a line of its own, and no line says the policy was added
    expect(result.violations).toEqual([]);
    const text = formatPlan(result.plan!);
    expect(text.slice(text.indexOf('Changes against the lock:'))).toMatch(
      /^Changes against the lock:\n {2}~ stack cdn\/Base\n {6}\+ Resources\.Read[0-9A-F]{8}\.Properties\.PolicyDocument\.Statement\[0\]\.Action\[2\]: "ssm:DescribeParameters"\n$/,
    );
  });

  test('an intrinsic function is one value: Ref(X), Fn::GetAtt(X.Y), Fn::Join(...)', () => {
    expect(terseFields([
      { path: 'Resources.P.Properties.Name', before: { x: 1 }, after: 'b' },
      { path: 'Resources.P.Properties.Role.Ref', before: 'RoleA', after: 'RoleB' },
      { path: 'Resources.P.Properties.Arn["Fn::GetAtt"][0]', after: 'Role' },
      { path: 'Resources.P.Properties.Arn["Fn::GetAtt"][1]', after: 'Arn' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][0]', before: '', after: '' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][0]', before: 'arn:', after: 'arn:' },
      { path: 'Resources.P.Properties.Res["Fn::Join"][1][1].Ref', before: 'AWS::Partition', after: 'AWS::Region' },
      { path: 'Resources.Gone.Type', before: 'AWS::SSM::Parameter' },
      { path: 'Resources.Gone.Properties.Value', before: 'x' },
    ])).toEqual([
      { sign: '~', path: 'Resources.P.Properties.Name', text: ': {"x":1} -> "b"' },
      { sign: '~', path: 'Resources.P.Properties.Role', text: ': Ref(RoleA) -> Ref(RoleB)' },
      { sign: '+', path: 'Resources.P.Properties.Arn', text: ': Fn::GetAtt(Role.Arn)' },
      { sign: '~', path: 'Resources.P.Properties.Res', text: ': Fn::Join(...), changed at [1][1].Ref: "AWS::Partition" -> "AWS::Region"' },
      { sign: '-', path: 'Resources.Gone', text: ' (AWS::SSM::Parameter)' },
    ]);
  });

  test('traffic lists only the weights that move, and no section when none does', () => {
    const plan = (traffic: unknown) => formatPlan({
      version: 1,
      capabilities: [],
      steps: [],
      changes: { firstRelease: false, added: [], changed: [], removed: [], fields: [], interface: [], traffic } as any,
    } as any);
    expect(plan([{ route: 'HTTPRoute shop/web', before: { 'web-blue': 100, 'web-green': 0 }, after: { 'web-blue': 90, 'web-green': 10 } }]))
      .toContain('\nTraffic:\n  ~ HTTPRoute shop/web: web-blue 100 -> 90, web-green 0 -> 10\n');
    expect(plan([{ route: 'HTTPRoute shop/web', before: { 'web-blue': 100, 'web-green': 0 }, after: { 'web-blue': 90, 'web-green': 0, 'web-red': 10 } }]))
      .toContain('\n  ~ HTTPRoute shop/web: web-blue 100 -> 90, web-red (new) -> 10\n');
    expect(plan([{ route: 'HTTPRoute shop/web', before: { 'web-blue': 100, 'web-green': 0 }, after: { 'web-blue': 100, 'web-green': 0 } }])).not.toContain('Traffic:');
  });
});
