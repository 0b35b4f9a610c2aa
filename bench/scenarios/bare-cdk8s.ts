import { App, Chart } from 'cdk8s';
import { runtimeShapes } from './runtime-shapes';

/**
 * The bare cdk8s side of the runtime scenarios: the same objects under a plain
 * cdk8s `App`, ordered by cdk8s' own `addDependency`, written by `app.synth()`.
 * Loads cdk8s only, as a plain cdk8s program would.
 */
export const bareCdk8s: Record<string, (outdir: string, size: number) => void> = Object.fromEntries(
  Object.entries(runtimeShapes).map(([name, shape]) => [
    name,
    (outdir: string, size: number) => {
      const app = new App({ outdir });
      shape((id) => new Chart(app, id), size);
      app.synth();
    },
  ]),
);
