import { Builder, lockFileFor } from './builder';
import { runtimeShapes } from './runtime-shapes';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from 'cdk-capability/runtime';

/**
 * Our side of the runtime-only scenarios written with plain cdk8s objects, on `cdk-capability/runtime` (it
 * loads no aws-cdk-lib module), as the README tells a composition of charts alone to import it: a
 * `CapabilityApp` built and synthesized into `outdir` with `app.synth()` (checks, plan, atomic write
 * included). Loads no cdk8s-plus.
 */
export const oursCharts: Record<string, Builder> = {
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

};
