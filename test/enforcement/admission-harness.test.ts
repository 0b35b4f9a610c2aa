// The tests' ValidatingAdmissionPolicy admission (./admission.ts) behaves as the API server's on the
// cases the API server's own tests pin: kubernetes/apiserver
// pkg/admission/plugin/policy/validating/validator_test.go TestValidate at 24a394e51 (failure
// policies, messages and messageExpression fallbacks), with the expressions written out in CEL
// instead of mocked evaluation results.
import { admit, Request } from './admission';

const REQUEST: Request = { operation: 'UPDATE', username: 'alice', group: '', resource: 'configmaps', kind: 'ConfigMap', namespace: 'ns', name: 'cm', object: { data: { a: '1' } }, oldObject: { data: { a: '0' } } };

function policy(spec: any): any[] {
  return [
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['*'], operations: ['*'], resources: ['configmaps'] }] }, ...spec } },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } },
  ];
}

const failuresOf = (spec: any) => admit(policy(spec), REQUEST).failures;

describe.each([
  // [case of TestValidate, validation, failures]
  ['test pass', { expression: 'true' }, []],
  ['test fail with failurepolicy fail', { expression: 'false' }, ['failed expression: false']],
  ['test message for failed validations', { expression: 'false', message: 'test' }, ['test']],
  ['messageExpression successful, empty message', { expression: 'false', messageExpression: "'evaluated message'" }, ['evaluated message']],
  ['messageExpression successful, overwritten message', { expression: 'false', message: 'I am overwritten', messageExpression: "'evaluated message'" }, ['evaluated message']],
  ['messageExpression user failure', { expression: 'false', message: 'test1', messageExpression: 'object.nope' }, ['test1']],
  ['messageExpression eval to empty', { expression: 'false', message: 'test1', messageExpression: "' '" }, ['test1']],
  ['messageExpression eval to multi-line', { expression: 'false', message: 'test1', messageExpression: "'hello\\nthere'" }, ['test1']],
  ['messageExpression eval result too long', { expression: 'false', message: 'test1', messageExpression: `'${'x'.repeat(5 * 1024 + 1)}'` }, ['test1']],
  ['messageExpression eval to null', { expression: 'false', message: 'test1', messageExpression: 'null' }, ['test1']],
])('%s', (_name, validation, failures) => {
  test('gives the API server\'s decision', () => {
    expect(failuresOf({ validations: [validation] })).toEqual(failures);
  });
});

test('messageExpression for multiple validations: each failure has its own message', () => {
  expect(failuresOf({ validations: [{ expression: 'false', message: 'I am not overwritten' }, { expression: 'false', message: 'I am overwritten', messageExpression: "'evaluated message'" }] }))
    .toEqual(['I am not overwritten', 'evaluated message']);
});

test('test error with failurepolicy ignore: an expression that fails to evaluate admits the request', () => {
  expect(failuresOf({ failurePolicy: 'Ignore', validations: [{ expression: 'object.nope == 1' }] })).toEqual([]);
});

test('test error with failurepolicy nil: the default failure policy (Fail) refuses the request', () => {
  expect(failuresOf({ validations: [{ expression: 'object.nope == 1' }] })).toEqual([expect.stringMatching(/^expression 'object\.nope == 1' resulted in error: /)]);
});

test('no match surpresses failure: a false match condition skips the policy', () => {
  expect(failuresOf({ matchConditions: [{ name: 'never', expression: 'false' }], validations: [{ expression: 'false' }] })).toEqual([]);
});

test('variables are evaluated in order and seen by later variables and validations', () => {
  expect(failuresOf({ variables: [{ name: 'a', expression: 'object.data.a' }, { name: 'b', expression: "variables.a + '!'" }], validations: [{ expression: "variables.b == '0!'", messageExpression: 'variables.b' }] }))
    .toEqual(['1!']);
});

test('CREATE has a null oldObject, DELETE a null object', () => {
  const spec = { validations: [{ expression: 'oldObject == null', message: 'old' }, { expression: 'object == null', message: 'new' }] };
  expect(admit(policy(spec), { ...REQUEST, operation: 'CREATE', oldObject: undefined }).failures).toEqual(['new']);
  expect(admit(policy(spec), { ...REQUEST, operation: 'DELETE', object: undefined }).failures).toEqual(['old']);
});
