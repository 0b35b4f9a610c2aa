// A canary release of a backend: two versions live at once (blue 1.4.2, green 1.5.0), each
// tenant route splitting traffic between them by weight. Shifting and rolling back are weight
// changes only: no code change, no new objects, a plan that shows just the weights.
import { ApiObject } from 'cdk8s';
import { CapabilityApp, Capability, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../../src';

/** The three releases of the README: 90/10, then 50/50, then rollback to 100/0. */
export const STAGES = {
  canary: { blue: 90, green: 10 },
  half: { blue: 50, green: 50 },
  rollback: { blue: 100, green: 0 },
} as const;

/** A stage of the canary. */
export type Stage = keyof typeof STAGES;

/**
 * Builds the composition at `stage` into `app`: capability shop, whose
 * contract publishes the tenant header, and a routing chart with namespace
 * shop, versioned backend web in it and one HTTPRoute per tenant.
 */
export function build(app: CapabilityApp, stage: Stage): void {
  const shop = new Capability(app, 'shop');
  const edge = new InterfaceContract(shop, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
  edge.publish(new SharedBase(shop, 'Base'), { tenantHeader: 'x-tenant-id' });

  const routing = new RuntimeRouting(shop, 'Routing', { gateway: { name: 'edge', namespace: 'gateway-system' } });
  // the namespace the backend and routes live in: declared, so applying to a new cluster creates it first
  new ApiObject(routing, 'ShopNamespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  const web = routing.addVersionedBackend('Web', {
    port: 8080,
    namespace: 'shop',
    versions: {
      blue: { image: 'ghcr.io/example/web:1.4.2' },
      green: { image: 'ghcr.io/example/web:1.5.0' },
    },
  });
  for (const tenant of ['acme', 'globex']) routing.addTenantRoute(tenant, web, { weights: { ...STAGES[stage] } });
}
