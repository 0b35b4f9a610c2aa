import type { ValidationAction } from './enforce-options';
import { celString, leafUnchanged } from './leaf-cel';
import type { KindOwnership, LeafOwner, ObjectOwnership, OwnershipMap, ProtectedLeaf } from './ownership-map';
import { SCALED_LEAF } from './scale-subresource';
import { compareText } from '../../private/compare';
import { sha256Hex } from '../../private/sha256';

/** How the policies are named and bound. */
export interface PolicyOptions {
  /** What the API server does with a refused request. */
  readonly validationActions: readonly ValidationAction[];
  /**
   * The first label of every policy's name (a DNS-1123 label, such as the capability's id): policies of two apps in one cluster
   * never share a name. Also the value of their `FIELD_OWNERSHIP_LABEL`.
   */
  readonly namePrefix: string;
}

/**
 * The longest CEL expression written, in characters. The API server's CEL
 * parser refuses more than 100,000 code points (cel-go `parser`,
 * `expressionSizeCodePointLimit`); an owner with more leaves gets more
 * variables and validations.
 */
export const MAX_EXPRESSION_LENGTH = 40_000;

/** The most object names in one binding, so that no binding comes near etcd's object size limit. */
export const MAX_NAMES_PER_BINDING = 5000;

/**
 * The label every policy and binding carries, with the name prefix (the capabilities' ids) as its value:
 * `kubectl get validatingadmissionpolicies,validatingadmissionpolicybindings -l cdk-capability.io/field-ownership=<prefix>`
 * reads those of an app, a release removed included, which the release's own `audit/objects.list` no longer
 * names.
 */
export const FIELD_OWNERSHIP_LABEL = 'cdk-capability.io/field-ownership';

const ADMISSION_V1 = 'admissionregistration.k8s.io/v1';
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * The `ValidatingAdmissionPolicy` objects and their bindings
 * (admissionregistration.k8s.io/v1) that make the API server enforce an
 * ownership map: on CREATE, UPDATE and DELETE of an object of the map, each
 * owner's leaves may change only by a request of that owner's identity.
 *
 * One policy per kind, or per group of the kind's objects with the same owned
 * leaves: the expressions compare leaves, so they never list objects. Each
 * policy is bound to its objects by name and namespace (the binding's
 * `resourceNames` and `namespaceSelector`), so requests for other objects
 * never evaluate it. Per owner, one variable maps each of its leaves to
 * whether the request leaves it unchanged, and one validation passes when the
 * request is the owner's or keeps them all; its message names the leaves
 * changed and their owner. The object before the request is an empty one on
 * CREATE, and the object after it is the one before on DELETE (deletion
 * changes no leaf): a runtime writer's DELETE of an object it writes fields of
 * is refused by a rule of its own; the deployer, the garbage collector and
 * anyone else RBAC allows may delete it. The deployer's CREATE passes the
 * runtime writers' validations: its manifests never give their leaves (that is
 * a field conflict at synth), so what they hold on CREATE is what the API
 * server defaulted before admission (`spec.replicas: 1` of a Deployment whose
 * replicas an autoscaler owns). A policy that protects `spec.replicas` of a
 * kind with a `scale` subresource matches that subresource too (`kubectl
 * scale`, an autoscaler): its requests carry autoscaling/v1 `Scale` objects,
 * whose `spec.replicas` is the same leaf and which hold no other owned leaf. Every policy and binding
 * carries `FIELD_OWNERSHIP_LABEL` with the name prefix, so those of an app can be read by label.
 *
 * @param map the ownership map
 * @param options the validation actions and the name prefix
 * @returns the manifests: each policy followed by its bindings
 */
export function admissionPolicies(map: OwnershipMap, options: PolicyOptions): any[] {
  const manifests: any[] = [];
  for (const kind of map.kinds) {
    shapesOf(kind.objects).forEach((objects, n) => {
      const name = policyName(options.namePrefix, kind, n);
      const labels = { [FIELD_OWNERSHIP_LABEL]: options.namePrefix };
      const made = policy({ name, labels }, kind, objects[0].leaves, map.deployer);
      manifests.push(made);
      const rule = made.spec.matchConstraints.resourceRules[0];
      bindingScopes(objects).forEach((scope, b) => {
        const metadata = { name: b === 0 ? name : boundedName(`${name}.${b + 1}`), labels };
        manifests.push(binding(metadata, name, { ...rule, resourceNames: scope.names }, scope, options.validationActions));
      });
    });
  }
  return manifests;
}

