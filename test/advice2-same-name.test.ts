/**
 * Two installed packages that publish contracts of the same name. Each in a capability of its own: the contracts are
 * apart (a capability's id is in its parameter), accepted. Both into one capability of the app (each package a
 * construct that adds its contract to the capability it is given): refused (`CAP009`, one interface a capability),
 * and since the app cannot merge or renumber a package's contract, the refusal names each contract's package and
 * says to give each package a capability of its own, not to merge their fields.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HANG_GUARD_MS, NODE_TS, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');

/** An installed package `name@version` whose construct `Queue` adds a contract named `Queue` (`version`, `fields`) to a capability. */
function installPackage(appDir: string, name: string, version: string, contractVersion: string, field: string): void {
  const folder = path.join(appDir, 'node_modules', ...name.split('/'));
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
  fs.writeFileSync(path.join(folder, 'index.js'), [
    "const { Construct } = require('constructs');",
    "const { Capability, Field, InterfaceContract, SharedBase } = require('cdk-capability');",
    '/** Its queue, published through a contract named Queue of the capability it is given. */',
    'class Queue extends Construct {',
    '  constructor(capability, id) {',
    '    super(capability, id);',
    `    const contract = new InterfaceContract(this, id + 'Contract', { name: 'Queue', version: '${contractVersion}', fields: { ${field}: Field.string() } });`,
    "    const base = capability.node.tryFindChild('Base') ?? new SharedBase(capability, 'Base');",
    `    contract.publish(base, { ${field}: 'x' });`,
    '  }',
    '}',
    '/** A capability of its own, holding a Queue. */',
    'class QueueCapability extends Capability {',
    '  constructor(scope, id) {',
    '    super(scope, id);',
    "    new Queue(this, 'Queue');",
    '  }',
    '}',
    'module.exports = { Queue, QueueCapability };',
    '',
  ].join('\n'));
}

/** An app with both packages installed, whose main.js is `body`. */
function app(body: string[]): string {
  const dir = fs.realpathSync(tempDir('cdk-capability-app-'));
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of ['constructs', 'cdk8s', 'aws-cdk-lib']) fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  fs.mkdirSync(path.join(modules, 'cdk-capability'));
  fs.writeFileSync(path.join(modules, 'cdk-capability', 'package.json'), JSON.stringify({ name: 'cdk-capability', version: '0.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(modules, 'cdk-capability', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))});\n`);
  installPackage(dir, '@acme/orders-queue', '1.2.0', '1.0.0', 'ordersUrl');
  installPackage(dir, '@globex/billing-queue', '3.0.1', '1.4.0', 'billingUrl');
  fs.writeFileSync(path.join(dir, 'main.js'), [
    "const { Capability, CapabilityApp, Field, InterfaceContract } = require('cdk-capability');",
    "const orders = require('@acme/orders-queue');",
    "const billing = require('@globex/billing-queue');",
    'const app = new CapabilityApp({ builtinCloudFormationValidation: false });',
    ...body,
    'app.synth();',
    '',
  ].join('\n'));
  return dir;
}

function synth(dir: string): { status: number | null; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|CDK8S_OUTDIR$|CDK_CAPABILITY_)/i.test(k)));
  const r = spawnSync(process.execPath, [...NODE_TS, 'main.js'], { cwd: dir, env: { ...env, CDK8S_OUTDIR: path.join(dir, 'dist') }, encoding: 'utf-8', timeout: HANG_GUARD_MS });
  if (r.error) throw r.error;
  return { status: r.status, stderr: r.stderr };
}

describe('two installed packages that publish contracts of the same name', () => {
  test('each in a capability of its own: accepted, each contract its own parameter', () => {
    const dir = app(["new orders.QueueCapability(app, 'orders');", "new billing.QueueCapability(app, 'billing');"]);
    const r = synth(dir);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    const names = JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'interface.json'), 'utf-8')).interfaces.map((i: any) => i.parameter.name);
    expect(names).toEqual(['/cdk-capability/orders/queue/v1', '/cdk-capability/billing/queue/v1']);
  });

  test("both in one capability of the app: CAP009 names each contract's package and says to give each package its own capability", () => {
    const dir = app(["const shop = new Capability(app, 'shop');", "new orders.Queue(shop, 'Orders');", "new billing.Queue(shop, 'Billing');"]);
    const r = synth(dir);
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('CAP009'))).toEqual([
      "CAP009 contract misuse: capability 'shop' declares major 1 of contract 'Queue' 2 times ('shop/Orders/OrdersContract', 'shop/Billing/BillingContract'); majors side by side must differ. "
      + "They come from different code ('shop/Orders/OrdersContract' from the installed package @acme/orders-queue@1.2.0, 'shop/Billing/BillingContract' from the installed package "
      + "@globex/billing-queue@3.0.1), and the app cannot change a package's contract: put each package's constructs in a Capability of their own (one capability "
      + 'publishes one interface).',
    ]);
  });

  test("a package's contract beside the app's own of another name: CAP009 says which is whose, and to give the package a capability of its own", () => {
    const dir = app([
      "const shop = new Capability(app, 'shop');",
      "new orders.Queue(shop, 'Orders');",
      "new InterfaceContract(shop, 'Api', { version: '1.0.0', fields: { url: Field.string() } });",
    ]);
    const r = synth(dir);
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('CAP009') && l.includes('exactly one interface'))).toEqual([
      "CAP009 contract misuse: capability 'shop' declares 2 contracts ('shop/Orders/OrdersContract', 'shop/Api'); exactly one interface crosses to runtime. "
      + "They come from different code ('shop/Orders/OrdersContract' from the installed package @acme/orders-queue@1.2.0, 'shop/Api' of the app), and the app "
      + "cannot change a package's contract: put each package's constructs in a Capability of their own (one capability publishes one interface), and the app's "
      + 'own contract in another.',
    ]);
  });
});
