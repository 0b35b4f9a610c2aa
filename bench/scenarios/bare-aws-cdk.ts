import { App, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { Builder } from './builder';
import { PARAMETERS_PER_TENANT, parameterProps } from './sizes';

/**
 * The bare aws-cdk side of the `stacks` scenario: the same 1 + `size` stacks
 * (each tenant depending on the base) under a plain aws-cdk `App`, with the
 * built-in template validator and the analytics resource off (ours has
 * neither), written by `app.synth()`.
 */
export const bareAwsCdk: Record<string, Builder> = {
  stacks(outdir, size) {
    // same as ours: no template validator, no analytics metadata resource
    const app = new App({ outdir, builtinCloudFormationValidation: false, analyticsReporting: false });
    const base = new Stack(app, 'bench-Base');
    new ssm.StringParameter(base, 'Origin', parameterProps('base', 0));
    for (let t = 0; t < size; t++) {
      const tenant = new Stack(app, `bench-tenant${t}`);
      tenant.addStackDependency(base, 'shared base before tenant aggregate');
      for (let r = 0; r < PARAMETERS_PER_TENANT; r++) new ssm.StringParameter(tenant, `P${r}`, parameterProps(`tenant${t}`, r));
    }
    app.synth();
  },
};