/** The objects of a kind grouped by their owned leaves (same leaves, same owners), in order of their first object. */
function shapesOf(objects: readonly ObjectOwnership[]): ObjectOwnership[][] {
  const shapes = new Map<string, ObjectOwnership[]>();
  for (const o of objects) {
    const key = JSON.stringify(o.leaves.map((l) => [l.steps, l.presence, l.owner.identity, l.owner.name]));
    const list = shapes.get(key);
    if (list) list.push(o);
    else shapes.set(key, [o]);
  }
  return [...shapes.values()];
}

/** `<prefix>.field-owners.<resource>.<group>`, the nth policy of a kind `<prefix>.field-owners-<n+1>...`. */
function policyName(prefix: string, kind: KindOwnership, n: number): string {
  const group = kind.group ? `.${kind.group}` : '';
  return boundedName(`${prefix}.field-owners${n === 0 ? '' : `-${n + 1}`}.${kind.resource}${group}`);
}

/** A DNS-1123 subdomain of at most 253 characters: a longer name is cut and given a digest of the whole. */
function boundedName(name: string): string {
  if (name.length <= 253) return name;
  const digest = sha256Hex(name, 10);
  return `${name.slice(0, 242).replace(/[.-]+$/, '')}-${digest}`;
}

function describeKind(kind: KindOwnership): string {
  return kind.group ? `${kind.group}/${kind.kind}` : kind.kind;
}

function describeOwner(owner: LeafOwner, deployer: LeafOwner): string {
  return owner === deployer || owner.name === deployer.name ? `the deployer (${owner.identity})` : `the runtime writer '${owner.name}' (${owner.identity})`;
}

/** The name and labels of a policy or binding. */
interface PolicyMetadata {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** One policy: the variables that compare each owner's leaves, and one validation per owner (and per chunk of its leaves). */
function policy(metadata: PolicyMetadata, kind: KindOwnership, leaves: readonly ProtectedLeaf[], deployer: LeafOwner): any {
  const owners = ownersOf(leaves, deployer);
  const variables: Array<{ name: string; expression: string }> = [
    { name: 'old', expression: "request.operation == 'CREATE' ? {} : oldObject" },
    { name: 'new', expression: "request.operation == 'DELETE' ? oldObject : object" },
  ];
  const validations: any[] = [];
  const kindLabel = describeKind(kind);
  const objectName = "(request.namespace == '' ? '' : request.namespace + '/') + request.name";
  const taken = new Set(['old', 'new']);
  for (const { owner, leaves: owned } of owners) {
    const base = `unchanged_${identifierOf(owner === deployer ? 'deployer' : owner.name, taken)}`;
    const description = describeOwner(owner, deployer);
    // the deployer creates what the runtime writers' leaves hold on CREATE: the API server's defaults
    const deployerCreates = owner === deployer ? '' : ` || (request.operation == 'CREATE' && request.userInfo.username == ${celString(deployer.identity)})`;
    chunks(entriesOf(owned)).forEach((entries, c) => {
      const variable = c === 0 ? base : `${base}_${c + 1}`;
      variables.push({ name: variable, expression: `{${entries.join(', ')}}` });
      const ref = `variables.${variable}`;
      validations.push({
        expression: `request.userInfo.username == ${celString(owner.identity)}${deployerCreates} || ${ref}.all(f, ${ref}[f])`,
        message: `fields of ${kindLabel} that belong to ${description} may be changed only by that identity`,
        messageExpression: `${ref}.filter(f, !${ref}[f]).join(', ') + ${celString(` of ${kindLabel} `)} + ${objectName} + ${celString(` belong to ${description}: only that identity may change them, not `)} + request.userInfo.username`,
        reason: 'Forbidden',
      });
    });
  }
  const runtime = owners.filter((o) => o.owner !== deployer && o.owner.identity !== deployer.identity).map((o) => o.owner);
  if (runtime.length > 0) {
    const identities = [...new Set(runtime.map((o) => o.identity))].sort(compareText);
    validations.push({
      expression: `request.operation != 'DELETE' || !(request.userInfo.username in [${identities.map(celString).join(', ')}])`,
      message: `a runtime writer of ${kindLabel} fields may not delete the object: the composition declares it, and ${describeOwner(deployer, deployer)} removes it`,
      messageExpression: `request.userInfo.username + ${celString(` writes fields of ${kindLabel} `)} + ${objectName} + ${celString(` but may not delete it: the composition declares it, and ${describeOwner(deployer, deployer)} removes it`)}`,
      reason: 'Forbidden',
    });
  }
  return {
    apiVersion: ADMISSION_V1,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: metadata.name, labels: { ...metadata.labels } },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [resourceRule(kind, runtime.length > 0, kind.scale && leaves.some((l) => l.text === SCALED_LEAF))] },
      variables,
      validations,
    },
  };
}

