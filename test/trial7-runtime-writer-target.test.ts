// A RuntimeWriter whose target is an ApiObject of another cdk8s App (a second `new App()`, say in a helper) was
// dropped without a word: no violation, no runtime writer in the plan, the lock or the policies.
import { ApiObject, App, Chart } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';

test('a target of another app is CAP010, naming the target, instead of a runtime writer silently left out', () => {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const elsewhere = new ApiObject(new Chart(new App(), 'Other'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } });
  new RuntimeWriter(routing, 'Tuner', { target: elsewhere, fields: ['data.level'], identity: 'system:serviceaccount:ops:tuner' });

  expect(CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP010 invalid object: 'shop/Routing/Tuner' failed its own validation: 'target' ('Other/Settings') is an object of another app, not of the composition this RuntimeWriter is in: "
      + 'nothing would record or protect it. Declare the object in this CapabilityApp, or give { apiVersion, kind } for every object of a kind',
  ]);
});

test('a target in a plain chart of the same app is recorded', () => {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const settings = new ApiObject(new Chart(app, 'Plain'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } });
  new RuntimeWriter(routing, 'Tuner', { target: settings, fields: ['data.level'], identity: 'system:serviceaccount:ops:tuner' });

  const result = CapabilityTesting.synth(app);
  expect(result.violations).toEqual([]);
  expect(result.plan!.runtimeWriters!.map((w) => w.target)).toEqual([{ object: 'object:|ConfigMap|shop|settings', label: 'ConfigMap shop/settings' }]);
});
