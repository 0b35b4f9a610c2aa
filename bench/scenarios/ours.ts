import { aws_ssm as ssm } from 'aws-cdk-lib';
import { runtimeShapes } from './runtime-shapes';
import { PARAMETERS_PER_TENANT, parameterProps } from './sizes';
import { Capability, CapabilityApp, DeploymentAggregate, RuntimeRouting, SharedBase } from '../../src';

/**
 * Our side of each scenario: a `CapabilityApp` built and synthesized into
 * `outdir` with `app.synth()` (checks, plan, atomic write included).
 */
export const ours: Record<string, (outdir: string, size: number) => void> = {
  // The runtime shapes, in RuntimeRouting charts of one Capability.
  ...Object.fromEntries(
    Object.entries(runtimeShapes).map(([name, shape]) => [
      name,
      (outdir: string, size: number) => {
        const app = new CapabilityApp({ outdir });
        const capability = new Capability(app, 'bench');
        shape((id) => new RuntimeRouting(capability, id), size);
        app.synth();
      },
    ]),
  ),

  /** One SharedBase and `size` DeploymentAggregates of `PARAMETERS_PER_TENANT` SSM parameters each. */
  tenants(outdir, size) {
    const app = new CapabilityApp({ outdir });
    const capability = new Capability(app, 'bench');
    const base = new SharedBase(capability, 'Base');
    new ssm.StringParameter(base, 'Origin', parameterProps('base', 0));
    for (let t = 0; t < size; t++) {
      const tenant = new DeploymentAggregate(capability, `tenant${t}`);
      for (let r = 0; r < PARAMETERS_PER_TENANT; r++) new ssm.StringParameter(tenant, `P${r}`, parameterProps(`tenant${t}`, r));
    }
    app.synth();
  },
};