/** The rule of a policy: the kind's resource, and its `scale` subresource when the policy protects what it changes. */
function resourceRule(kind: KindOwnership, withDelete: boolean, withScale: boolean): any {
  return {
    apiGroups: [kind.group],
    apiVersions: ['*'],
    operations: withDelete ? ['CREATE', 'UPDATE', 'DELETE'] : ['CREATE', 'UPDATE'],
    resources: withScale ? [kind.resource, `${kind.resource}/scale`] : [kind.resource],
  };
}

/** The owners of a shape's leaves, the deployer first, then the runtime writers by name, each with its leaves. */
function ownersOf(leaves: readonly ProtectedLeaf[], deployer: LeafOwner): Array<{ owner: LeafOwner; leaves: ProtectedLeaf[] }> {
  const byOwner = new Map<string, { owner: LeafOwner; leaves: ProtectedLeaf[] }>();
  for (const leaf of leaves) {
    const owner = leaf.owner.name === deployer.name ? deployer : leaf.owner;
    const key = `${owner.name}\u0000${owner.identity}`;
    let entry = byOwner.get(key);
    if (!entry) {
      entry = { owner, leaves: [] };
      byOwner.set(key, entry);
    }
    entry.leaves.push(leaf);
  }
  return [...byOwner.values()].sort((a, b) => Number(b.owner === deployer) - Number(a.owner === deployer) || compareText(a.owner.name, b.owner.name));
}

/** `'<leaf>': <unchanged>` map entries, leaves that print alike merged into one entry. */
function entriesOf(leaves: readonly ProtectedLeaf[]): string[] {
  const byText = new Map<string, string[]>();
  for (const leaf of leaves) {
    const test = leafUnchanged(leaf, 'variables.old', 'variables.new');
    const list = byText.get(leaf.text);
    if (list) list.push(test);
    else byText.set(leaf.text, [test]);
  }
  return [...byText].map(([text, tests]) => `${celString(text)}: ${tests.length === 1 ? tests[0] : tests.map((t) => `(${t})`).join(' && ')}`);
}

/** Entries in runs whose map literal stays within `MAX_EXPRESSION_LENGTH`. */
function chunks(entries: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let length = 2;
  for (const entry of entries) {
    if (current.length > 0 && length + entry.length + 2 > MAX_EXPRESSION_LENGTH) {
      out.push(current);
      current = [];
      length = 2;
    }
    current.push(entry);
    length += entry.length + 2;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** A CEL identifier from a name: its last path segment, lowercase letters, digits and `_`, unique among `taken`. */
function identifierOf(name: string, taken: Set<string>): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const base = last.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'writer';
  let id = /^[0-9]/.test(base) ? `_${base}` : base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** Where a binding applies: object names, and the namespaces they are in (none for a cluster-scoped kind). */
interface BindingScope {
  readonly names: readonly string[];
  readonly namespaces?: readonly string[];
}

/**
 * The bindings' scopes of a group of objects: namespaces holding the same
 * names share one (so a scope's names times its namespaces are exactly its
 * objects), and at most `MAX_NAMES_PER_BINDING` names each.
 */
function bindingScopes(objects: readonly ObjectOwnership[]): BindingScope[] {
  const namesByNamespace = new Map<string | undefined, string[]>();
  for (const o of objects) {
    const list = namesByNamespace.get(o.namespace);
    if (list) list.push(o.name);
    else namesByNamespace.set(o.namespace, [o.name]);
  }
  const bySet = new Map<string, { names: string[]; namespaces: string[] }>();
  for (const [namespace, names] of namesByNamespace) {
    const sorted = [...new Set(names)].sort(compareText);
    const key = JSON.stringify(sorted);
    const entry = bySet.get(key) ?? { names: sorted, namespaces: [] };
    bySet.set(key, entry);
    if (namespace !== undefined) entry.namespaces.push(namespace);
  }
  const scopes: BindingScope[] = [];
  for (const { names, namespaces } of bySet.values()) {
    for (let i = 0; i < names.length; i += MAX_NAMES_PER_BINDING) {
      const chunk = names.slice(i, i + MAX_NAMES_PER_BINDING);
      scopes.push(namespaces.length > 0 ? { names: chunk, namespaces: [...namespaces].sort(compareText) } : { names: chunk });
    }
  }
  return scopes;
}

function binding(metadata: PolicyMetadata, policyToBind: string, rule: any, scope: BindingScope, actions: readonly ValidationAction[]): any {
  return {
    apiVersion: ADMISSION_V1,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: metadata.name, labels: { ...metadata.labels } },
    spec: {
      policyName: policyToBind,
      validationActions: [...actions],
      matchResources: {
        ...(scope.namespaces ? { namespaceSelector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: [...scope.namespaces] }] } } : {}),
        resourceRules: [rule],
      },
    },
  };
}
