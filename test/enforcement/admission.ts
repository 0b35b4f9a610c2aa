// The API server's ValidatingAdmissionPolicy admission, for the tests: which policies and bindings
// match a request, then variables, validations and messages, and what the binding's validationActions
// make of a failure. Follows kubernetes/apiserver pkg/admission/plugin/policy/validating
// (dispatcher.go, validator.go, message.go) and pkg/admission/plugin/policy/matching at
// 24a394e51 (the 1.30 semantics these files kept); the CEL runs in @bufbuild/cel (./cel.ts).
import { compile, fromCel, Program, toCel } from './cel';

/** One admission request, as the API server builds it for a policy. */
export interface Request {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly username: string;
  readonly group: string;
  readonly resource: string;
  /** The subresource (`scale`), if the request is to one; `kind` is then the subresource's kind (`Scale`). */
  readonly subresource?: string;
  readonly kind: string;
  readonly version?: string;
  readonly namespace?: string;
  readonly name: string;
  /** The object after the request (absent on DELETE). */
  readonly object?: any;
  /** The object before it (absent on CREATE). */
  readonly oldObject?: any;
  /** The namespace's labels, for `namespaceSelector`; `kubernetes.io/metadata.name` is added. */
  readonly namespaceLabels?: Record<string, string>;
}

/** What the policies decided. */
export interface Decision {
  /** False when a binding with `Deny` refused the request. */
  readonly allowed: boolean;
  /** The denial, as the API server words it (its first denied decision). */
  readonly message?: string;
  /** Warnings (`Warn`). */
  readonly warnings: string[];
  /** Audited failures (`Audit`). */
  readonly audited: string[];
  /** The messages of every failed validation of every matching binding. */
  readonly failures: string[];
}

/** The longest message an expression may produce (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
const MAX_MESSAGE_BYTES = 5 * 1024;

const compiled = new Map<string, Program>();
function program(expression: string): Program {
  let p = compiled.get(expression);
  if (!p) {
    p = compile(expression);
    compiled.set(expression, p);
  }
  return p;
}

/** Compiles every expression of the policies (variables, validations, messages, match conditions); throws on the first that does not parse. */
export function compileAll(manifests: readonly any[]): number {
  let count = 0;
  for (const m of manifests) {
    if (m.kind !== 'ValidatingAdmissionPolicy') continue;
    for (const e of expressionsOf(m)) {
      program(e);
      count++;
    }
  }
  return count;
}

/** Every CEL expression of a policy. */
export function expressionsOf(policy: any): string[] {
  const spec = policy.spec ?? {};
  return [
    ...(spec.matchConditions ?? []).map((c: any) => c.expression),
    ...(spec.variables ?? []).map((v: any) => v.expression),
    ...(spec.validations ?? []).flatMap((v: any) => [v.expression, ...(v.messageExpression ? [v.messageExpression] : [])]),
  ];
}

