import { App, aws_ssm as ssm, Stack } from 'aws-cdk-lib';
import { PARAMETERS_PER_TENANT, parameterProps } from './sizes';

/**
 * The bare aws-cdk side of the `tenants` scenario: the same 1 + `size` stacks
 * (each tenant depending on the base) under a plain aws-cdk `App`, with the
 * built-in template validator off as in our unit tests, written by `app.synth()`.
 */
export const bareAwsCdk: Record<string, (outdir: string, size: number) => void> = {
  tenants(outdir, size) {
    const app = new App({ outdir, builtinCloudFormationValidation: false });
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
