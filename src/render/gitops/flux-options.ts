import type { Duration } from 'cdk8s';
import type { FluxOptions, FluxSourceReference } from './flux';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from '../../private/dns-names';
import { unknownKeyProblems } from '../../private/near-miss';
import { valueText } from '../../private/value-text';

/** The options `GitOps.flux` takes, for the message that names an unknown one (the type keeps it to every key of `FluxOptions`). */
const OPTION_KEYS: Record<keyof FluxOptions, 0> = { sourceRef: 0, path: 0, interval: 0, timeout: 0, prune: 0, wait: 0, namespace: 0 };
const OPTIONS = Object.keys(OPTION_KEYS);
/** The keys of `sourceRef`. */
const SOURCE_KEY_SET: Record<keyof FluxSourceReference, 0> = { kind: 0, name: 0, namespace: 0 };
const SOURCE_KEYS = Object.keys(SOURCE_KEY_SET);
/** The source kinds a `kustomize.toolkit.fluxcd.io/v1` Kustomization refers to (its CRD's enum). */
const SOURCE_KINDS = ['GitRepository', 'OCIRepository', 'Bucket', 'ExternalArtifact'] as const;

/**
 * Why `GitOps.flux` refuses its options, one line per problem; empty when
 * they are valid. What it checks is what the Kustomizations must hold for the
 * API server and Flux to take them (the `kustomize.toolkit.fluxcd.io/v1`
 * CRD): a source of a known kind named as Kubernetes names objects, a
 * namespace that is a DNS-1123 label, durations of a whole, positive number
 * of milliseconds, booleans for `prune` and `wait`, and no option it does not
 * know (a misspelt `intervall` would otherwise be dropped without a word).
 */
export function fluxOptionsProblems(options: unknown): string[] {
  const example = "such as { sourceRef: { name: 'platform' } }";
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return [`its options (${valueText(options)}) must be an object, ${example}`];
  const o = options as Record<string, unknown>;
  const problems = [...unknownKeyProblems(o, OPTIONS, ''), ...sourceProblems(o.sourceRef)];
  if (o.path !== undefined && (typeof o.path !== 'string' || o.path.trim() === '')) {
    problems.push(`'path' (${valueText(o.path)}) must be the outdir's path in the source, such as './clusters/prod/dist'`);
  }
  for (const name of ['interval', 'timeout'] as const) {
    const problem = o[name] === undefined ? undefined : durationProblem(o[name]);
    if (problem) problems.push(`'${name}' (${describe(o[name])}) ${problem}`);
  }
  for (const name of ['prune', 'wait'] as const) {
    if (o[name] !== undefined && typeof o[name] !== 'boolean') problems.push(`'${name}' (${valueText(o[name])}) must be true or false`);
  }
  if (o.namespace !== undefined && !isDnsLabel(o.namespace)) {
    problems.push(`'namespace' (${valueText(o.namespace)}) must be a namespace: a DNS-1123 label (lowercase letters, digits and '-', at most 63), such as 'flux-system'`);
  }
  return problems;
}

/**
 * A Go duration as Flux writes it: the largest whole unit (`10m`, `1h`,
 * `90s`, `1500ms`), which the CRD's pattern `^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`
 * takes. The duration must have passed `fluxOptionsProblems`.
 */
export function goDuration(d: Duration): string {
  const ms = d.toMilliseconds({ integral: false });
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

function sourceProblems(source: unknown): string[] {
  if (source === undefined) return ["'sourceRef' is missing: the Flux source that holds the output, such as { name: 'platform' } (a GitRepository)"];
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    return [`'sourceRef' (${valueText(source)}) must name the Flux source that holds the output, such as { name: 'platform' } or { kind: 'OCIRepository', name: 'platform' }`];
  }
  const s = source as Record<string, unknown>;
  const problems = unknownKeyProblems(s, SOURCE_KEYS, 'sourceRef.');
  if (s.kind !== undefined && !(SOURCE_KINDS as readonly unknown[]).includes(s.kind)) {
    problems.push(`'sourceRef.kind' (${valueText(s.kind)}) must be one of ${SOURCE_KINDS.map((k) => `'${k}'`).join(', ')}`);
  }
  if (typeof s.name !== 'string' || !DNS1123_SUBDOMAIN.test(s.name)) {
    problems.push(`'sourceRef.name' (${valueText(s.name)}) must be the source's name: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.'), such as 'platform'`);
  }
  if (s.namespace !== undefined && !isDnsLabel(s.namespace)) {
    problems.push(`'sourceRef.namespace' (${valueText(s.namespace)}) must be a namespace: a DNS-1123 label (lowercase letters, digits and '-', at most 63)`);
  }
  return problems;
}

/** Why a value is no duration Flux takes, or undefined. */
function durationProblem(value: unknown): string | undefined {
  const toMilliseconds = (value as { toMilliseconds?: unknown } | null)?.toMilliseconds;
  if (typeof toMilliseconds !== 'function') return 'must be a cdk8s Duration, such as Duration.minutes(10)';
  const ms = (value as Duration).toMilliseconds({ integral: false });
  if (!Number.isInteger(ms) || ms <= 0) return 'must be a whole number of milliseconds, more than zero';
  return undefined;
}

function describe(value: unknown): string {
  const toHuman = (value as { toHumanString?: unknown } | null)?.toHumanString;
  return typeof toHuman === 'function' ? (value as Duration).toHumanString() : valueText(value);
}

function isDnsLabel(value: unknown): boolean {
  return typeof value === 'string' && DNS1123_LABEL.test(value);
}
