/**
 * Every scenario of `npm run bench`: what it builds, the sizes and runs it is
 * measured at, and its targets.
 */
import { compare, Compared, measureLedger, measureSerializers, previousRelease, RunCounts, Series, stats, tempBase } from './measure';
import type { Row, ScenarioReport, Target } from './report';
import { WRITES_PER_OBJECT } from './scenarios/ledger';
import { SERIALIZERS } from './scenarios/serializers';
import { CHAINED_CHARTS, CHART_COUNT, PARAMETERS_PER_TENANT, REFS_CHARTS, SMALL_APP_GROUP, WRITERS_PER_OBJECT } from './scenarios/sizes';
import { prepareTypecheckApps } from './scenarios/typecheck';
import { completesTarget, floorTarget, fmt, growthTarget, ratioTarget, speedupTarget } from './targets';

/** How the bench was asked to run. */
export interface Options {
  /** Fewer runs and smaller sizes: to check the harness, not to measure. */
  readonly quick: boolean;
  /** Only these scenarios. */
  readonly only?: ReadonlySet<string>;
  /** Profile our slowest scenario at the end. */
  readonly profile: boolean;
  /** Measure at these sizes instead of the scenario's own. */
  readonly sizes?: readonly number[];
  /** Timed runs per side instead of the scenario's own counts. */
  readonly runs?: number;
}

/** A scenario: its id, the sizes it is measured at, and how. */
export interface Scenario {
  readonly id: string;
  /** Sizes of a full run and of a quick run. */
  readonly sizes: { readonly full: readonly number[]; readonly quick: readonly number[] };
  /** Our side reads the lock of a previous release, written by a first synth. */
  readonly previousRelease?: boolean;
  /** Measures every size and evaluates the targets. */
  readonly measure: (o: Options, sizes: readonly number[], log: (line: string) => void) => ScenarioReport;
}

const n = (x: number) => x.toLocaleString('en-US');

/** The counts `o.runs` asks for, else `counts`. */
function runs(o: Options, counts: RunCounts): RunCounts {
  if (o.runs === undefined) return counts;
  return { ...counts, ours: o.runs, bare: counts.bare > 0 ? o.runs : 0, floor: counts.floor ? o.runs : 0 };
}

/** Measures one size, with the lock of a previous release for our side when the scenario has one. */
function measureSize(s: Pick<Scenario, 'id' | 'previousRelease'>, size: number, counts: RunCounts, log: (line: string) => void): Compared {
  if (!s.previousRelease) return compare(s.id, size, counts, log);
  const release = previousRelease(s.id, size, log);
  try {
    return compare(s.id, size, counts, log, release.env);
  } finally {
    release.dispose();
  }
}

/** Counts of a scenario measured at growing sizes: warm-ups at the smallest size only (it warms the caches for the larger ones). */
function growthCounts(o: Options, size: number, sizes: readonly number[], ours: number, bare: number): RunCounts {
  if (o.quick) return { ours: 2, bare: 2 };
  const first = size <= sizes[0];
  return { ours, bare, warmupOurs: first, warmupBare: first };
}

/**
 * Targets shared by the whole-process comparisons: ours/bare wall and CPU, and ours/floor wall when the floor
 * ran, with the bare tool's own distance from the floor beside it (`floorTarget`).
 */
function processTargets(row: Row, maxRatio: number, maxFloorRatio?: number): Target[] {
  const targets = [ratioTarget(row.ours, row.bare, 'processMs', maxRatio), ratioTarget(row.ours, row.bare, 'processCpuMs', maxRatio)];
  if (maxFloorRatio !== undefined) targets.push(floorTarget(row.ours, row.bare, row.floor, maxFloorRatio));
  return targets;
}

const charts: Scenario = {
  id: 'charts',
  sizes: { full: [1000, 10_000], quick: [1000] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => {
      const k = o.quick ? 2 : size >= 10_000 ? 3 : 5;
      return { size, ...measureSize(this, size, runs(o, { ours: k, bare: k, floor: k }), log) };
    });
    const serializers = measureSerializers('charts', sizes[0], Object.keys(SERIALIZERS), o.quick ? 1 : 3, log);
    return {
      id: 'charts',
      title: `${CHART_COUNT} runtime charts x N ConfigMaps`,
      what:
        `Ours: \`CapabilityApp\` > \`Capability\` > ${CHART_COUNT} \`RuntimeRouting\` charts of N ConfigMaps each, \`app.synth()\` with every check. ` +
        `Bare: cdk8s \`App\` with the same ${CHART_COUNT} \`Chart\`s and objects, \`app.synth()\`. ` +
        'Floor: the same ConfigMaps as plain objects, one YAML file per chart (see "What the floor is").',
      kind: 'compare',
      rows,
      serializers,
      // memory at the size the target is set for (10 charts x 1,000)
      targets: rows.flatMap((r) => [...processTargets(r, 1.0, 1.5), ...(r.size === 1000 ? [ratioTarget(r.ours, r.bare, 'maxRssMiB', 1.2)] : [])]),
    };
  },
};

