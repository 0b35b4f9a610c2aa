import type { ObjectFact } from '../../collect/facts';
import { appliedKey, DEFAULT_NAMESPACE, describeIdentity, effectiveNamespace, ObjectIdentity } from '../../collect/object-identity';
import { podLabelsOf, selects } from '../../collect/pod-spec';
import { appendTo } from '../../private/append';
import { ViolationCode } from '../finding';
import { objectFieldAt, withField } from '../placement';
import { defineRule, RuleFinding } from '../rule';

/** Stands for every namespace in the identity of an external object declared without one. */
const ANY_NAMESPACE = '\u0000any';

/** ClusterRoles every cluster has. */
const BUILT_IN_CLUSTER_ROLES = /^(cluster-admin|admin|edit|view|system:.*)$/;

/**
 * `CAP005`: a by-name reference that resolves to nothing in the composition
 * and is not declared external (bindings to roles, pod specs to service
 * accounts, config maps, secrets and claims, Ingress and HTTPRoute backends to
 * Services, `Reference.byName`), and a Service whose selector matches no
 * workload's pod labels in its namespace (a workload: any object with a pod
 * template, or pods declared with `Reference.externalPods`). Namespaces are compared as the API
 * server stores them: an object without one is in `default`.
 */
export const danglingReferences = defineRule({
  code: ViolationCode.DANGLING_REFERENCE,
  title: 'dangling references',
  explanation: 'A reference by name (a role, a service account, a Secret, a backend Service) that resolves to nothing is accepted by the API server and fails later at runtime; a reference must resolve inside the composition or be declared external.',
  run({ facts }) {
    const present = new Set<string>();
    // Secrets an ExternalSecret provides (the interface contract's, for one), by name: namespace and declarer
    const providedSecrets = new Map<string, Array<{ namespace?: string; declarer: string }>>();
    const workloads = new Workloads();
    // by identity with the kind in lower case: a reference whose kind differs only in case is named so. Made at
    // the first dangling reference: a composition without one (almost every synth) pays no second key per object
    let byLowerKind: Map<string, ObjectIdentity> | undefined;
    const sameButCaseOf = (target: ObjectIdentity): ObjectIdentity | undefined => {
      byLowerKind ??= new Map(facts.objects.map((o) => [lowerKindKey(o.identity), o.identity]));
      return byLowerKind.get(lowerKindKey(target));
    };
    for (const o of facts.objects) {
      present.add(appliedKey(o.identity));
      // An ExternalSecret provides the Secret it creates.
      const provided = o.identity.kind === 'ExternalSecret' ? o.manifest.spec?.target?.name ?? o.identity.name : undefined;
      if (provided) {
        present.add(appliedKey({ group: '', kind: 'Secret', namespace: o.identity.namespace, name: String(provided) }));
        const providers = providedSecrets.get(String(provided)) ?? [];
        providedSecrets.set(String(provided), [...providers, { namespace: o.identity.namespace, declarer: o.declarer }]);
      }
      const labels = podLabelsOf(o.identity.group, o.identity.kind, o.manifest);
      if (labels) workloads.add(effectiveNamespace(o.identity) ?? '', labels);
    }
    for (const e of facts.externals) present.add(appliedKey(e.anyNamespace ? { ...e.identity, namespace: ANY_NAMESPACE } : e.identity));
    for (const p of facts.externalPods) workloads.add(p.namespace, { ...p.labels });

    const found: RuleFinding[] = [];
    for (const ref of facts.references) {
      const anywhere = { ...ref.target, namespace: ref.target.namespace === undefined ? undefined : ANY_NAMESPACE };
      if (present.has(appliedKey(ref.target)) || present.has(appliedKey(anywhere)) || isImplicit(ref.target)) continue;
      const elsewhere = ref.target.kind === 'Secret' && (ref.target.group ?? '') === '' ? providedSecrets.get(ref.target.name) : undefined;
      if (elsewhere && elsewhere.length > 0) {
        // the contract's Secret exists, in another namespace: a Secret is read only in its own namespace
        // an object without a namespace is in 'default', as the API server stores it
        const there = elsewhere.map((e) => `namespace '${e.namespace || DEFAULT_NAMESPACE}' (the ExternalSecret of '${e.declarer}')`).join(' and ');
        found.push({
          message: `${describeIdentity(facts.objects[ref.from].identity)} declared by '${facts.objects[ref.from].declarer}' refers to ${describeIdentity(ref.target)} at ${ref.field}, `
            + `but that Secret is created only in ${there}, and a pod reads Secrets of its own namespace only. `
            + `Consume the contract in this namespace too: contract.consume(routing, { namespace: '${ref.target.namespace || DEFAULT_NAMESPACE}' }).`,
          paths: [facts.objects[ref.from].declarer],
          ...withField(objectFieldAt(facts.objects[ref.from], ref.field)),
        });
        continue;
      }
      const sameButCase = sameButCaseOf(ref.target);
      const hint = sameButCase ? `; the composition has ${describeIdentity(sameButCase)}, and a kind is written in its exact case ('${sameButCase.kind}')` : '';
      const from = facts.objects[ref.from];
      found.push({ ...dangling(from, `refers to ${describeIdentity(ref.target)} at ${ref.field}, which is not in the composition${hint}`), ...withField(objectFieldAt(from, ref.field)) });
    }
    for (const o of facts.objects) {
      const selector = serviceSelector(o);
      if (!selector || o.duplicateOf !== undefined) continue;
      if (workloads.anySelected(effectiveNamespace(o.identity) ?? '', selector)) continue;
      const text = Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',');
      const namespace = effectiveNamespace(o.identity) ?? DEFAULT_NAMESPACE;
      const declaration = `Reference.externalPods(scope, id, { namespace: ${quoted(namespace)}, labels: ${labelsLiteral(selector)} }).`;
      found.push(dangling(o, `selects ${text}, which matches no workload's pod labels in namespace '${namespace}'`, `${SELECTOR_FIX}${declaration}`));
    }
    return found;
  },
});

