import { App, Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { hasBrand } from '../private/brand';

/** cdk8s' static that renders one chart (`Chart.toJson`, so `Testing.synth`, calls it): internal to cdk8s. */
interface ChartSynthesizer {
  _synthChart?: (chart: Chart) => unknown[];
}

let chartSynthPatched = false;
/** The `Node` prototypes whose `dependencies` getter leaves out those outside charts now, while cdk8s walks them. */
const narrowed = new Set<object>();

/**
 * Makes cdk8s' rendering of a chart of a `CapabilityApp` (`chart.toJson()`, which cdk8s' `Testing.synth` calls)
 * see only the dependencies between constructs under charts, as `chartDependenciesOnly` does; a chart of a plain
 * cdk8s app renders as cdk8s renders it. Idempotent.
 */
export function renderChartsWithChartDependenciesOnly(): void {
  if (chartSynthPatched) return;
  const synthesizer = App as unknown as ChartSynthesizer;
  const original = synthesizer._synthChart;
  // a cdk8s without it renders charts some other way: nothing to narrow
  if (typeof original !== 'function') return;
  chartSynthPatched = true;
  synthesizer._synthChart = function _synthChart(this: unknown, chart: Chart): unknown[] {
    const root = chart?.node?.root;
    if (!hasBrand(root, 'CapabilityApp')) return original.call(this, chart);
    return chartDependenciesOnly(root, () => original.call(this, chart));
  };
}

/**
 * Runs `render` (cdk8s' rendering of charts of `root`'s tree: `App.synthYaml`, `Chart.toJson`) with every
 * construct's `node.dependencies` leaving out each dependency whose source or target is not under a chart.
 * cdk8s turns every dependency of the app's tree into one between the charts that hold its ends, and finds no
 * chart for a construct of a stack (an aws-cdk Lambda depends on its role): it would throw `cannot find a parent
 * chart`. The dependencies between charts' constructs, the only ones cdk8s orders, are read as cdk8s reads them,
 * so the YAML is cdk8s' own. Synchronous: the getter is restored when `render` returns or throws.
 */
export function chartDependenciesOnly<T>(root: IConstruct, render: () => T): T {
  const proto = Object.getPrototypeOf(root.node) as object;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'dependencies');
  const get = descriptor?.get;
  // already narrowed (synthYaml renders each chart through toJson), or a constructs without the getter
  if (narrowed.has(proto) || !descriptor || !get) return render();
  const underChart = new Map<IConstruct, boolean>();
  const isUnderChart = (c: IConstruct): boolean => {
    let known = underChart.get(c);
    if (known === undefined) {
      const scope = c.node.scope;
      known = Chart.isChart(c) || (scope !== undefined && isUnderChart(scope));
      underChart.set(c, known);
    }
    return known;
  };
  Object.defineProperty(proto, 'dependencies', {
    ...descriptor,
    get(this: { host?: IConstruct; _host?: IConstruct }) {
      const all = get.call(this) as IConstruct[];
      const host = this.host ?? this._host;
      if (all.length === 0 || host === undefined) return all;
      return isUnderChart(host) ? all.filter(isUnderChart) : [];
    },
  });
  narrowed.add(proto);
  try {
    return render();
  } finally {
    narrowed.delete(proto);
    Object.defineProperty(proto, 'dependencies', descriptor);
  }
}
