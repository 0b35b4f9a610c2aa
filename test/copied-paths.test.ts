import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, RuntimeWriter } from '../src';
import { declares, inCluster } from './write-fixtures';

/** The violations of Deployment shop/web (one container named "2", the finalizer "true") with a second writer: a Contribution of its image and finalizers, or a runtime writer of `fields`. */
function violationsOf(second: { contribution: true } | { fields: string[] }): string[] {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', finalizers: ['true'] },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: '2', image: 'web:1' }] } } },
  });
  if ('contribution' in second) {
    new Contribution(routing, 'Pin', { target: web, fields: { spec: { template: { spec: { containers: [{ name: '2', image: 'web:2' }] } } } } });
  } else {
    new RuntimeWriter(routing, 'Pinner', { target: web, fields: second.fields, identity: 'system:serviceaccount:ops:pinner' });
  }
  return CapabilityTesting.synth(app).violations.filter((v) => !v.message.startsWith('warning:')).map((v) => `${v.code} ${v.message}`);
}

describe('a path copied from a CAP002 message into a RuntimeWriter names the field the message names', () => {
  test('the message quotes the string key "2", and the runtime writer of that path conflicts on the same field', () => {
    // GIVEN a Contribution that writes the image of the container named "2", which the declarer writes too
    const [conflict] = violationsOf({ contribution: true });

    // THEN CAP002 names the container by its string key, quoted
    const field = /both write (\S+) of apps\/Deployment shop\/web/.exec(conflict)?.[1];
    expect(field).toBe('spec.template.spec.containers[name="2"].image');

    // WHEN a runtime writer takes the path as the message prints it
    const violations = violationsOf({ fields: [field!] });

    // THEN it names the same field: a conflict on it with the declarer, not a field the schema does not have
    expect(violations).toEqual([
      "CAP002 field conflict: 'shop/Routing/Pinner' (RuntimeWriter) and 'shop/Routing/Web' both write spec.template.spec.containers[name=\"2\"].image of apps/Deployment shop/web. " +
        `Give each field one owner: drop it from one of them (${inCluster('shop/Routing/Pinner')}; ${declares('shop/Routing/Web')}): ` +
        'the deploy-time value would be overwritten or would overwrite the controller.',
    ]);
  });
});
