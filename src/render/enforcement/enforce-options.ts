import { usernameProblem } from '../../private/kubernetes-username';

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
}

const ACTIONS: readonly ValidationAction[] = ['Deny', 'Warn', 'Audit'];

/**
 * Why `enforce` options are refused, each naming the prop: empty when they are fine.
 *
 * @param options the options as given (from JavaScript, anything)
 */
export function enforceOptionsProblems(options: unknown): string[] {
  if (options === null || typeof options !== 'object') {
    return [`'enforce' (${JSON.stringify(options) ?? String(options)}) must be an object such as { deployer: 'system:serviceaccount:flux-system:kustomize-controller' }`];
  }
  const o = options as Partial<EnforceOptions>;
  const problems: string[] = [];
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
  return problems;
}
