import { Builder, lockFileFor } from './builder';
import { APP_NAMESPACE } from './sizes';
import { buildTenants, GATEWAY } from './tenant-shape';
import { Capability, CapabilityApp, Contribution, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, SharedBase } from 'cdk-capability';

/** Our side of the `tenants` scenario, written with cdk8s-plus (`small` is runtime-only: ours-runtime.ts). */
export const oursPlus: Record<string, Builder> = {
  /**
   * `size` tenants of one Capability: DeploymentAggregates after a SharedBase,
   * backends and tenant routes in one RuntimeRouting, the tenant header
   * through an InterfaceContract, a second team's annotation as a
   * Contribution. With `options.lockFile` from a first synth, the release
   * checks compare against it.
   */
  tenants(outdir, size, options) {
    const app = new CapabilityApp({ outdir, lockFile: lockFileFor(outdir, options) });
    const capability = new Capability(app, 'bench');
    const contract = new InterfaceContract(capability, 'Edge', {
      version: '1.0.0',
      fields: { tenantHeader: Field.string({ description: 'request header the edge sets to the tenant id' }) },
    });
    buildTenants<RuntimeRouting>(
      {
        base: (id) => new SharedBase(capability, id),
        aggregate: (tenant) => new DeploymentAggregate(capability, tenant),
        routing: (id) => new RuntimeRouting(capability, id, { gateway: GATEWAY }),
        tenantHeader: (base, routing, header) => {
          contract.publish(base, { tenantHeader: header });
          return contract.consume(routing, { namespace: APP_NAMESPACE }).tenantHeader.envValue();
        },
        backend: (routing, id, backendOptions) => routing.addBackend(id, backendOptions),
        route: (routing, tenant, backend) => routing.addTenantRoute(tenant, backend),
        contribute: (writer, id, target, fields) => new Contribution(writer, id, { target, fields }),
      },
      size,
    );
    app.synth();
  },
};

/** `validated`: the `tenants` objects, built the same way; the run turns aws-cdk's template validator on. */
oursPlus.validated = oursPlus.tenants;
