import { apiGroup } from '../object-identity';

/**
 * How server-side apply treats a list or map: the one table to extend when a
 * kind needs more rules. A rule matches when the field names of a path (element
 * keys left out) end with `suffix`, for the kinds it names.
 */
export interface OwnershipRule {
  /** Field names the path ends with, for example `['containers', 'ports']`. */
  readonly suffix: readonly string[];
  /** `group/Kind` keys it applies to; all built-in kinds when absent. */
  readonly kinds?: readonly string[];
  /** For a keyed list: the fields that identify an element. */
  readonly keys?: readonly string[];
  /** Values of key fields an element may leave out (`protocol` defaults to `TCP`). */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
  /** An atomic list or map: one leaf, owned whole. */
  readonly atomic?: boolean;
}

const SERVICE = ['/Service'];

/** The rules of the built-in Kubernetes API (see FIELD-NOTES.md and the API's list markers). */
export const OWNERSHIP_RULES: OwnershipRule[] = [
  { suffix: ['containers'], keys: ['name'] },
  { suffix: ['initContainers'], keys: ['name'] },
  { suffix: ['ephemeralContainers'], keys: ['name'] },
  { suffix: ['volumes'], keys: ['name'] },
  { suffix: ['env'], keys: ['name'] },
  { suffix: ['imagePullSecrets'], keys: ['name'] },
  { suffix: ['volumeMounts'], keys: ['mountPath'] },
  { suffix: ['volumeDevices'], keys: ['devicePath'] },
  { suffix: ['containers', 'ports'], keys: ['containerPort', 'protocol'], keyDefaults: { protocol: 'TCP' } },
  { suffix: ['initContainers', 'ports'], keys: ['containerPort', 'protocol'], keyDefaults: { protocol: 'TCP' } },
  { suffix: ['spec', 'ports'], kinds: SERVICE, keys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } },
  { suffix: ['spec', 'selector'], kinds: SERVICE, atomic: true },
  { suffix: ['selector', 'matchLabels'], atomic: true },
  { suffix: ['selector', 'matchExpressions'], atomic: true },
  { suffix: ['nodeSelector'], atomic: true },
  { suffix: ['command'], atomic: true },
  { suffix: ['args'], atomic: true },
  { suffix: ['tolerations'], atomic: true },
];

/** API groups of the built-in Kubernetes API: their lists follow `OWNERSHIP_RULES`. */
const BUILT_IN_GROUPS = new Set([
  '', 'apps', 'batch', 'autoscaling', 'policy', 'networking.k8s.io', 'rbac.authorization.k8s.io', 'storage.k8s.io',
  'scheduling.k8s.io', 'node.k8s.io', 'discovery.k8s.io', 'coordination.k8s.io', 'admissionregistration.k8s.io',
  'apiextensions.k8s.io', 'apiregistration.k8s.io', 'certificates.k8s.io', 'events.k8s.io', 'flowcontrol.apiserver.k8s.io',
]);

/** The ownership rules in force for one kind. */
export class OwnershipRules {
  /** No rules: every list atomic, every map granular (custom resources, CloudFormation). */
  public static readonly NONE = new OwnershipRules([]);

  /**
   * The rules for a manifest's kind. Custom resources get none: without schema
   * markers their lists are atomic (server-side apply's default), their maps granular.
   */
  public static forManifest(manifest: any): OwnershipRules {
    const group = apiGroup(String(manifest?.apiVersion ?? ''));
    const kind = `${group}/${manifest?.kind}`;
    if (!BUILT_IN_GROUPS.has(group)) return OwnershipRules.NONE;
    return new OwnershipRules(OWNERSHIP_RULES.filter((r) => !r.kinds || r.kinds.includes(kind)));
  }

  private readonly byLastName = new Map<string, OwnershipRule[]>();

  private constructor(rules: readonly OwnershipRule[]) {
    for (const rule of rules) {
      const last = rule.suffix[rule.suffix.length - 1];
      this.byLastName.set(last, [...(this.byLastName.get(last) ?? []), rule]);
    }
  }

  /** The rule for a path, given its field names (element keys left out). */
  public ruleFor(names: readonly string[]): OwnershipRule | undefined {
    const candidates = this.byLastName.get(names[names.length - 1]);
    if (!candidates) return undefined;
    let best: OwnershipRule | undefined;
    for (const rule of candidates) {
      if (rule.suffix.length > names.length) continue;
      const offset = names.length - rule.suffix.length;
      if (rule.suffix.every((s, i) => names[offset + i] === s) && (!best || rule.suffix.length > best.suffix.length)) best = rule;
    }
    return best;
  }
}
