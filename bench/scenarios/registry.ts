import type { Builder } from './builder';

/** The sides that build a scenario's objects and write them. */
export type BuildSide = 'ours' | 'bare' | 'floor';

/**
 * Where each side's builder of each scenario lives: `[module, export]`. A
 * child loads that one module, so each side loads only its own tools (a bare
 * cdk8s run never loads aws-cdk-lib or this library; a floor run loads `yaml`
 * only; only the cdk8s-plus scenarios load cdk8s-plus).
 */
const BUILDERS: Record<BuildSide, Record<string, readonly [string, string]>> = {
  ours: {
    charts: ['./ours-charts', 'oursCharts'],
    chained: ['./ours-charts', 'oursCharts'],
    chain: ['./ours-charts', 'oursCharts'],
    refs: ['./ours-charts', 'oursCharts'],
    contributions: ['./ours-charts', 'oursCharts'],
    writers: ['./ours-charts', 'oursCharts'],
    callbacks: ['./ours-charts', 'oursCharts'],
    callbackWriters: ['./ours-charts', 'oursCharts'],
    stacks: ['./ours', 'ours'],
    small: ['./ours-runtime', 'oursRuntime'],
    typecheck: ['./typecheck', 'oursTypecheck'],
    tenants: ['./ours-plus', 'oursPlus'],
    validated: ['./ours-plus', 'oursPlus'],
  },
  bare: {
    charts: ['./bare-cdk8s', 'bareCdk8s'],
    chained: ['./bare-cdk8s', 'bareCdk8s'],
    chain: ['./bare-cdk8s', 'bareCdk8s'],
    refs: ['./bare-cdk8s', 'bareCdk8s'],
    contributions: ['./bare-cdk8s', 'bareCdk8s'],
    writers: ['./bare-cdk8s', 'bareCdk8s'],
    callbacks: ['./bare-cdk8s', 'bareCdk8s'],
    callbackWriters: ['./bare-cdk8s', 'bareCdk8s'],
    stacks: ['./bare-aws-cdk', 'bareAwsCdk'],
    small: ['./bare-small', 'bareSmall'],
    typecheck: ['./typecheck', 'bareTypecheck'],
    tenants: ['./bare-tenants', 'bareTenants'],
    validated: ['./bare-tenants', 'bareTenants'],
  },
  floor: {
    charts: ['./floor', 'floor'],
    small: ['./floor', 'floor'],
    tenants: ['./floor', 'floor'],
  },
};

/** True when `side` has a builder for `scenario`. */
export function hasBuilder(side: BuildSide, scenario: string): boolean {
  return BUILDERS[side]?.[scenario] !== undefined;
}

/** The scenarios `side` builds. */
export function scenariosOf(side: BuildSide): string[] {
  return Object.keys(BUILDERS[side]);
}

/**
 * Loads `side`'s builder of `scenario` (and only its module).
 *
 * @throws when there is none
 */
export function loadBuilder(side: BuildSide, scenario: string): Builder {
  const where = BUILDERS[side]?.[scenario];
  if (!where) throw new Error(`unknown scenario '${scenario}' for side '${side}' (known: ${Object.keys(BUILDERS[side] ?? {}).join(', ')})`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const builder = (require(where[0]) as Record<string, Record<string, Builder>>)[where[1]][scenario];
  if (!builder) throw new Error(`${where[0]} exports no '${scenario}' in ${where[1]}`);
  return builder;
}
