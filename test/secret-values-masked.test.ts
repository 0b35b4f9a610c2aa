import { ApiObject } from 'cdk8s';
import { Capability, RuntimeRouting } from '../src';
import { capturingOutput, newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

const SECRET = 'hunter2-sekrit';

/** The message of the synth's refusal, and what it printed, of one Secret holding `fields`. */
function refusalOf(fields: Record<string, unknown>): { message: string; printed: string } {
  const app = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Db', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' }, ...fields });
  let message = '';
  const { stdout, stderr } = capturingOutput(() => {
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
  });
  return { message, printed: stdout + stderr };
}

describe('CAP010 of a value of another type in a Secret\'s data masks the value, as the lock does', () => {
  test.each([
    ['stringData', { password: { v: SECRET } }, 'a map'],
    ['data', { password: [SECRET] }, 'a list'],
  ])('%s holding %j', (field, map, type) => {
    const { message, printed } = refusalOf({ [field]: map });
    expect(message).toContain(
      `CAP010 invalid object: '${field}.password' (sensitive) of Secret shop/db declared by 'shop/Routing/Db' must be a string, `
      + `as Kubernetes 1.30's schema types it; the API server refuses ${type} there. Write a string in place of ${type}.`,
    );
    expect(message).not.toContain(SECRET);
    expect(printed).not.toContain(SECRET);
  });

  test('a ConfigMap\'s value is still shown, with its fix', () => {
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { mode: ['plain'] } });
    let message = '';
    capturingOutput(() => {
      try {
        app.synth();
      } catch (e) {
        message = (e as Error).message;
      }
    });
    expect(message).toContain("'data.mode' ([\"plain\"]) of ConfigMap shop/cfg declared by 'shop/Routing/Cfg' must be a string");
    expect(message).toContain('Write "plain", not ["plain"].');
  });
});
