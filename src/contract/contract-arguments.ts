import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { appendAll } from '../private/append';
import { isStack } from '../private/aws-cdk';
import { constructionRefusal } from '../private/misplaced';
import { unknownKeyProblems } from '../private/near-miss';
import { valueText } from '../private/value-text';

/** The code of a contract used wrongly (`ViolationCode.CONTRACT_MISUSE`). */
export const CONTRACT_MISUSE = 'CAP009';

/** What the messages about a contract's arguments name of the contract. */
export interface ContractSubject {
  /** The contract's construct path. */
  readonly path: string;
  /** The id of its capability. */
  readonly capability: string;
  /** The names of its fields, as declared. */
  readonly fields: readonly string[];
}

/** The options `publish` takes, and the tiers of `PublishOptions.tier` (`ssm.ParameterTier`'s values). */
const PUBLISH_OPTIONS = ['readers', 'tier'];
const TIERS = ['Standard', 'Advanced', 'Intelligent-Tiering'];
/** The options `consume` takes. */
const CONSUME_OPTIONS = ['namespace', 'secretStoreName', 'secretStoreKind', 'refreshInterval'];
const STORE_KINDS = ['ClusterSecretStore', 'SecretStore'];

/**
 * The `CAP009` refusal of a contract's method given arguments it cannot take, as it is called (a JavaScript
 * program, or `as any`, can pass anything): one violation naming the contract, `method` and every problem.
 */
export function contractArgumentsRefusal(contract: ContractSubject, method: 'publish' | 'consume', problems: readonly string[]): Error {
  return constructionRefusal(CONTRACT_MISUSE, `contract misuse: ${method} of '${contract.path}': ${problems.join('; ')}`, contract.path);
}

/**
 * Why `publish(stack, values, options)` cannot take its arguments, one line each: empty when it can. Only the
 * shapes are checked here, what would otherwise crash inside aws-cdk or be dropped; the values themselves (a
 * field missing, of the wrong type, a secret) and a stack of another capability are `CAP009` at synth.
 */
export function publishArgumentsProblems(contract: ContractSubject, stack: unknown, values: unknown, options: unknown): string[] {
  const problems: string[] = [];
  if (!isStack(stack)) {
    problems.push(`'stack' (${valueText(stack)}) must be the SharedBase or a DeploymentAggregate of capability '${contract.capability}', the stack that creates the parameter, such as publish(base, values)`);
  }
  if (!isMap(values)) {
    const fields = contract.fields.map((f) => `${f}: ...`).join(', ');
    problems.push(`'values' (${valueText(values)}) must map the contract's fields to their values, such as { ${fields} }`);
  }
  if (options === undefined) return problems;
  if (!isMap(options)) return [...problems, `'options' (${valueText(options)}) must be an object, such as { readers: [role] }`];
  appendAll(problems, unknownKeyProblems(options, PUBLISH_OPTIONS, 'options.'));
  const { readers, tier } = options;
  if (readers !== undefined && !(Array.isArray(readers) && readers.every(isGrantable))) {
    problems.push(`'options.readers' (${valueText(readers)}) must be a list of principals that read the parameter (each an iam.IGrantable: a role, a user, a service account), such as [esoRole]`);
  }
  if (tier !== undefined && !TIERS.includes(tier as string)) {
    problems.push(`'options.tier' (${valueText(tier)}) must be an ssm.ParameterTier: ${TIERS.map((t) => JSON.stringify(t)).join(', ')}`);
  }
  return problems;
}

/**
 * Why `consume(chart, options)` cannot take its arguments, one line each: empty when it can. The chart is the
 * scope of the `ExternalSecret`, which cdk8s creates only in a chart.
 */
export function consumeArgumentsProblems(chart: unknown, options: unknown): string[] {
  const problems: string[] = [];
  if (!(Construct.isConstruct(chart) && chart.node.scopes.some((s) => Chart.isChart(s)))) {
    problems.push(`'chart' (${valueText(chart)}) must be the RuntimeRouting, another cdk8s chart, or a construct in one: the chart that reads the values, such as consume(routing)`);
  }
  if (options === undefined) return problems;
  if (!isMap(options)) return [...problems, `'options' (${valueText(options)}) must be an object, such as { namespace: 'edge' }`];
  appendAll(problems, unknownKeyProblems(options, CONSUME_OPTIONS, 'options.'));
  for (const name of ['namespace', 'secretStoreName', 'refreshInterval'] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== 'string') problems.push(`'options.${name}' (${valueText(value)}) must be a string`);
  }
  const kind = options.secretStoreKind;
  if (kind !== undefined && !STORE_KINDS.includes(kind as string)) {
    problems.push(`'options.secretStoreKind' (${valueText(kind)}) must be ${STORE_KINDS.map((k) => JSON.stringify(k)).join(' or ')}`);
  }
  return problems;
}

function isMap(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && !Construct.isConstruct(x);
}

/** An `iam.IGrantable` by its shape: a `grantPrincipal` that takes policy statements. */
function isGrantable(x: unknown): boolean {
  const principal = (x as { grantPrincipal?: { addToPrincipalPolicy?: unknown } } | null)?.grantPrincipal;
  return typeof principal?.addToPrincipalPolicy === 'function';
}
