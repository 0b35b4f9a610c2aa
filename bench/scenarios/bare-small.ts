import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Builder } from './builder';
import { smallApp } from './small-app-shape';

/** The bare side of the `small` scenario: the same cdk8s-plus objects in one cdk8s `Chart`, `app.synth()`. */
export const bareSmall: Record<string, Builder> = {
  small(outdir, size) {
    const app = new App({ outdir });
    // under a construct named like our capability, so cdk8s-plus derives the same selector labels from the same paths
    smallApp(new Chart(new Construct(app, 'bench'), 'Routing'), size);
    app.synth();
  },
};
