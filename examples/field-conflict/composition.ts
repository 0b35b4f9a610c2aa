// The incident of BACKGROUND.md, failure 1, as a composition: a deployment controller and a
// network controller both write the `ApplicationDeployment` app1. Plain cdk8s emits both
// objects and whichever is applied last wins; cdk-capability refuses it, then merges the fix.
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../../src';

const app1 = { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'prod' } };
const deploymentFields = {
  spec: {
    timers: { rollout: '5m', healthCheck: '30s' },
    entityConfigurations: [{ entity: 'checkout', replicas: 3 }],
  },
};

/**
 * Builds the composition.
 *
 * @param fixed false: both controllers declare app1 (refused, CAP001);
 *   true: the network controller declares it, the deployment controller contributes its fields
 */
export function build(fixed: boolean): CapabilityApp {
  const app = new CapabilityApp();
  const routing = new RuntimeRouting(new Capability(app, 'platform'), 'Routing');
  const network = new Construct(routing, 'NetworkController');
  const deployment = new Construct(routing, 'DeploymentController');

  const declared = new ApiObject(network, 'App1', { ...app1, spec: { applicationId: 'app1' } });
  if (fixed) {
    // Each controller owns its own fields of the one object: they merge at synth.
    new Contribution(deployment, 'Fields', { target: declared, fields: deploymentFields });
  } else {
    // Two declarations of one object: refused with CAP001 naming both writers.
    new ApiObject(deployment, 'App1', { ...app1, ...deploymentFields });
  }
  return app;
}