const NONE: readonly number[] = [];

/**
 * The workloads of each namespace, by the labels of their pods: a Service's
 * selector is tried only on the pods that carry its rarest label, not on every
 * workload of its namespace (1,000 tenants' Services by 1,000 Deployments
 * were a million comparisons).
 */
class Workloads {
  private readonly namespaces = new Map<string, {
    readonly pods: Array<Record<string, string>>;
    /** label key -> value -> the workloads whose pods carry it */
    readonly holders: Map<string, Map<unknown, number[]>>;
    /** pods whose labels are no plain object: a lookup in them may find more than their own labels, so every selector tries them */
    readonly unindexed: number[];
  }>();

  public add(namespace: string, labels: Record<string, string>): void {
    let at = this.namespaces.get(namespace);
    if (!at) this.namespaces.set(namespace, at = { pods: [], holders: new Map(), unindexed: [] });
    const i = at.pods.push(labels) - 1;
    const names = ownLabelNames(labels);
    if (!names) at.unindexed.push(i);
    for (const key of names ?? []) {
      let values = at.holders.get(key);
      if (!values) at.holders.set(key, values = new Map());
      appendTo(values, labels[key] as unknown, i);
    }
  }

  /** True when `selector` selects the pods of some workload of `namespace` (`selects`). */
  public anySelected(namespace: string, selector: Record<string, string>): boolean {
    const at = this.namespaces.get(namespace);
    if (!at) return false;
    // pods `selector` selects carry each of its labels: the holders of its rarest one are the candidates
    let fewest: readonly number[] | undefined;
    for (const [key, value] of Object.entries(selector)) {
      const those = at.holders.get(key)?.get(value) ?? NONE;
      if (!fewest || those.length < fewest.length) fewest = those;
    }
    if (!fewest) return at.pods.length > 0;
    return fewest.some((i) => selects(selector, at.pods[i])) || at.unindexed.some((i) => selects(selector, at.pods[i]));
  }
}

/**
 * Every property `labels[key]` finds, when the labels are a plain object (or
 * one without a prototype): its own names, enumerable or not. Undefined for
 * anything else a manifest may hold there (an array, a string), whose lookups
 * reach further.
 */
function ownLabelNames(labels: unknown): string[] | undefined {
  if (typeof labels !== 'object' || labels === null) return undefined;
  const prototype: unknown = Object.getPrototypeOf(labels);
  return prototype === Object.prototype || prototype === null ? Object.getOwnPropertyNames(labels) : undefined;
}

/** The fix of a dangling reference, as a capability app makes it. */
export const DANGLING_REFERENCE_FIX = 'Declare the target in the composition, fix the name, or mark it external with Reference.external(scope, id, { apiVersion, kind, name, namespace }).';

/**
 * The fix of a Service whose selector matches no pods, as a capability app
 * makes it; the message goes on with the `Reference.externalPods` declaration
 * of the Service's namespace and selector.
 */
export const SELECTOR_FIX = 'Declare the workload in the composition, fix the selector, or declare the pods that something outside the composition makes (an operator, another release): ';

function dangling(o: ObjectFact, what: string, fix: string = DANGLING_REFERENCE_FIX): RuleFinding {
  return {
    message: `${describeIdentity(o.identity)} declared by '${o.declarer}' ${what}. ${fix}`,
    paths: [o.declarer],
  };
}

/** An object's applied identity with its kind in lower case. */
function lowerKindKey(id: ObjectIdentity): string {
  return appliedKey({ ...id, kind: id.kind.toLowerCase() });
}

/** Objects every cluster (or namespace) has. */
function isImplicit(t: ObjectIdentity): boolean {
  if (t.group === '' && t.kind === 'ServiceAccount' && t.name === 'default') return true;
  if (t.group === '' && t.kind === 'ConfigMap' && t.name === 'kube-root-ca.crt') return true;
  return t.group === 'rbac.authorization.k8s.io' && t.kind === 'ClusterRole' && BUILT_IN_CLUSTER_ROLES.test(t.name);
}

function serviceSelector(o: ObjectFact): Record<string, string> | undefined {
  if (o.identity.group !== '' || o.identity.kind !== 'Service' || o.manifest.spec?.type === 'ExternalName') return undefined;
  const selector = o.manifest.spec?.selector;
  return selector && Object.keys(selector).length > 0 ? selector : undefined;
}

/** A string as a single-quoted TypeScript literal. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Labels as a TypeScript object literal, `{ app: 'api', 'app.kubernetes.io/part-of': 'shop' }`. */
function labelsLiteral(labels: Record<string, string>): string {
  const entries = Object.entries(labels).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : quoted(k)}: ${quoted(String(v))}`);
  return `{ ${entries.join(', ')} }`;
}
