import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { CHAINED_CHARTS, CHART_COUNT, configMapProps, REFS_CHARTS, REFS_GROUP, WRITERS_PER_OBJECT } from './sizes';

/**
 * How one side makes what the runtime shapes need: a chart (a cdk8s `Chart`,
 * or our `RuntimeRouting`) and a write of fields into an object declared by
 * another construct (a JSON patch, or our `Contribution`).
 */
export interface RuntimeSide {
  /** A new chart. */
  chart(id: string): Chart;
  /** Writes `fields` into `target` on behalf of `writer` (a new construct `id` under it on our side). */
  contribute(writer: Construct, id: string, target: ApiObject, fields: Record<string, unknown>): void;
  /**
   * Writes into `target` through its own API on behalf of `writer`: a write
   * callback of a new construct `id` under it on our side, the call itself on
   * the bare side.
   */
  writeThrough(writer: Construct, id: string, target: ApiObject, write: (target: ApiObject) => void): void;
}

/**
 * The object shapes of the runtime scenarios, built the same way on both
 * sides. Loads cdk8s only, so the bare side never loads this library.
 */
export const runtimeShapes: Record<string, (side: RuntimeSide, size: number) => void> = {
  /** `CHART_COUNT` charts of `size` ConfigMaps each. */
  charts(side, size) {
    for (let c = 0; c < CHART_COUNT; c++) fill(side.chart(`Routing${c}`), c, size);
  },

  /** `CHAINED_CHARTS` charts of `size` ConfigMaps, each chart depending on the previous one. */
  chained(side, size) {
    let previous: Chart | undefined;
    for (let c = 0; c < CHAINED_CHARTS; c++) {
      const chart = side.chart(`Routing${c}`);
      fill(chart, c, size);
      if (previous) chart.addDependency(previous);
      previous = chart;
    }
  },

  /** One chart of `size` ConfigMaps, each depending on the one before it. */
  chain(side, size) {
    const chart = side.chart('Routing');
    let previous: ApiObject | undefined;
    for (let j = 0; j < size; j++) {
      const object = new ApiObject(chart, `Cm${j}`, configMapProps(0, j));
      if (previous) object.addDependency(previous);
      previous = object;
    }
  },

  /**
   * `size` objects in `REFS_CHARTS` charts (one namespace each): groups of a
   * Deployment and the ConfigMap, Secret and ServiceAccount it names
   * (`envFrom`, a Secret volume, `serviceAccountName`). Each Deployment is
   * declared before the objects it names, so ordering by reference has to move
   * every one of them.
   */
  refs(side, size) {
    const groups = Math.floor(size / REFS_CHARTS / REFS_GROUP);
    for (let c = 0; c < REFS_CHARTS; c++) {
      const chart = side.chart(`Refs${c}`);
      const namespace = `refs-${c}`;
      for (let g = 0; g < groups; g++) {
        const name = `app-${g}`;
        new ApiObject(chart, `Deployment${g}`, referringDeployment(namespace, name));
        new ApiObject(chart, `ConfigMap${g}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { LOG_LEVEL: 'info', GROUP: String(g) } });
        new ApiObject(chart, `Secret${g}`, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: { TOKEN: Buffer.from(`token-${c}-${g}`).toString('base64') } });
        new ApiObject(chart, `ServiceAccount${g}`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
      }
    }
  },

  /** One ConfigMap that `size` writers (each its own construct) write disjoint `data` keys into. */
  contributions(side, size) {
    const chart = side.chart('Routing');
    const target = new ApiObject(chart, 'Shared', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'bench' }, data: { owner: 'routing' } });
    const teams = new Construct(chart, 'Teams');
    for (let w = 0; w < size; w++) side.contribute(teams, `Writer${w}`, target, { data: { [`key-${w}`]: String(w) } });
  },

  /** One ConfigMap that `size` write callbacks (each its own construct) each add one label to, through `metadata.addLabel`. */
  callbacks(side, size) {
    const chart = side.chart('Routing');
    const target = new ApiObject(chart, 'Shared', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'bench' }, data: { owner: 'routing' } });
    const teams = new Construct(chart, 'Teams');
    for (let w = 0; w < size; w++) side.writeThrough(teams, `Writer${w}`, target, (t) => t.metadata.addLabel(`team-${w}`, String(w)));
  },

  /**
   * `size` write callbacks overall: `size / WRITERS_PER_OBJECT` ConfigMaps over
   * `CHART_COUNT` charts, each written by `WRITERS_PER_OBJECT` teams, one
   * label each through `metadata.addLabel`.
   */
  callbackWriters(side, size) {
    teamsWriting(side, size, (team, id, target, value, w) => side.writeThrough(team, id, target, (t) => t.metadata.addLabel(`team-${w}`, value)));
  },

  /**
   * `size` writers overall: `size / WRITERS_PER_OBJECT` ConfigMaps over
   * `CHART_COUNT` charts, each written by `WRITERS_PER_OBJECT` teams (one
   * contribution construct per write) on disjoint `data` keys.
   */
  writers(side, size) {
    teamsWriting(side, size, (team, id, target, value, w) => side.contribute(team, id, target, { data: { [`team-${w}`]: value } }));
  },
};

/**
 * `size` writes overall: `size / WRITERS_PER_OBJECT` ConfigMaps over
 * `CHART_COUNT` charts, each written once by each of `WRITERS_PER_OBJECT`
 * teams (one construct per write): `write(team, id, target, value, w)`.
 */
function teamsWriting(
  side: RuntimeSide,
  size: number,
  write: (team: Construct, id: string, target: ApiObject, value: string, w: number) => void,
): void {
  const perChart = Math.floor(size / WRITERS_PER_OBJECT / CHART_COUNT);
  for (let c = 0; c < CHART_COUNT; c++) {
    const chart = side.chart(`Routing${c}`);
    const teams = Array.from({ length: WRITERS_PER_OBJECT }, (_, w) => new Construct(chart, `Team${w}`));
    for (let j = 0; j < perChart; j++) {
      const target = new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
      for (let w = 0; w < WRITERS_PER_OBJECT; w++) write(teams[w], `Cm${j}`, target, `cm-${c}-${j}`, w);
    }
  }
}

function fill(chart: Chart, c: number, size: number): void {
  for (let j = 0; j < size; j++) new ApiObject(chart, `Cm${j}`, configMapProps(c, j));
}

/** A Deployment that names its ConfigMap, Secret and ServiceAccount (all called `name`). */
function referringDeployment(namespace: string, name: string) {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: name,
          containers: [{ name: 'app', image: 'ghcr.io/example/app:1.0.0', envFrom: [{ configMapRef: { name } }], volumeMounts: [{ name: 'token', mountPath: '/var/run/token' }] }],
          volumes: [{ name: 'token', secret: { secretName: name } }],
        },
      },
    },
  };
}