const chained: Scenario = {
  id: 'chained',
  sizes: { full: [100, 200, 400], quick: [100, 200] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => {
      // bare cdk8s takes ~10 s at 400: two runs, no warm-up (the smaller sizes warmed the caches)
      const counts = o.quick ? { ours: 2, bare: 2 } : size >= 400 ? { ours: 5, bare: 2, warmupBare: false } : { ours: 5, bare: 5 };
      return { size, ...measureSize(this, size, runs(o, counts), log) };
    });
    const last = rows[rows.length - 1];
    const note = last.size < 400 ? ' (this run stops below 400, where the target is set)' : '';
    return {
      id: 'chained',
      title: `${CHAINED_CHARTS} chained aggregates x N objects`,
      what:
        `${CHAINED_CHARTS} charts of N ConfigMaps each, every chart depending on the previous one with \`chart.addDependency(previous)\`. ` +
        'Ours: `RuntimeRouting` charts in one `Capability` (our graph turns a chart dependency into barrier nodes, linear in objects). ' +
        'Bare: cdk8s `Chart`s; cdk8s turns it into an edge from every object of one chart to every object of the other.',
      kind: 'compare',
      rows,
      targets: [
        speedupTarget(last.ours, last.bare, 'runMs', 30, note),
        speedupTarget(last.ours, last.bare, 'processMs', 30, note),
        growthTarget(rows.map((r) => r.ours), 'ours roughly linear as N doubles'),
      ],
    };
  },
};

const chain: Scenario = {
  id: 'chain',
  sizes: { full: [10_000, 25_000, 50_000, 100_000], quick: [10_000, 20_000] },
  measure(o, sizes, log) {
    // bare cdk8s crashes (deterministically, after 4 s or more) on a chain of 10,000: measured at the smallest size only, once
    const rows: Row[] = sizes.map((size, i) => {
      const counts = i === 0
        ? { ours: o.quick ? 1 : 2, bare: 1, warmupBare: false }
        : { ours: o.quick || size >= 50_000 ? 2 : 3, bare: 0, warmupOurs: false };
      return { size, ...measureSize(this, size, runs(o, counts), log) };
    });
    const grown = rows.length > 2 ? rows.slice(1) : rows;
    const bare = rows[0].bare ? stats(rows[0].bare) : undefined;
    return {
      id: 'chain',
      title: 'A chain of dependent ConfigMaps',
      what:
        'One chart of N ConfigMaps, each `addDependency` on the one before. Ours: a `RuntimeRouting` chart (one runtime file per step: N files). ' +
        `Bare: a cdk8s \`Chart\`, run at ${n(sizes[0])} only.`,
      kind: 'compare',
      rows,
      targets: [
        completesTarget(rows[rows.length - 1].ours),
        growthTarget(grown.map((r) => r.ours), `ours linear: ${grown.map((r) => `${r.size / 1000}k`).join(', ')}`),
        {
          target: `bare cdk8s at ${n(sizes[0])} (for the record: it is expected to crash)`,
          measured: !bare ? 'not run' : bare.ok === 0 ? `crash after ${fmt(bare.runMs / 1000)} s: ${bare.crash?.error}` : `completed in ${fmt(bare.runMs / 1000)} s`,
          holds: true,
        },
      ],
    };
  },
};

const refs: Scenario = {
  id: 'refs',
  sizes: { full: [25_000, 50_000, 100_000], quick: [5000, 10_000] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => {
      const counts = growthCounts(o, size, sizes, size >= 100_000 ? 2 : 3, 2);
      return { size, ...measureSize(this, size, runs(o, counts), log) };
    });
    return {
      id: 'refs',
      title: 'Ordering N objects with references by name',
      what:
        `N objects in ${REFS_CHARTS} charts (one namespace each), in groups of a Deployment and the ConfigMap, Secret and ServiceAccount it names ` +
        '(`envFrom.configMapRef`, a Secret volume, `serviceAccountName`), each Deployment declared before what it names. ' +
        'Ours: `RuntimeRouting` charts, every check (the reference check resolves each name). Bare: cdk8s `Chart`s, which neither check nor order by reference; shown for scale.',
      kind: 'compare',
      rows,
      targets: [completesTarget(rows[rows.length - 1].ours), growthTarget(rows.map((r) => r.ours), `ours linear: ${sizes.map((s) => `${s / 1000}k`).join(', ')}`)],
    };
  },
};

