import { Construct } from 'constructs';
import * as fc from 'fast-check';

/**
 * `addressOf` hashes a construct's ids from the root in one call (`crypto.hash`, Node 20.12 and later), or with a
 * hash object before: both must give constructs' own `node.addr` for any ids, `Default` and non-ASCII ones included.
 */

type AddressOf = (components: readonly string[]) => string;

/** `addressOf` as loaded with `crypto.hash` present or taken away (the hash object of an older Node). */
function addressOfLoaded(withOneShotHash: boolean): AddressOf {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require('crypto') as { hash?: unknown };
  const saved = crypto.hash;
  if (!withOneShotHash) delete crypto.hash;
  try {
    let loaded: AddressOf | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = (require('../src/private/names') as { addressOf: AddressOf }).addressOf;
    });
    return loaded!;
  } finally {
    if (!withOneShotHash) crypto.hash = saved;
  }
}

/** Construct ids constructs accepts: any text without the path separator nor an Object.prototype name, `Default` often, non-ASCII and lone surrogates included. */
const idArb = fc.oneof(
  fc.constant('Default'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  fc.constantFrom('Resource', 'Web', 'tenant0', 'é', '\uD800', '\uDC00x'),
).filter((id) => !id.includes('/') && !(id in {})); // constructs keeps children in a plain object: it refuses 'valueOf'

describe('addressOf', () => {
  test.each([
    ['with crypto.hash', true],
    ['with a hash object (Node before 20.12)', false],
  ])('agrees with constructs\' node.addr for random ids (%s)', (_, withOneShotHash) => {
    const addressOf = addressOfLoaded(withOneShotHash);
    fc.assert(
      fc.property(fc.array(idArb, { minLength: 1, maxLength: 5 }), (ids) => {
        // GIVEN a construct under a root, each scope of the given id
        let scope: Construct = new Construct(undefined as unknown as Construct, '');
        for (const id of ids) scope = new Construct(scope, id);

        // THEN the helper gives its address from the ids constructs kept (it rewrites some: a line break), as names.ts reads them
        expect(addressOf(scope.node.scopes.map((c) => c.node.id))).toBe(scope.node.addr);
      }),
      { numRuns: 300 },
    );
  });
});
