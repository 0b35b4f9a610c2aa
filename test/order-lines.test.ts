import { aws_sqs as sqs } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Field, InterfaceContract, Plan, RuntimeRouting, SharedBase } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { formatPlan } from '../src/cli/format-plan';
import { orderLines } from '../src/cli/order-lines';
import type { OrderChange } from '../src/release/order-changes';

afterAll(() => removeReleaseDirs());

const PUBLISHED = 'everything under shop/C (published)';
const BEFORE_CONSUMERS = 'interface publication before its consumers';

/** An order change of `unit` on `waitsFor`. */
const change = (unit: string, waitsFor = PUBLISHED, reason = BEFORE_CONSUMERS, kind: OrderChange['change'] = 'added'): OrderChange => ({ change: kind, unit, waitsFor, reason });

describe('orderLines', () => {
  test('four objects gaining one dependency for one reason share a line: the count, the first three named', () => {
    const lines = orderLines(['a', 'b', 'c', 'd'].map((n) => change(`ConfigMap shop/${n}`)));

    expect(lines).toEqual([`+ 4 objects now wait for ${PUBLISHED} (${BEFORE_CONSUMERS}): ConfigMap shop/a, ConfigMap shop/b, ConfigMap shop/c and 1 more`]);
  });

  test('three keep a line each, as before', () => {
    const lines = orderLines(['a', 'b', 'c'].map((n) => change(`ConfigMap shop/${n}`)));

    expect(lines).toEqual(['a', 'b', 'c'].map((n) => `+ ConfigMap shop/${n} now waits for ${PUBLISHED} (${BEFORE_CONSUMERS})`));
  });

  test('dropped dependencies group the same way, with their own verb', () => {
    const lines = orderLines(['a', 'b', 'c', 'd', 'e'].map((n) => change(`Service shop/${n}`, 'stack shop/Base', 'deployment time before runtime', 'removed')));

    expect(lines).toEqual(['- 5 objects no longer wait for stack shop/Base (deployment time before runtime): Service shop/a, Service shop/b, Service shop/c and 2 more']);
  });

  test('another end or another reason is another line; stacks and constructs are never grouped', () => {
    const changes = [
      ...['a', 'b', 'c', 'd'].map((n) => change(`ConfigMap shop/${n}`)),
      ...['e', 'f', 'g', 'h'].map((n) => change(`ConfigMap shop/${n}`, PUBLISHED, 'explicit dependency (addDependency)')),
      ...['T1', 'T2', 'T3', 'T4'].map((n) => change(`stack shop/${n}`, 'stack shop/Base', 'explicit dependency (addDependency)')),
      ...['x', 'y', 'z', 'w'].map((n) => change(`everything under shop/${n}`, 'stack shop/Base', 'explicit dependency (addDependency)')),
    ];

    expect(orderLines(changes)).toEqual([
      `+ 4 objects now wait for ${PUBLISHED} (${BEFORE_CONSUMERS}): ConfigMap shop/a, ConfigMap shop/b, ConfigMap shop/c and 1 more`,
      `+ 4 objects now wait for ${PUBLISHED} (explicit dependency (addDependency)): ConfigMap shop/e, ConfigMap shop/f, ConfigMap shop/g and 1 more`,
      ...['T1', 'T2', 'T3', 'T4'].map((n) => `+ stack shop/${n} now waits for stack shop/Base (explicit dependency (addDependency))`),
      ...['x', 'y', 'z', 'w'].map((n) => `+ everything under shop/${n} now waits for stack shop/Base (explicit dependency (addDependency))`),
    ]);
  });
});

describe('the plan of a release that adds a contract under a runtime aggregate', () => {
  /** A shared base with a queue, and nine ConfigMaps; with `contract`, the routing aggregate consumes the queue's URL. */
  const build = (app: CapabilityApp, contract: boolean) => {
    const shop = new Capability(app, 'shop');
    const base = new SharedBase(shop, 'Base');
    const queue = new sqs.Queue(base, 'Queue');
    const routing = new RuntimeRouting(shop, 'Routing');
    if (contract) {
      const c = new InterfaceContract(shop, 'C', { name: 'orders', version: '1.0.0', fields: { queueUrl: Field.url() } });
      c.publish(base, { queueUrl: queue.queueUrl });
      c.consume(routing, { namespace: 'shop' });
    }
    for (let i = 1; i <= 9; i++) {
      new ApiObject(routing, `Settings${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `settings-${i}`, namespace: 'shop' }, data: { n: `${i}` } });
    }
  };

  test('prints one Order line for the nine objects; the JSON keeps all nine', () => {
    const { violations, plan } = nextRelease(lockedSeries(build, false), build, true);
    expect(violations).toEqual([]);

    const text = formatPlan(plan as Plan);
    const order = text.slice(text.indexOf('\nOrder ('), text.indexOf('\n\n', text.indexOf('\nOrder (') + 1));
    expect(order).toBe(
      '\nOrder (dependencies between stacks and objects of both releases):\n'
        + `  + 9 objects now wait for ${PUBLISHED} (${BEFORE_CONSUMERS}): ConfigMap shop/settings-1, ConfigMap shop/settings-2, ConfigMap shop/settings-3 and 6 more`,
    );
    expect(plan!.changes!.order!.map((o) => o.unit)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `ConfigMap shop/settings-${i}`));
    expect(text).toContain('9 order changes');
  });
});
