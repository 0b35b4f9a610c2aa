import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Builder, lockFileFor } from './builder';
import { runtimeShapes } from './runtime-shapes';
import { PARAMETERS_PER_TENANT, parameterProps } from './sizes';
import { Capability, CapabilityApp, Contribution, DeploymentAggregate, RuntimeRouting, SharedBase } from '../../src';

/**
 * Our side of the scenarios that need cdk8s and aws-cdk-lib core only: a
 * `CapabilityApp` built and synthesized into `outdir` with `app.synth()`
 * (checks, plan, atomic write included). The cdk8s-plus scenarios are in
 * `ours-plus.ts`, so these runs never load cdk8s-plus.
 */
export const ours: Record<string, Builder> = {
  // The runtime shapes, in RuntimeRouting charts of one Capability, written into with Contributions.
  ...Object.fromEntries(
    Object.entries(runtimeShapes).map(([name, shape]): [string, Builder] => [
      name,
      (outdir, size, options) => {
        const app = new CapabilityApp({ outdir, lockFile: lockFileFor(outdir, options) });
        const capability = new Capability(app, 'bench');
        shape(
          {
            chart: (id) => new RuntimeRouting(capability, id),
            contribute: (writer, id, target, fields) => new Contribution(writer, id, { target, fields }),
            writeThrough: (writer, id, target, write) => new Contribution(writer, id, { target, write }),
          },
          size,
        );
        app.synth();
      },
    ]),
  ),

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
