/**
 * cdk8s-plus is an optional peer: a program that never adds a backend or reads a contract handle's envValue need
 * not install it. One that does, without it installed, is refused with one coded CAP010 naming the call and what
 * to install, not a plain Error with a stack into lib/bundle.js.
 */
import * as path from 'path';
import { Capability, CapabilityApp, CompositionError, Field, InterfaceContract, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir, thrownBy } from './util';

// GIVEN no major of cdk8s-plus installed: each resolves as a module that is not there
jest.mock('cdk8s-plus-30', () => { throw Object.assign(new Error("Cannot find module 'cdk8s-plus-30'"), { code: 'MODULE_NOT_FOUND' }); });
jest.mock('cdk8s-plus-33', () => { throw Object.assign(new Error("Cannot find module 'cdk8s-plus-33'"), { code: 'MODULE_NOT_FOUND' }); });

afterAll(removeTempDirs);

const INSTALL = 'needs cdk8s-plus, an optional peer of cdk-capability, and none of cdk8s-plus-30, cdk8s-plus-31, cdk8s-plus-32, cdk8s-plus-33 is installed. '
  + 'Install the major of your cdk8s-plus objects, or the first: npm i cdk8s-plus-30.';

/** The violations of the refusal `call` throws, as `code message` and paths; fails unless it is a CompositionError. */
function refusalOf(call: () => unknown): { violations: string[]; paths: readonly string[] } {
  const error = thrownBy(call);
  expect(CompositionError.isCompositionError(error)).toBe(true);
  const violations = (error as CompositionError).violations;
  return { violations: violations.map((v) => `${v.code} ${v.message}`), paths: violations.flatMap((v) => v.paths) };
}

function routed() {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const web = new Capability(app, 'web');
  return { web, routing: new RuntimeRouting(web, 'Routing') };
}

test('RuntimeRouting.addBackend is CAP010 naming the backend and the install command', () => {
  const { routing } = routed();
  expect(refusalOf(() => routing.addBackend('Api', { image: 'ghcr.io/example/api:1.0.0', port: 8080 }))).toEqual({
    violations: [`CAP010 invalid object: addBackend 'web/Routing/Api' ${INSTALL}`],
    paths: ['web/Routing/Api'],
  });
  // nothing half-made: the backend's Deployment was not added
  expect(routing.node.tryFindChild('Api')).toBeUndefined();
});

test("a contract handle's envValue() is CAP010 naming the field, the contract and the install command", () => {
  const { web, routing } = routed();
  const edge = new InterfaceContract(web, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
  const values = edge.consume(routing);
  expect(refusalOf(() => values.tenantHeader.envValue())).toEqual({
    violations: [`CAP010 invalid object: envValue() of the field 'tenantHeader' of InterfaceContract 'web/Edge' ${INSTALL}`],
    paths: ['web/Routing'],
  });
});