/** Evaluates the policies and bindings among `manifests` on one request. */
export function admit(manifests: readonly any[], request: Request): Decision {
  const policies = new Map(manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicy').map((p) => [p.metadata.name, p]));
  const bindings = manifests.filter((m) => m.kind === 'ValidatingAdmissionPolicyBinding');
  const warnings: string[] = [];
  const audited: string[] = [];
  const failures: string[] = [];
  let message: string | undefined;
  for (const binding of bindings) {
    const policy = policies.get(binding.spec.policyName);
    if (!policy || !matches(policy.spec.matchConstraints, request) || !matches(binding.spec.matchResources, request)) continue;
    const context = activation(request);
    const condition = matchConditions(policy, context);
    if (condition === false) continue;
    for (const failure of typeof condition === 'string' ? [condition] : validate(policy, context)) {
      const text = `ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${binding.metadata.name}' denied request: ${failure}`;
      failures.push(failure);
      for (const action of binding.spec.validationActions) {
        if (action === 'Deny') message ??= text;
        if (action === 'Warn') warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${binding.metadata.name}': ${failure}`);
        if (action === 'Audit') audited.push(failure);
      }
    }
  }
  return { allowed: message === undefined, ...(message !== undefined ? { message } : {}), warnings, audited, failures };
}

/** A rule set (`matchConstraints` or a binding's `matchResources`) matches the request. */
function matches(rules: any, request: Request): boolean {
  if (!rules) return true;
  if (rules.namespaceSelector && request.namespace !== undefined && !selects(rules.namespaceSelector, { ...request.namespaceLabels, 'kubernetes.io/metadata.name': request.namespace })) return false;
  const resourceRules: any[] | undefined = rules.resourceRules;
  if (!resourceRules) return true;
  return resourceRules.some((r) => {
    const has = (list: string[] | undefined, value: string) => list === undefined || list.includes('*') || list.includes(value);
    return (
      has(r.apiGroups, request.group) &&
      has(r.apiVersions, request.version ?? 'v1') &&
      // a rule names a subresource as `<resource>/<subresource>`, and `<resource>` alone matches no subresource
      has(r.resources, request.subresource ? `${request.resource}/${request.subresource}` : request.resource) &&
      has(r.operations, request.operation) &&
      (!r.resourceNames || r.resourceNames.length === 0 || r.resourceNames.includes(request.name))
    );
  });
}

/** A label selector (`matchLabels`, `matchExpressions` with In, NotIn, Exists, DoesNotExist) selects the labels. */
function selects(selector: any, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries<string>(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(labels, e.key);
    if (e.operator === 'In' && !(present && e.values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && present && e.values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !present) return false;
    if (e.operator === 'DoesNotExist' && present) return false;
  }
  return true;
}

/** The variables every expression sees: `object`, `oldObject` (null when absent), `request`. */
function activation(request: Request): Record<string, unknown> {
  return {
    object: request.object === undefined ? null : toCel(request.object),
    oldObject: request.oldObject === undefined ? null : toCel(request.oldObject),
    request: toCel({
      operation: request.operation,
      userInfo: { username: request.username },
      name: request.name,
      namespace: request.namespace ?? '',
      kind: { group: request.group, version: request.version ?? 'v1', kind: request.kind },
      resource: { group: request.group, version: request.version ?? 'v1', resource: request.resource },
      subResource: request.subresource ?? '',
    }),
  };
}

/**
 * True when every match condition holds (the policy applies), false when one
 * is false; when one fails to evaluate, the error, which fails the request
 * under `failurePolicy: Fail` (under `Ignore`, the policy does not apply).
 */
function matchConditions(policy: any, bindings: Record<string, unknown>): boolean | string {
  for (const c of policy.spec.matchConditions ?? []) {
    try {
      if (program(c.expression)(bindings) !== true) return false;
    } catch (e) {
      return policy.spec.failurePolicy === 'Ignore' ? false : `matchCondition '${c.name}' resulted in error: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return true;
}

/**
 * The failure messages of a policy's validations: variables in order (one
 * that fails to evaluate is an error where it is used), then each validation;
 * false gives its message (the messageExpression's result when that is a
 * string that is, trimmed, non-empty, on one line and at most 5 KiB, else
 * `message`, else `failed expression: <expression>`); an evaluation error fails the request
 * under `failurePolicy: Fail` (the default) and is skipped under `Ignore`.
 */
function validate(policy: any, base: Record<string, unknown>): string[] {
  const variables = new Map<string, unknown>();
  const bindings = { ...base, variables };
  for (const v of policy.spec.variables ?? []) {
    try {
      variables.set(v.name, program(v.expression)(bindings));
    } catch {
      // a variable that fails is an error in the expressions that read it
    }
  }
  const failures: string[] = [];
  const ignore = policy.spec.failurePolicy === 'Ignore';
  for (const v of policy.spec.validations ?? []) {
    let passed: unknown;
    try {
      passed = program(v.expression)(bindings);
    } catch (e) {
      if (!ignore) failures.push(`expression '${v.expression}' resulted in error: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (passed === true) continue;
    failures.push(messageOf(v, bindings));
  }
  return failures;
}

function messageOf(validation: any, bindings: Record<string, unknown>): string {
  if (validation.messageExpression) {
    try {
      const result = fromCel(program(validation.messageExpression)(bindings));
      const text = typeof result === 'string' ? result.trim() : '';
      if (text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES) return text;
    } catch {
      // falls back to the static message
    }
  }
  return validation.message?.trim() || `failed expression: ${String(validation.expression).trim()}`;
}
