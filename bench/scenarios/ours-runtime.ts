import { Builder, lockFileFor } from './builder';
import { smallApp } from './small-app-shape';
import { Capability, CapabilityApp, RuntimeRouting } from 'cdk-capability/runtime';

/** Our side of the small app, on `cdk-capability/runtime`: it loads no aws-cdk-lib module (the plain-cdk8s shapes are in ours-charts.ts, which loads no cdk8s-plus). */
export const oursRuntime: Record<string, Builder> = {
  /** One RuntimeRouting chart of `size` cdk8s-plus objects, in the runtime-only Capability. */
  small(outdir, size, options) {
    const app = new CapabilityApp({ outdir, lockFile: lockFileFor(outdir, options) });
    smallApp(new RuntimeRouting(new Capability(app, 'bench'), 'Routing'), size);
    app.synth();
  },
};
