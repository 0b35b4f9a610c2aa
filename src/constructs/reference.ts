import { Construct, IConstruct } from 'constructs';
import { brand, hasBrand } from '../private/brand';

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

/** Options of `Reference.byName`. */
export interface NameReferenceOptions {
  /** The object that refers: an `ApiObject` or a construct whose default child is one. */
  readonly source: IConstruct;
  /**
   * The dotted path of the field holding the name, for example `spec.ruleSetRef`.
   * The field holds the name itself, or an object with `name` (and optionally `namespace`).
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
 * exists outside the composition, or a by-name reference between custom
 * resources (a policy naming its rule set by a plain string).
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

  /** Declares that a field of `source` names an object of `target`'s kind, to be checked. */
  public static byName(scope: Construct, id: string, options: NameReferenceOptions): Reference {
    return new Reference(scope, id, { byName: options });
  }

  /** The external object, for `Reference.external`. */
  public readonly external?: ObjectReference;

  /** The declared by-name reference, for `Reference.byName`. */
  public readonly byName?: NameReferenceOptions;

  private constructor(scope: Construct, id: string, props: { external?: ObjectReference; byName?: NameReferenceOptions }) {
    super(scope, id);
    brand(this, 'Reference');
    this.external = props.external;
    this.byName = props.byName;
  }
}
