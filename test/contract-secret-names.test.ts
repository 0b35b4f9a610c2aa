import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { newApp, removeTempDirs } from './util';

afterAll(removeTempDirs);

/**
 * The violations of an app where capability `shop` consumes, in chart `shop/Routing`, the contract of each
 * `[capability id, contract id]`, each published by its capability.
 */
function violationsOf(
  contracts: ReadonlyArray<readonly [string, string]>,
  namespaces: ReadonlyArray<string | undefined> = contracts.map(() => undefined),
): string[] {
  const app: CapabilityApp = newApp();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  contracts.forEach(([capabilityId, id], i) => {
    const capability = new Capability(app, capabilityId);
    const contract = new InterfaceContract(capability, id, { version: '1.0.0', fields: { host: Field.string() } });
    contract.publish(new SharedBase(capability, 'Base'), { host: 'h' });
    contract.consume(routing, namespaces[i] === undefined ? {} : { namespace: namespaces[i] });
  });
  return app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
}

describe('contract ids that sanitize to one Secret name', () => {
  test("'cdn-edge/Api' and 'cdn/edge.api' consumed in one namespace are CAP001 naming both contracts, the Secret name and the fix", () => {
    expect(violationsOf([['cdn-edge', 'Api'], ['cdn', 'edge-api']])).toEqual([
      "CAP001 duplicate object: the contracts 'cdn-edge/Api' and 'cdn/edge-api' bind one Secret, 'cdn-edge-api-interface' in one namespace (the ExternalSecrets 'shop/Routing/ApiInterface' and 'shop/Routing/edge-apiInterface'): a contract's Secret is named '<capability id>-<contract id>-interface', lowercased, with each run of characters other than a-z, 0-9, '.' and '-' made one '-'. Rename one contract's id so that the names differ.",
    ]);
  });

  test('consumed in two namespaces, the two Secrets are two objects: accepted', () => {
    expect(violationsOf([['cdn-edge', 'Api'], ['cdn', 'edge-api']], ['a', 'b'])).toEqual([]);
  });
});
