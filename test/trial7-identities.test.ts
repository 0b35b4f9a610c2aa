// An identity that is a group of Kubernetes' own is never request.userInfo.username: the policy would refuse every
// write of the controller (or every apply of the deployer) it stands for. A new user types the group for the user
// (system:serviceaccounts:<namespace>, plural, is the group of a namespace's service accounts).
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';
import { admit } from './enforcement/admission';

const DEPLOYER = 'system:serviceaccount:ci:deployer';
const KEDA = 'system:serviceaccount:keda:keda-operator';

function synthWith(identity: string) {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const scaled = new ApiObject(routing, 'Scaled', {
    apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'worker', namespace: 'shop' }, spec: { scaleTargetRef: { name: 'web' } },
  });
  new RuntimeWriter(routing, 'Keda', { target: scaled, fields: ['metadata.finalizers[=finalizer.keda.sh]'], identity, manager: 'keda' });
  return CapabilityTesting.synth(app);
}

test("the group of a namespace's service accounts as a runtime writer's identity is CAP010, naming the user form", () => {
  expect(synthWith('system:serviceaccounts:keda').violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP010 invalid object: 'shop/Routing/Keda' failed its own validation: 'identity' (\"system:serviceaccounts:keda\") is the group of every service account of the namespace \"keda\" "
      + '(one of them is system:serviceaccount:keda:<name>), which the API server reports in request.userInfo.groups, never as request.userInfo.username, '
      + 'the name the admission policy compares: give the username the controller writes as, system:serviceaccount:keda:<name>, <name> being the serviceAccountName its pods run as '
      + "(kubectl get pods -n keda -o jsonpath='{..serviceAccountName}')",
  ]);
});

test('with the group accepted, the policy would refuse the controller the group was meant for', () => {
  // what the release would have enforced: KEDA's real request names its user, never the group it is in
  const policies = synthWith(KEDA).runtimeObjects.map((o) => JSON.parse(JSON.stringify(o).split(KEDA).join('system:serviceaccounts:keda')));
  const scaled = (finalizers: string[]) => ({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'worker', namespace: 'shop', finalizers }, spec: { scaleTargetRef: { name: 'web' } } });
  const decision = admit(policies, {
    operation: 'UPDATE',
    username: KEDA,
    group: 'keda.sh',
    resource: 'scaledobjects',
    version: 'v1alpha1',
    kind: 'ScaledObject',
    namespace: 'shop',
    name: 'worker',
    object: scaled(['finalizer.keda.sh']),
    oldObject: scaled([]),
  });
  expect(decision.allowed).toBe(false);
});

test.each(['system:masters', 'system:authenticated', 'system:serviceaccounts', 'system:nodes'])('%s, a group of Kubernetes\' own, is no deployer', (deployer) => {
  expect(() => CapabilityTesting.app({ enforce: { deployer } })).toThrow(new Error(
    'The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: '
      + `'enforce.deployer' (${JSON.stringify(deployer)}) is a group of Kubernetes' own, which the API server reports in request.userInfo.groups, never as request.userInfo.username, `
      + 'the name the admission policy compares: give the username that applies the runtime output, such as "system:serviceaccount:flux-system:kustomize-controller"',
  ));
});

test('usernames that merely start with system: stay accepted', () => {
  for (const identity of ['system:kube-controller-manager', KEDA]) expect(synthWith(identity).violations).toEqual([]);
});
