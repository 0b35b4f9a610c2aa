/**
 * aws-cdk-lib is an optional peer (a cdk-capability/runtime program need not install it). A program of the main
 * entry point without it installed is refused as it loads the package with one coded CAP010 naming the two ways
 * on, not Node's `Cannot find module 'aws-cdk-lib'` with a stack into lib/bundle.js.
 */

// GIVEN no aws-cdk-lib installed: it resolves as a module that is not there
jest.mock('aws-cdk-lib', () => { throw Object.assign(new Error("Cannot find module 'aws-cdk-lib'"), { code: 'MODULE_NOT_FOUND' }); });

test('loading the main entry point is CAP010 saying what to install, or to import cdk-capability/runtime', () => {
  let error: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded here, as a program loads it, under the mock above
    require('../src');
  } catch (e) {
    error = e;
  }
  expect((error as Error).message).toBe(
    'The composition was refused with 1 violation:\n'
      + "CAP010 invalid object: cdk-capability's main entry point needs aws-cdk-lib (its Capability is an aws-cdk Stage that takes stacks), an optional peer, and it is not installed. "
      + "Install it (npm i aws-cdk-lib@^2.262.0), or import from 'cdk-capability/runtime' for a composition of cdk8s charts alone.",
  );
  expect((error as Error).name).toBe('CompositionError');
  // the range the message names is the peer range
  expect((jest.requireActual('../package.json') as { peerDependencies: Record<string, string> }).peerDependencies['aws-cdk-lib']).toBe('^2.262.0');
});

test('the runtime entry point loads without aws-cdk-lib', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded here, as a program loads it, under the mock above
  const runtime = require('../src/runtime') as typeof import('../src/runtime');
  expect(typeof runtime.CapabilityApp).toBe('function');
});
