import { appendAll } from '../../private/append';
import { DNS1123_SUBDOMAIN } from '../../private/dns-names';
import { usernameProblem } from '../../private/kubernetes-username';
import { unknownKeyProblems } from '../../private/near-miss';

/**
 * What the API server does when a field-ownership policy refuses a request:
 * `Deny` it, `Warn` the client (an HTTP warning), or record it in the `Audit`
 * log (a `ValidatingAdmissionPolicyBinding`'s `validationActions`).
 */
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

/**
 * Options of `CapabilityApp` prop `enforce`: the ownership map enforced by the
 * API server (one `ValidatingAdmissionPolicy` and binding per protected kind).
 *
 * @example
 * new CapabilityApp({
 *   enforce: {
 *     deployer: 'system:serviceaccount:flux-system:kustomize-controller',
 *     validationActions: ['Warn', 'Audit'], // first; then ['Deny']
 *   },
 * });
 */
export interface EnforceOptions {
  /**
   * The Kubernetes username that applies the runtime output (Flux's
   * `system:serviceaccount:flux-system:kustomize-controller`, Argo CD's
   * application controller, the CI job's service account): the only identity
   * that may change the leaves the composition declares.
   */
  readonly deployer: string;

  /**
   * What the API server does with a refused request. Roll out with
   * `['Warn', 'Audit']` (nothing is refused; every would-be refusal is a
   * warning to the client and an audit annotation), then `['Deny']`.
   *
   * @default ['Deny']
   */
  readonly validationActions?: readonly ValidationAction[];

  /**
   * The resource (plural) name of each kind whose CRD is not in the
   * composition, keyed by the kind and its API group as kubectl writes them
   * (`Kind.group`; a kind of the core group alone): a kind's policy matches
   * requests by resource, and a CRD installed by someone else names its own
   * plural (`spec.names.plural`; `kubectl api-resources --api-group=<group>`
   * lists it). A kind not listed here is matched by Kubernetes' guess from the
   * kind (`Redis` gives `redises`), and synth warns (`CAP010`), since a wrong
   * guess protects nothing. A kind whose CRD is in the composition, or a
   * built-in kind, needs no entry; an entry that contradicts either is refused
   * (`CAP010`).
   *
   * @example
   * { 'Redis.cache.example.com': 'redis' }
   * @default - the plural of the kind's CRD in the composition, a built-in kind's own, else Kubernetes' guess from the kind
   */
  readonly resources?: Readonly<Record<string, string>>;
}

const ACTIONS: readonly ValidationAction[] = ['Deny', 'Warn', 'Audit'];

/** The options `enforce` takes, for the message that names an unknown one (the type keeps it to every key of `EnforceOptions`). */
const OPTION_KEYS: Record<keyof EnforceOptions, 0> = { deployer: 0, validationActions: 0, resources: 0 };
const OPTIONS = Object.keys(OPTION_KEYS);

/** A kind (UpperCamelCase), then `.` and its API group unless it is of the core group. */
const RESOURCE_KEY = /^[A-Z][A-Za-z0-9]*(\.(.+))?$/;

/** A DNS-1035 label: what the API server takes for a CRD's `spec.names.plural`. */
const DNS1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Why `enforce` options are refused, each naming the prop: empty when they are fine. A key it does not take is
 * refused too, with the option it most likely misspells (a misspelt `deployr` would otherwise read as no deployer).
 *
 * @param options the options as given (from JavaScript, anything)
 */
export function enforceOptionsProblems(options: unknown): string[] {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    return [`'enforce' (${JSON.stringify(options) ?? String(options)}) must be an object such as { deployer: 'system:serviceaccount:flux-system:kustomize-controller' }`];
  }
  const o = options as Partial<EnforceOptions>;
  const problems = unknownKeyProblems(o, OPTIONS, 'enforce.');
  const deployer = usernameProblem(o.deployer, "'enforce.deployer'", 'that applies the runtime output', 'system:serviceaccount:flux-system:kustomize-controller');
  if (deployer) problems.push(deployer);
  if (o.validationActions !== undefined) {
    const actions: unknown = o.validationActions;
    const given = JSON.stringify(actions) ?? String(actions);
    if (!Array.isArray(actions) || actions.length === 0 || actions.some((a) => !ACTIONS.includes(a)) || new Set(actions).size !== actions.length) {
      problems.push(`'enforce.validationActions' (${given}) must list each of "Deny", "Warn" and "Audit" at most once, and at least one, such as ["Warn", "Audit"]`);
    } else if (actions.includes('Deny') && actions.includes('Warn')) {
      problems.push(`'enforce.validationActions' (${given}) may not hold both "Deny" and "Warn" (the API server refuses the pair: a denial already tells the client). Use ["Deny"] or ["Deny", "Audit"]`);
    }
  }
  if (o.resources !== undefined) appendAll(problems, resourcesProblems(o.resources));
  return problems;
}

/** Why `enforce.resources` is refused: not a map, or a key that is no `Kind.group`, or a value that is no resource name. */
function resourcesProblems(resources: unknown): string[] {
  if (resources === null || typeof resources !== 'object' || Array.isArray(resources)) {
    return [`'enforce.resources' (${JSON.stringify(resources) ?? String(resources)}) must map kinds to their resources, such as { 'Redis.cache.example.com': 'redis' }`];
  }
  const problems: string[] = [];
  for (const [key, value] of Object.entries(resources)) {
    const group = RESOURCE_KEY.exec(key)?.[2];
    if (!RESOURCE_KEY.test(key) || (group !== undefined && !DNS1123_SUBDOMAIN.test(group))) {
      problems.push(`'enforce.resources' key ${JSON.stringify(key)} must be a kind and its API group as kubectl writes them, Kind.group, such as "Redis.cache.example.com" (a kind of the core group alone, such as "ConfigMap")`);
    } else if (typeof value !== 'string' || !DNS1035_LABEL.test(value)) {
      problems.push(`'enforce.resources[${JSON.stringify(key)}]' (${JSON.stringify(value) ?? String(value)}) must be the kind's resource as its CRD's spec.names.plural gives it: a DNS-1035 label (lowercase letters, digits and '-', starting with a letter, at most 63 characters), such as "redis"`);
    }
  }
  return problems;
}
