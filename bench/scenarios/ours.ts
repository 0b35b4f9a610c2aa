import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Builder, lockFileFor } from './builder';
import { PARAMETERS_PER_TENANT, parameterProps } from './sizes';
import { Capability, CapabilityApp, DeploymentAggregate, SharedBase } from 'cdk-capability';

/**
 * Our side of the scenario that builds aws-cdk stacks without cdk8s-plus: a
 * `CapabilityApp` built and synthesized into `outdir` with `app.synth()`
 * (checks, plan, atomic write included). The runtime-only scenarios are in
 * `ours-runtime.ts` (on `cdk-capability/runtime`, as a runtime-only
 * composition is written), the cdk8s-plus ones in `ours-plus.ts`.
 */
export const ours: Record<string, Builder> = {
  /** One SharedBase and `size` DeploymentAggregates of `PARAMETERS_PER_TENANT` SSM parameters each. */
  stacks(outdir, size, options) {
    const app = new CapabilityApp({ outdir, lockFile: lockFileFor(outdir, options) });
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
