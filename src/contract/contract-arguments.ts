import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { appendAll } from '../private/append';
import { isStack } from '../private/aws-cdk';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from '../private/dns-names';
import { envVarNameFor, envVarNameLike, envVarNameProblem } from '../private/env-var-name';
import { fieldHandleOrigin } from '../private/field-handle';
import { dnsLabelLike } from '../private/invalid-input';
import { constructionRefusal } from '../private/misplaced';
import { nearMiss, unknownKeyProblems } from '../private/near-miss';
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
  if (!isMap(values) || values instanceof Map) {
    const fields = contract.fields.map((f) => `${f}: ...`).join(', ');
    const given = values instanceof Map ? 'a Map' : valueText(values);
    problems.push(`'values' (${given}) must map the contract's fields to their values, such as { ${fields} }`);
  } else {
    appendAll(problems, Object.entries(values).flatMap(([name, value]) => publishedValueProblems(name, value)));
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
 * Why `publish` cannot take `value` as the value of the field `name`, as it is called: a handle `consume` made
 * (a runtime value, read from a Secret at deploy time, and no value at synth) or a function, either of which
 * aws-cdk would fail to resolve into the parameter with a message that names neither. Values of another type
 * are the `CAP009` of synth, which names the field's type.
 */
function publishedValueProblems(name: string, value: unknown): string[] {
  const handle = fieldHandleOrigin(value);
  if (handle) {
    return [
      `'values.${name}' is the handle of field '${handle.field}' of '${handle.contract}' that consume() returned: a runtime value, read by a pod from the Secret the contract binds, ` +
        'which no stack can publish. Publish the deployment-time value itself: a literal, or an aws-cdk value such as distribution.domainName',
    ];
  }
  if (typeof value === 'function') return [`'values.${name}' (${valueText(value)}) must be a value, not a function: call it, and publish what it returns`];
  return [];
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
  const { namespace, secretStoreName, refreshInterval } = options;
  if (typeof namespace === 'string' && !DNS1123_LABEL.test(namespace)) {
    const like = dnsLabelLike(namespace);
    problems.push(`'options.namespace' (${valueText(namespace)}) must be a namespace, a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters) such as ${JSON.stringify(like || 'edge')}, or left out for the chart's namespace`);
  }
  if (typeof secretStoreName === 'string' && !DNS1123_SUBDOMAIN.test(secretStoreName)) {
    problems.push(`'options.secretStoreName' (${valueText(secretStoreName)}) must be the name of the External Secrets store, a DNS-1123 subdomain (lowercase letters, digits, '-' and '.') such as 'aws-parameter-store', or left out for that one`);
  }
  if (typeof refreshInterval === 'string' && !GO_DURATION.test(refreshInterval)) {
    problems.push(`'options.refreshInterval' (${valueText(refreshInterval)}) must be a duration as the External Secrets Operator reads it (Go's time.ParseDuration), such as '1h', '15m' or '1h30m', or '0' to read the parameter once`);
  }
  const kind = options.secretStoreKind;
  if (kind !== undefined && !STORE_KINDS.includes(kind as string)) {
    problems.push(`'options.secretStoreKind' (${valueText(kind)}) must be ${STORE_KINDS.map((k) => JSON.stringify(k)).join(' or ')}`);
  }
  return problems;
}

/**
 * A duration as Go's `time.ParseDuration` reads it, without a sign: `0`, or numbers each with a unit (`1h30m`, `1.5s`).
 * The two micro signs Go takes (U+00B5, U+03BC) are escapes: one character outside Latin-1 in lib/bundle.js makes V8
 * hold the whole 1.2 MB source two bytes a character.
 */
const GO_DURATION = /^(0|((\d+(\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;

/** The options of a binding that every `consume` in its namespace shares, as the ExternalSecret holds them. */
export interface BindingOptions {
  readonly secretStoreName: string;
  readonly secretStoreKind: string;
  readonly refreshInterval: string;
}

/**
 * Why `consume` cannot take `options` where `binding` already binds the contract (one ExternalSecret per
 * namespace): each option given that differs from the binding's would be dropped without a word.
 *
 * @param where the binding's namespace as a message names it, and the chart that made it
 */
export function bindingOptionsProblems(binding: BindingOptions, options: Partial<BindingOptions>, where: string): string[] {
  const differing = (['secretStoreName', 'secretStoreKind', 'refreshInterval'] as const).filter((name) => options[name] !== undefined && options[name] !== binding[name]);
  if (differing.length === 0) return [];
  const has = differing.map((name) => `${name} ${JSON.stringify(binding[name])}`).join(' and ');
  const gives = differing.map((name) => `'options.${name}' (${valueText(options[name])})`).join(' and ');
  return [`the binding ${where} has ${has}, but this call gives ${gives}: one ExternalSecret binds the contract in a namespace, so each consume there gives the same options, or leaves them out`];
}

function isMap(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && !Construct.isConstruct(x);
}

/** An `iam.IGrantable` by its shape: a `grantPrincipal` that takes policy statements. */
function isGrantable(x: unknown): boolean {
  const principal = (x as { grantPrincipal?: { addToPrincipalPolicy?: unknown } } | null)?.grantPrincipal;
  return typeof principal?.addToPrincipalPolicy === 'function';
}

/**
 * What a message says of a chart reading `field` from the handles of a contract that does not declare it: the
 * field it most likely misspells (`nearMiss`), and the declared ones.
 *
 * @param chart the construct path of the chart that consumed the contract
 */
export function undeclaredReadText(contract: ContractSubject, chart: string, field: string): string {
  const meant = nearMiss(field, contract.fields);
  const declared = `declared: ${contract.fields.join(', ')}${meant ? `; did you mean '${meant}'?` : ''}`;
  return `'${chart}' reads '${field}', which '${contract.path}' does not declare (${declared}). Declare the field or read a declared one.`;
}

/** The `CAP009` refusal of a handle's `method` given what it cannot take, naming the field and the contract. */
export function handleArgumentsRefusal(contract: ContractSubject, field: string, method: 'envValue' | 'envVar', problem: string): Error {
  return constructionRefusal(CONTRACT_MISUSE, `contract misuse: ${method} of field '${field}' of '${contract.path}': ${problem}`, contract.path);
}

/**
 * Why `envVar(variableName)` of the handle of `field` cannot make an env entry the API server takes, or undefined
 * when it can: a name given that is no string, or the variable's name (the one given, else the field's) that is
 * no environment variable name.
 *
 * @param given the arguments as called: `envVar()` and `envVar(undefined)` name the variable after the field
 */
export function envVarArgumentsProblem(field: string, given: readonly unknown[]): string | undefined {
  const [variableName] = given;
  if (given.length > 1) return `it takes one argument, the variable's name, but was given ${given.map((a) => valueText(a)).join(', ')}`;
  if (variableName !== undefined && typeof variableName !== 'string') {
    return `'variableName' (${valueText(variableName)}) must be a string, the environment variable's name, such as envVar('${envVarNameFor(field) ?? 'TENANT_HEADER'}'), or left out to name it '${field}'`;
  }
  const name = (variableName as string | undefined) ?? field;
  const problem = envVarNameProblem(name);
  if (!problem) return undefined;
  const like = envVarNameLike(name);
  const rule = "letters, digits, '_', '-' and '.', not starting with a digit";
  return variableName === undefined
    ? `without 'variableName' the variable is named as the field, ${JSON.stringify(name)}, which is no environment variable name the API server takes (${rule}): ${problem}. Name it, such as envVar('${like ?? 'TENANT_HEADER'}')`
    : `'variableName' (${JSON.stringify(name)}) is no environment variable name the API server takes (${rule}): ${problem}. Give one such as ${JSON.stringify(like ?? 'TENANT_HEADER')}`;
}
