import { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as route53 from 'aws-cdk-lib/aws-route53';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from '../src';
import { coded, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

type Where = 'Base' | 'acme' | 'globex';

/** One release: an A record `recordName` in zone example.com (Z123, or a zone of shop/acme's own), declared as construct `id` in one stack. */
interface RecordVariant {
  readonly stack: Where;
  readonly id: string;
  readonly recordName?: string;
  /** The zone is a PublicHostedZone of the record's stack (given by reference), not Z123 by id. */
  readonly ownZone?: boolean;
  /** An AAAA record instead of an A record. */
  readonly aaaa?: boolean;
}

let built: route53.RecordSet | undefined;

function shop(app: CapabilityApp, v: RecordVariant): void {
  const cap = new Capability(app, 'shop');
  const stacks: Record<Where, Stack> = { Base: new SharedBase(cap, 'Base'), acme: new DeploymentAggregate(cap, 'acme'), globex: new DeploymentAggregate(cap, 'globex') };
  const scope = stacks[v.stack];
  const zone = v.ownZone
    ? new route53.PublicHostedZone(scope, 'Zone', { zoneName: 'example.com' })
    : route53.HostedZone.fromHostedZoneAttributes(scope, 'Zone', { hostedZoneId: 'Z123', zoneName: 'example.com' });
  const props = { zone, recordName: v.recordName ?? 'api' };
  built = v.aaaa
    ? new route53.AaaaRecord(scope, v.id, { ...props, target: route53.RecordTarget.fromIpAddresses('2001:db8::1') })
    : new route53.ARecord(scope, v.id, { ...props, target: route53.RecordTarget.fromIpAddresses('10.0.0.1') });
}

function builtLogicalId(): string {
  return Stack.of(built!).getLogicalId(built!.node.defaultChild as CfnElement);
}

function recordsNamed(result: ReturnType<typeof nextRelease>, stack: string, name: string): string[] {
  const template = result.facts!.stacks.find((s) => s.path === stack)!.template;
  return Object.keys(Template.fromJSON(template).findResources('AWS::Route53::RecordSet', { Properties: { Name: name } }));
}

const CREATES = 'CloudFormation creates a resource before it deletes the one it replaces or that the template no longer has (in the cleanup that ends the stack update)';
const DOC = '(docs/releases.md#renaming-a-resource-that-has-a-physical-name).';

describe('CAP008: a Route53 record set (zone, name, type, set identifier) that moves to another resource between releases', () => {
  test('renaming the record\'s construct in one stack is refused, naming the record, both logical ids and the fixes (no generated name to fall back on)', () => {
    // GIVEN the real lock of a release with A record api.example.com. in zone Z123 as construct Api of shop/acme
    const series = lockedSeries(shop, { stack: 'acme', id: 'Api' });

    // WHEN the next release renames the construct to Edge
    const result = nextRelease(series, shop, { stack: 'acme', id: 'Edge' });

    // THEN the template has the record under a new logical id
    const newId = builtLogicalId();
    expect(recordsNamed(result, 'shop/acme', 'api.example.com.')).toEqual([newId]);
    // AND one CAP008 names the record and the fixes
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: `physical name moved: this release gives AWS::Route53::RecordSet A record "api.example.com." in zone "Z123" to 'shop/acme/Edge' (logical id ${newId} in stack shop/acme), `
          + `but ApiF70053CD in stack shop/acme held it in the locked release (which this release removes): ${CREATES}, `
          + 'so creating it fails because the A record api.example.com. already exists, and the update of stack shop/acme rolls back. '
          + `Keep the old logical id: (resource.node.defaultChild as CfnResource).overrideLogicalId('ApiF70053CD'), or Stack.of(resource).renameLogicalId('${newId}', 'ApiF70053CD'); `
          + `or release in two steps (remove ApiF70053CD in one release, add the new resource in the next) ${DOC}`,
        paths: ['shop/acme', 'shop/acme/Edge'],
      },
    ]);
  });

  test('a record in a zone of its own stack (given by reference) renamed there is refused too', () => {
    const series = lockedSeries(shop, { stack: 'acme', id: 'Api', ownZone: true });

    const result = nextRelease(series, shop, { stack: 'acme', id: 'Edge', ownZone: true });

    const template = Template.fromJSON(result.facts!.stacks.find((s) => s.path === 'shop/acme')!.template);
    const zoneId = Object.keys(template.findResources('AWS::Route53::HostedZone'))[0];
    template.hasResourceProperties('AWS::Route53::RecordSet', { HostedZoneId: { Ref: zoneId }, Name: 'api.example.com.', Type: 'A' });
    expect(coded(result.violations).map((v) => v.message)).toEqual([
      `physical name moved: this release gives AWS::Route53::RecordSet A record "api.example.com." in zone {"Ref":"${zoneId}"} to 'shop/acme/Edge' (logical id ${builtLogicalId()} in stack shop/acme), `
        + `but ApiF70053CD in stack shop/acme held it in the locked release (which this release removes): ${CREATES}, `
        + 'so creating it fails because the A record api.example.com. already exists, and the update of stack shop/acme rolls back. '
        + `Keep the old logical id: (resource.node.defaultChild as CfnResource).overrideLogicalId('ApiF70053CD'), or Stack.of(resource).renameLogicalId('${builtLogicalId()}', 'ApiF70053CD'); `
        + `or release in two steps (remove ApiF70053CD in one release, add the new resource in the next) ${DOC}`,
    ]);
  });

  test('moving it to another tenant, in no order with its stack, is refused, saying the plan sets no order between them', () => {
    const series = lockedSeries(shop, { stack: 'acme', id: 'Api' });

    const result = nextRelease(series, shop, { stack: 'globex', id: 'Api' });

    expect(recordsNamed(result, 'shop/globex', 'api.example.com.')).toEqual([builtLogicalId()]);
    expect(coded(result.violations)).toEqual([
      {
        code: 'CAP008',
        message: `physical name moved: this release gives AWS::Route53::RecordSet A record "api.example.com." in zone "Z123" to 'shop/globex/Api' (logical id ${builtLogicalId()} in stack shop/globex), `
          + 'but ApiF70053CD in stack shop/acme held it in the locked release (which this release removes): '
          + 'the plan does not deploy stack shop/globex, which creates the new resource, after stack shop/acme, whose update deletes the old one (neither depends on the other, so they may deploy in either order), '
          + 'so creating it fails because the A record api.example.com. already exists, and the update of stack shop/globex rolls back. '
          + `Keep the resource in stack shop/acme under logical id ApiF70053CD; or release in two steps (remove ApiF70053CD in one release, add the new resource in the next) ${DOC}`,
        paths: ['shop/acme', 'shop/globex/Api'],
      },
    ]);
  });

  test('moving it from the shared base to a tenant, which the plan deploys after the base, is accepted', () => {
    const series = lockedSeries(shop, { stack: 'Base', id: 'Api' });

    const result = nextRelease(series, shop, { stack: 'acme', id: 'Api' });

    expect(recordsNamed(result, 'shop/acme', 'api.example.com.')).toEqual([builtLogicalId()]);
    expect(coded(result.violations)).toEqual([]);
  });

  test('a renamed construct whose record has another name, or another type, is a new record and accepted', () => {
    const series = lockedSeries(shop, { stack: 'acme', id: 'Api' });

    expect(coded(nextRelease(series, shop, { stack: 'acme', id: 'Edge', recordName: 'edge' }).violations)).toEqual([]);
    expect(coded(nextRelease(series, shop, { stack: 'acme', id: 'Edge', aaaa: true }).violations)).toEqual([]);
  });
});
