import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { CHAINED_CHARTS, CHART_COUNT, configMapProps, PARAMETERS_PER_TENANT, parameterProps } from './sizes';
import { Capability, CapabilityApp, DeploymentAggregate, RuntimeRouting, SharedBase } from '../../src';

/**
 * Our side of each scenario: a `CapabilityApp` built and synthesized into
 * `outdir` with `app.synth()` (checks, plan, atomic write included).
 */
export const ours: Record<string, (outdir: string, size: number) => void> = {
  /** `CHART_COUNT` RuntimeRouting charts of `size` ConfigMaps each. */
  charts(outdir, size) {
    const app = new CapabilityApp({ outdir });
    const capability = new Capability(app, 'bench');
    for (let c = 0; c < CHART_COUNT; c++) {
      const chart = new RuntimeRouting(capability, `Routing${c}`);
      for (let j = 0; j < size; j++) new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
    }
    app.synth();
  },

  /** `CHAINED_CHARTS` charts of `size` ConfigMaps, each chart depending on the previous one. */
  chained(outdir, size) {
    const app = new CapabilityApp({ outdir });
    const capability = new Capability(app, 'bench');
    let previous: RuntimeRouting | undefined;
    for (let c = 0; c < CHAINED_CHARTS; c++) {
      const chart = new RuntimeRouting(capability, `Routing${c}`);
      for (let j = 0; j < size; j++) new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
      if (previous) chart.addDependency(previous);
      previous = chart;
    }
    app.synth();
  },

  /** One chart of `size` ConfigMaps, each depending on the one before it. */
  chain(outdir, size) {
    const app = new CapabilityApp({ outdir });
    const chart = new RuntimeRouting(new Capability(app, 'bench'), 'Routing');
    let previous: ApiObject | undefined;
    for (let j = 0; j < size; j++) {
      const object = new ApiObject(chart, `Cm${j}`, configMapProps(0, j));
      if (previous) object.addDependency(previous);
      previous = object;
    }
    app.synth();
  },

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
