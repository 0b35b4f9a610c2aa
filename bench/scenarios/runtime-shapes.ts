import { ApiObject, Chart } from 'cdk8s';
import { CHAINED_CHARTS, CHART_COUNT, configMapProps } from './sizes';

/**
 * The object shapes of the runtime scenarios, built the same way on both
 * sides: each side only says how to make a chart (a cdk8s `Chart`, or our
 * `RuntimeRouting`). Loads cdk8s only, so the bare side never loads this library.
 */
export const runtimeShapes = {
  /** `CHART_COUNT` charts of `size` ConfigMaps each. */
  charts(makeChart: (id: string) => Chart, size: number): void {
    for (let c = 0; c < CHART_COUNT; c++) fill(makeChart(`Routing${c}`), c, size);
  },

  /** `CHAINED_CHARTS` charts of `size` ConfigMaps, each chart depending on the previous one. */
  chained(makeChart: (id: string) => Chart, size: number): void {
    let previous: Chart | undefined;
    for (let c = 0; c < CHAINED_CHARTS; c++) {
      const chart = makeChart(`Routing${c}`);
      fill(chart, c, size);
      if (previous) chart.addDependency(previous);
      previous = chart;
    }
  },

  /** One chart of `size` ConfigMaps, each depending on the one before it. */
  chain(makeChart: (id: string) => Chart, size: number): void {
    const chart = makeChart('Routing');
    let previous: ApiObject | undefined;
    for (let j = 0; j < size; j++) {
      const object = new ApiObject(chart, `Cm${j}`, configMapProps(0, j));
      if (previous) object.addDependency(previous);
      previous = object;
    }
  },
};

function fill(chart: Chart, c: number, size: number): void {
  for (let j = 0; j < size; j++) new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
}