const contributions: Scenario = {
  id: 'contributions',
  sizes: { full: [2500, 5000, 10_000], quick: [1000, 2000] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => ({ size, ...measureSize(this, size, runs(o, growthCounts(o, size, sizes, 3, 3)), log) }));
    return {
      id: 'contributions',
      title: 'N disjoint Contributions into one object',
      what:
        'One ConfigMap in one chart, and N writers (each its own construct) writing one `data` key each. ' +
        'Ours: `new Contribution(writer, id, { target, fields: { data: { key: value } } })`, recorded in the field ledger and merged at synth. ' +
        'Bare: `target.addJsonPatch(JsonPatch.add("/data/key", value))`.',
      kind: 'compare',
      rows,
      targets: [completesTarget(rows[rows.length - 1].ours), growthTarget(rows.map((r) => r.ours), `ours linear: ${sizes.map(n).join(', ')} writers into one object`)],
    };
  },
};

const writers: Scenario = {
  id: 'writers',
  sizes: { full: [25_000, 50_000, 100_000], quick: [5000, 10_000] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => ({ size, ...measureSize(this, size, runs(o, growthCounts(o, size, sizes, 3, 3)), log) }));
    return {
      id: 'writers',
      title: 'N writers overall',
      what:
        `N / ${WRITERS_PER_OBJECT} ConfigMaps in ${CHART_COUNT} charts, each written by ${WRITERS_PER_OBJECT} teams on disjoint \`data\` keys, one writer construct per write: N writers in all. ` +
        'Ours: `Contribution`s in `RuntimeRouting` charts. Bare: JSON patches in cdk8s `Chart`s.',
      kind: 'compare',
      rows,
      targets: [completesTarget(rows[rows.length - 1].ours), growthTarget(rows.map((r) => r.ours), `ours linear: ${sizes.map((s) => `${s / 1000}k`).join(', ')} writers`)],
    };
  },
};

const callbacks: Scenario = {
  id: 'callbacks',
  sizes: { full: [1000, 2000, 4000, 10_000], quick: [250, 500] },
  measure(o, sizes, log) {
    // a run at 10,000 takes minutes: one, whatever --runs asks
    const counts = (size: number): RunCounts =>
      (size >= 10_000 && !o.quick ? { ours: 1, bare: 3, warmupOurs: false } : runs(o, growthCounts(o, size, sizes, 3, 3)));
    const rows: Row[] = sizes.map((size) => ({ size, ...measureSize(this, size, counts(size), log) }));
    return {
      id: 'callbacks',
      title: 'N write callbacks into one object',
      what:
        'One ConfigMap in one chart, and N writers (each its own construct) adding one label each through the object\'s own API. ' +
        'Ours: `new Contribution(writer, id, { target, write: (t) => t.metadata.addLabel(key, value) })`: the target, a plain `ApiObject`, is rendered ' +
        'once before the callbacks and once after them, and each callback\'s labels are recorded as it writes them (a callback writing anything but labels ' +
        'and annotations would be rendered after it). Bare: `target.metadata.addLabel(key, value)`.',
      kind: 'compare',
      rows,
      targets: [completesTarget(rows[rows.length - 1].ours), growthTarget(rows.map((r) => r.ours), `ours linear: ${sizes.map(n).join(', ')} callbacks into one object`)],
    };
  },
};

const callbackWriters: Scenario = {
  id: 'callbackWriters',
  sizes: { full: [10_000, 20_000, 40_000], quick: [2000, 4000] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => ({ size, ...measureSize(this, size, runs(o, growthCounts(o, size, sizes, 2, 2)), log) }));
    return {
      id: 'callbackWriters',
      title: 'N write callbacks overall',
      what:
        `N / ${WRITERS_PER_OBJECT} ConfigMaps in ${CHART_COUNT} charts, each written by ${WRITERS_PER_OBJECT} teams adding one label each through a write callback: N callbacks in all. ` +
        'Ours: `Contribution`s with `write` in `RuntimeRouting` charts. Bare: `metadata.addLabel` in cdk8s `Chart`s.',
      kind: 'compare',
      rows,
      targets: [completesTarget(rows[rows.length - 1].ours), growthTarget(rows.map((r) => r.ours), `ours linear: ${sizes.map((s) => `${s / 1000}k`).join(', ')} callbacks`)],
    };
  },
};

