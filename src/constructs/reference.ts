import { Construct, IConstruct } from 'constructs';
import { apiObjectOf } from './api-object-of';
import { brand, hasBrand } from '../private/brand';
import { DNS1123_LABEL } from '../private/dns-names';
import { dnsLabelLike, refuseUnknownKeys, requireChildId } from '../private/invalid-input';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { valueText } from '../private/value-text';

/** An object by API version, kind, name and (for namespaced kinds) namespace. */
export interface ObjectReference {
  /** `v1`, `apps/v1`, `networking.example.com/v1alpha1`. */
  readonly apiVersion: string;
  /** The kind. */
  readonly kind: string;
  /** `metadata.name`. */
  readonly name: string;
  /**
   * The namespace, for namespaced kinds.
   *
   * @default - cluster-scoped, or the referring object's namespace
   */
  readonly namespace?: string;
}

/** A kind, by API version and kind. */
export interface KindReference {
  /** The kind's API version, for example `cert-manager.io/v1`. */
  readonly apiVersion: string;
  /** The kind, for example `ClusterIssuer`. */
  readonly kind: string;
}

/** Pods that something outside the composition makes, by namespace and labels (`Reference.externalPods`). */
export interface ExternalPodsOptions {
  /** The namespace the pods run in (`default` for a Service without a namespace). */
  readonly namespace: string;
  /**
   * The pods' labels: a Service in `namespace` whose selector asks for a
   * subset of them selects these pods.
   */
  readonly labels: Readonly<Record<string, string>>;
}

/** Options of `Reference.byName`. */
export interface NameReferenceOptions {
  /** The object that refers: an `ApiObject` or a construct whose default child is one. */
  readonly source: IConstruct;
  /**
   * The dotted path of the field holding the name, for example `spec.ruleSetRef`.
   * The field holds the name itself, an object with `name` (and optionally `namespace`),
   * or a list of either, each element a reference. A field of another shape, or a path
   * the source's manifest does not have, is refused at synth (`CAP010`).
   */
  readonly field: string;
  /** The kind the name refers to. */
  readonly target: {
    /** The referred kind's API version, for example `fms.example.com/v1`. */
    readonly apiVersion: string;
    /** The referred kind, for example `NetworkRuleSet`. */
    readonly kind: string;
  };
}

/**
 * Declares what the reference check (`CAP005`) cannot infer: an object that
 * exists outside the composition, pods that something outside it makes (for a
 * Service's selector), or a by-name reference between custom
 * resources (a policy naming its rule set by a plain string); and what the
 * identity check (`CAP001`) cannot: a custom kind that is cluster-scoped.
 *
 * @example
 * // the rule set is managed elsewhere: references to it are not dangling
 * Reference.external(routing, 'SharedRules', { apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet', name: 'baseline', namespace: 'security' });
 * // FMSPolicy.spec.ruleSetRef names a NetworkRuleSet: check that it exists
 * Reference.byName(routing, 'PolicyRules', { source: policy, field: 'spec.ruleSetRef', target: { apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet' } });
 */
export class Reference extends Construct {
  /** True when `x` is a `Reference`, also across duplicate installs of this package. */
  public static isReference(x: unknown): x is Reference {
    return hasBrand(x, 'Reference');
  }

  /**
   * Declares an object that exists outside the composition, so references to
   * it are not dangling.
   */
  public static external(scope: Construct, id: string, target: ObjectReference): Reference {
    return new Reference(scope, id, { external: target });
  }

  /**
   * Declares pods that something outside the composition makes (an operator,
   * another release's workload), so that a Service of the composition in
   * front of them is not dangling (`CAP005`): a Service in `namespace` whose
   * selector each of `labels` satisfies selects them.
   *
   * @example
   * // the Rollout of another release makes the pods Service shop/api selects
   * Reference.externalPods(routing, 'ApiPods', { namespace: 'shop', labels: { app: 'api' } });
   */
  public static externalPods(scope: Construct, id: string, options: ExternalPodsOptions): Reference {
    return new Reference(scope, id, { externalPods: options });
  }

