import { App, Chart } from 'cdk8s';
import { Builder } from './builder';
import { smallApp } from './small-app-shape';

/** The bare side of the `small` scenario: the same cdk8s-plus objects in one cdk8s `Chart`, `app.synth()`. */
export const bareSmall: Record<string, Builder> = {
  small(outdir, size) {
    const app = new App({ outdir });
    // a chart at the root, as the program was before it was ported: names below a capability are these names
    smallApp(new Chart(app, 'Routing'), size);
    app.synth();
  },
};
