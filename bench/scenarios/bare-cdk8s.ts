import { ApiObject, App, Chart } from 'cdk8s';
import { CHAINED_CHARTS, CHART_COUNT, configMapProps } from './sizes';

/**
 * The bare cdk8s side of the runtime scenarios: the same objects under a plain
 * cdk8s `App`, ordered by cdk8s' own `addDependency`, written by `app.synth()`.
 * Loads cdk8s only, as a plain cdk8s program would.
 */
export const bareCdk8s: Record<string, (outdir: string, size: number) => void> = {
  charts(outdir, size) {
    const app = new App({ outdir });
    for (let c = 0; c < CHART_COUNT; c++) {
      const chart = new Chart(app, `Routing${c}`);
      for (let j = 0; j < size; j++) new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
    }
    app.synth();
  },

  chained(outdir, size) {
    const app = new App({ outdir });
    let previous: Chart | undefined;
    for (let c = 0; c < CHAINED_CHARTS; c++) {
      const chart = new Chart(app, `Routing${c}`);
      for (let j = 0; j < size; j++) new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
      if (previous) chart.addDependency(previous);
      previous = chart;
    }
    app.synth();
  },

  chain(outdir, size) {
    const app = new App({ outdir });
    const chart = new Chart(app, 'Routing');
    let previous: ApiObject | undefined;
    for (let j = 0; j < size; j++) {
      const object = new ApiObject(chart, `Cm${j}`, configMapProps(0, j));
      if (previous) object.addDependency(previous);
      previous = object;
    }
    app.synth();
  },
};