  /**
   * Declares that a custom kind whose CRD is not in the composition is
   * cluster-scoped (its CRD says `scope: Cluster`), as the API server sees it:
   * its objects have no namespace, so two of one name are one object (`CAP001`)
   * whatever `metadata.namespace` their manifests give. Built-in kinds and
   * CRDs in the composition need no declaration; one of a kind they make
   * namespaced contradicts them, and is refused (`CAP010`) and left out.
   *
   * @example
   * Reference.clusterScoped(routing, 'ClusterIssuers', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer' });
   */
  public static clusterScoped(scope: Construct, id: string, kind: KindReference): Reference {
    return new Reference(scope, id, { clusterScopedKind: kind });
  }

  /** Declares that a field of `source` names an object of `target`'s kind, to be checked. */
  public static byName(scope: Construct, id: string, options: NameReferenceOptions): Reference {
    return new Reference(scope, id, { byName: options });
  }

  /** The external object, for `Reference.external`. */
  public readonly external?: ObjectReference;

  /** The pods made outside the composition, for `Reference.externalPods`. */
  public readonly externalPods?: ExternalPodsOptions;

  /** The declared by-name reference, for `Reference.byName`. */
  public readonly byName?: NameReferenceOptions;

  /** The kind declared cluster-scoped, for `Reference.clusterScoped`. */
  public readonly clusterScopedKind?: KindReference;

  private constructor(
    scope: Construct,
    id: string,
    props: { external?: ObjectReference; externalPods?: ExternalPodsOptions; byName?: NameReferenceOptions; clusterScopedKind?: KindReference },
  ) {
    super(refuseUnknownDeclarationKeys(requireChildId(scope, id, 'Reference', 'SharedRules'), id, props), id);
    brand(this, 'Reference');
    // from JavaScript, anything: a declaration that is not of its shape is refused (CAP010 at synth, naming
    // what is missing) and left out, so that no check reads it as it is
    const problems = referenceProblems(props);
    if (problems.length > 0) {
      this.node.addValidation(ownValidation({ validate: () => problems }));
      return;
    }
    this.external = props.external;
    this.externalPods = props.externalPods;
    this.byName = props.byName;
    this.clusterScopedKind = props.clusterScopedKind;
    if (this.byName) {
      const source = this.byName.source;
      // the source's ApiObject may be its default child, added after this declaration: looked up at synth
      this.node.addValidation(ownValidation({ validate: () => (apiObjectOf(source) ? [] : [`'source' ('${source.node.path}') must be an ApiObject, or a construct whose default child is one`]) }));
    }
  }
}