const stacks: Scenario = {
  id: 'stacks',
  sizes: { full: [200], quick: [200] },
  measure(o, sizes, log) {
    const counts = { ours: o.quick ? 1 : 3, bare: o.quick ? 1 : 3, warmupOurs: false, warmupBare: false };
    const rows: Row[] = sizes.map((size) => ({ size, ...measureSize(this, size, runs(o, counts), log) }));
    return {
      id: 'stacks',
      title: `N DeploymentAggregates x ${PARAMETERS_PER_TENANT} resources`,
      what:
        `Ours: one \`Capability\` with a \`SharedBase\` (1 SSM parameter) and N \`DeploymentAggregate\`s of ${PARAMETERS_PER_TENANT} \`ssm.StringParameter\`s each (distinct names), \`app.synth()\`. ` +
        'Bare: aws-cdk `App({ builtinCloudFormationValidation: false })` with the same N + 1 stacks, each tenant `addStackDependency(base)` as ours adds, `app.synth()`. ' +
        '(This was the `tenants` scenario before the realistic one below took the name.)',
      kind: 'compare',
      rows,
      targets: rows.flatMap((r) => [ratioTarget(r.ours, r.bare, 'runMs', 1.15), ratioTarget(r.ours, r.bare, 'processMs', 1.15)]),
    };
  },
};

const small: Scenario = {
  id: 'small',
  sizes: { full: [100], quick: [100] },
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => {
      const k = o.quick ? 3 : 10;
      return { size, ...measureSize(this, size, runs(o, { ours: k, bare: k, floor: k }), log) };
    });
    return {
      id: 'small',
      title: 'A small app: one chart, N objects',
      what:
        `One chart of N objects written with cdk8s-plus: N / ${SMALL_APP_GROUP} apps of a \`ConfigMap\`, a \`ServiceAccount\`, a \`Deployment\` that reads both and a \`Service\`. ` +
        'Ours: in a `RuntimeRouting` of one runtime-only `Capability` (`cdk-capability/runtime`: no aws-cdk-lib module is loaded). Bare: in a cdk8s `Chart`. ' +
        'What counts here is the whole process: node start-up and module loading are most of it.',
      kind: 'compare',
      rows,
      targets: rows.flatMap((r) => [...processTargets(r, 1.15, 1.5), ratioTarget(r.ours, r.bare, 'maxRssMiB', 1.2)]),
    };
  },
};

const typecheck: Scenario = {
  id: 'typecheck',
  sizes: { full: [100], quick: [100] },
  measure(o, sizes, log) {
    const apps = prepareTypecheckApps(tempBase(), log);
    try {
      const rows: Row[] = sizes.map((size) => {
        const k = o.quick ? 2 : 5;
        return { size, ...compare(this.id, size, runs(o, { ours: k, bare: k }), log, apps.env) };
      });
      return {
        id: 'typecheck',
        title: 'A small runtime-only app, type-checked as `cdk8s synth` runs it',
        what:
          'The objects of `small`, in a `main.ts` run as cdk8s\' default `app:` line runs it: `ts-node main.ts` with type-checking ' +
          '(ts-node registered with `transpileOnly: false` and cdk8s\' `typescript-app` template compiler options, then the program required), so type-checking the program ' +
          'against every declaration file it reaches is part of the process. Ours imports `cdk-capability/runtime` from this package as installed (`lib/bundle.js` and tsc\'s ' +
          'declarations, beside the peers in the app\'s `node_modules`): its declarations name nothing of aws-cdk-lib. Bare imports cdk8s and cdk8s-plus only.',
        kind: 'compare',
        rows,
        targets: rows.flatMap((r) => [ratioTarget(r.ours, r.bare, 'processMs', 1.5), ratioTarget(r.ours, r.bare, 'processCpuMs', 1.5)]),
      };
    } finally {
      apps.dispose();
    }
  },
};