/** Why a declaration is refused: each part missing or of another type, named as the call takes it. */
function referenceProblems(props: { external?: unknown; externalPods?: unknown; byName?: unknown; clusterScopedKind?: unknown }): string[] {
  const problems: string[] = [];
  const text = (x: unknown) => typeof x === 'string' && x !== '';
  const fields = (what: string, value: unknown, required: readonly string[], example: string) => {
    const o = value as Record<string, unknown> | null;
    if (o === null || typeof o !== 'object' || Array.isArray(o)) {
      problems.push(`${what} (${valueText(value)}) must be an object such as ${example}`);
      return;
    }
    for (const key of required) if (!text(o[key])) problems.push(`${what}.${key} (${valueText(o[key])}) must be a string that is not empty, as in ${example}`);
  };
  const namespaceProblem = (what: string, namespace: unknown, example: string) => {
    if (typeof namespace !== 'string' || DNS1123_LABEL.test(namespace)) return;
    const like = dnsLabelLike(namespace);
    problems.push(`${what} (${valueText(namespace)}) must be a namespace, a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters) such as ${JSON.stringify(like || example)}`);
  };
  if ('external' in props) {
    fields("Reference.external's target", props.external, ['apiVersion', 'kind', 'name'], "{ apiVersion: 'v1', kind: 'Secret', name: 'tls', namespace: 'edge' }");
    const namespace = (props.external as { namespace?: unknown } | null)?.namespace;
    if (namespace !== undefined && typeof namespace !== 'string') problems.push(`Reference.external's target.namespace (${valueText(namespace)}) must be a string`);
    namespaceProblem("Reference.external's target.namespace", namespace, 'edge');
  }
  if ('externalPods' in props) {
    const example = "{ namespace: 'shop', labels: { app: 'api' } }";
    const o = props.externalPods as { namespace?: unknown; labels?: unknown } | null;
    if (o === null || typeof o !== 'object' || Array.isArray(o)) {
      problems.push(`Reference.externalPods's options (${valueText(o)}) must be an object such as ${example}`);
    } else {
      if (!text(o.namespace)) problems.push(`Reference.externalPods's namespace (${valueText(o.namespace)}) must be a string that is not empty, as in ${example}`);
      else namespaceProblem("Reference.externalPods's namespace", o.namespace, 'shop');
      const labels = o.labels as Record<string, unknown> | null;
      const isMap = labels !== null && typeof labels === 'object' && !Array.isArray(labels);
      if (!isMap || Object.keys(labels).length === 0 || !Object.values(labels).every((v) => typeof v === 'string')) {
        problems.push(`Reference.externalPods's labels (${valueText(labels)}) must be a map of at least one label to its value, as in ${example}`);
      }
    }
  }
  if ('clusterScopedKind' in props) {
    fields("Reference.clusterScoped's kind", props.clusterScopedKind, ['apiVersion', 'kind'], "{ apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer' }");
  }
  if ('byName' in props) {
    const o = props.byName as { source?: unknown; field?: unknown; target?: unknown } | null;
    if (o === null || typeof o !== 'object') {
      problems.push(`Reference.byName's options (${valueText(o)}) must be an object such as { source: policy, field: 'spec.ruleSetRef', target: { apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet' } }`);
    } else {
      if (!Construct.isConstruct(o.source)) problems.push("Reference.byName's 'source' must be a construct: an ApiObject, or a construct whose default child is one");
      if (!text(o.field)) problems.push(`Reference.byName's 'field' (${valueText(o.field)}) must be the dotted path of the field holding the name, such as 'spec.ruleSetRef'`);
      fields("Reference.byName's 'target'", o.target, ['apiVersion', 'kind'], "{ apiVersion: 'fms.example.com/v1', kind: 'NetworkRuleSet' }");
    }
  }
  return problems;
}

/** The keys each declaration takes (the compiler holds the lists to their interfaces). */
const KEYS = {
  external: keysOf<ObjectReference>({ apiVersion: true, kind: true, name: true, namespace: true }),
  externalPods: keysOf<ExternalPodsOptions>({ namespace: true, labels: true }),
  kind: keysOf<KindReference>({ apiVersion: true, kind: true }),
  byName: keysOf<NameReferenceOptions>({ source: true, field: true, target: true }),
};

/**
 * `scope`; or, before the declaration is added, the `CAP010` refusal of a key that a declaration's target, kind or options do not take,
 * with the key it most likely misspells: it would be dropped without a word (a misspelt namespace: the object in
 * any namespace; a name in byName's target kind). A construct or another class's instance of the shape (an
 * `ApiObject` as a kind, which its type allows) has keys of its own, and is not judged so.
 */
function refuseUnknownDeclarationKeys(
  scope: Construct,
  id: string,
  props: { external?: unknown; externalPods?: unknown; byName?: unknown; clusterScopedKind?: unknown },
): Construct {
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  const refuse = (api: string, given: unknown, known: readonly string[]) => {
    if (given !== null && typeof given === 'object' && isPlainObject(given)) refuseUnknownKeys(`${api} '${path}'`, given, known, path);
  };
  refuse('Reference.external target of', props.external, KEYS.external);
  refuse('Reference.externalPods options of', props.externalPods, KEYS.externalPods);
  refuse('Reference.clusterScoped kind of', props.clusterScopedKind, KEYS.kind);
  refuse('Reference.byName options of', props.byName, KEYS.byName);
  refuse("Reference.byName 'target' of", (props.byName as { target?: unknown } | undefined)?.target, KEYS.kind);
  return scope;
}

/** An object literal (or one without a prototype): what the declarations take; not a construct or another class's instance. */
function isPlainObject(x: object): boolean {
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}