const tenants: Scenario = {
  id: 'tenants',
  sizes: { full: [30, 100, 300, 1000], quick: [30, 100] },
  previousRelease: true,
  measure(o, sizes, log) {
    const rows: Row[] = sizes.map((size) => {
      const k = o.quick ? 2 : size >= 1000 ? 3 : 5;
      return { size, ...measureSize(this, size, runs(o, { ours: k, bare: k, floor: k }), log) };
    });
    const serializers = measureSerializers('tenants', sizes[sizes.length - 1], Object.keys(SERIALIZERS), o.quick ? 1 : 3, log);
    return {
      id: 'tenants',
      title: 'N tenants, a release after the first',
      what:
        'One capability of N tenants. Per tenant: a stack of three resources (two SSM parameters, one naming the shared queue\'s ARN across stacks, and a queue), ' +
        'a cdk8s-plus Deployment and Service, an HTTPRoute on the tenant header, and an annotation on the Deployment from a second team. ' +
        'Shared: a base stack with the queue, the tenant header published from it and bound into the runtime (an SSM parameter, its reader policy, an ExternalSecret), a Namespace. ' +
        'Ours: `SharedBase`, `DeploymentAggregate`s, one `RuntimeRouting` with `addBackend` and `addTenantRoute`, an `InterfaceContract`, `Contribution`s; ' +
        'before the measured runs of each size a first synth with `CDK_CAPABILITY_UPDATE_LOCK=1` writes the lock (`lockFile` in a temp folder), so every measured synth is a second release and runs the release checks against it. ' +
        'Bare: the same objects with plain aws-cdk (`Stack`s, `addStackDependency`, the parameter and policy by hand) and plain cdk8s (a `Chart`, cdk8s-plus, an `ApiObject` route and ExternalSecret, `metadata.addAnnotation`), each app synthesized by `synth()`; ' +
        'templates byte-identical to ours, manifests identical up to key order. Floor: the same objects as plain objects (see "What the floor is").',
      kind: 'compare',
      rows,
      serializers,
      targets: rows.flatMap((r) => [...processTargets(r, 1.1, 1.5), ratioTarget(r.ours, r.bare, 'maxRssMiB', 1.2)]),
    };
  },
};

const validated: Scenario = {
  id: 'validated',
  sizes: { full: [100], quick: [30] },
  measure(o, sizes, log) {
    // the validator's engine takes seconds to start on either side: three runs, one warm-up each
    const rows: Row[] = sizes.map((size) => ({ size, ...compare(this.id, size, runs(o, { ours: o.quick ? 1 : 3, bare: o.quick ? 1 : 3 }), log, { CDK_VALIDATION: 'true' }) }));
    return {
      id: 'validated',
      title: 'N tenants with aws-cdk\'s template validator on',
      what:
        'The objects of `tenants` (a first release: no lock), with aws-cdk\'s built-in template validator on, as an app runs by default ' +
        '(every child with `CDK_VALIDATION=true`; bare: `App({ builtinCloudFormationValidation: true })`). Ours validates every stack of the synth in one call of one ' +
        'validator per process, as an aws-cdk App does; one validator per stack cost its start-up per stack and never freed it (10 tenants took 28 s and 1.6 GiB, 100 crashed).',
      kind: 'compare',
      rows,
      targets: rows.flatMap((r) => [ratioTarget(r.ours, r.bare, 'processMs', 1.1), ratioTarget(r.ours, r.bare, 'maxRssMiB', 1.2)]),
    };
  },
};

const ledger: Scenario = {
  id: 'ledger',
  sizes: { full: [100_000], quick: [100_000] },
  measure(o, sizes, log) {
    const writes = sizes[0];
    const series: Series = measureLedger(writes, o.runs ?? (o.quick ? 2 : 5), log);
    const s = stats(series);
    return {
      id: 'ledger',
      title: `Field ledger, ${n(writes)} writes`,
      what:
        `\`new FieldLedger()\`, ${n(writes)} \`record()\` calls over ${n(writes / WRITES_PER_OBJECT)} objects ` +
        '(two writers per object, leaves 3 to 6 segments deep, one contested leaf on every hundredth object), then `conflicts()` alone timed with `process.hrtime` in its own process.',
      kind: 'ledger',
      rows: [{ size: writes, ours: series }],
      targets: [{ target: '`conflicts()` < 0.5 s', measured: `${fmt(s.runMs, 1)} ms`, holds: s.ok > 0 && s.runMs < 500 }],
    };
  },
};

/** Every scenario, in the order a full run measures them. */
export const SCENARIOS: readonly Scenario[] = [
  charts, chained, chain, refs, contributions, writers, callbacks, callbackWriters, stacks, small, typecheck, tenants, validated, ledger,
];
