import { apiGroup, groupKind } from './object-identity';
import { K8S_1_30 } from './topology/k8s-1.30.generated';

/** Where the resource name of a kind came from. */
export type ResourceSource = 'crd' | 'built-in' | 'given' | 'known' | 'guessed';

/** The resource of a kind (`redises`), as admission rules and RBAC name it, and where that name came from. */
export interface KindResource {
  /** The plural resource name. */
  readonly resource: string;
  /**
   * `crd`: the `spec.names.plural` of its CRD in the composition; `built-in`: a kind of Kubernetes 1.30;
   * `given`: `CapabilityApp` prop `enforce.resources`; `known`: a kind whose CRD the library ships classes of
   * (`KNOWN_CRD_PLURALS`); `guessed`: none of those, Kubernetes' guess from the kind.
   */
  readonly source: ResourceSource;
}

/** The plural of a CRD in the composition, and the construct that declares the CRD. */
export interface CrdResource {
  /** Its `spec.names.plural`. */
  readonly plural: string;
  /** The construct path of its declarer. */
  readonly declarer: string;
}

/**
 * The built-in kinds of Kubernetes 1.30 whose resource is not `guessResource` of their kind (the rest are):
 * both end in `s`, and the API serves them under the kind lowercased. Source: the `URL_PATH_SEGMENT` of
 * `resource.k8s.io/v1alpha2` in k8s-openapi, generated from the Kubernetes 1.30 OpenAPI document.
 */
const IRREGULAR_BUILT_IN: Readonly<Record<string, string>> = {
  'resource.k8s.io/ResourceClaimParameters': 'resourceclaimparameters',
  'resource.k8s.io/ResourceClassParameters': 'resourceclassparameters',
};

/**
 * The kinds the API server serves beside those of k8s.io/api (which `K8S_1_30` holds): apiextensions-apiserver's
 * and kube-aggregator's. Their resources are the guess.
 */
const BUILT_IN_BEYOND_TOPOLOGY: ReadonlySet<string> = new Set(['apiextensions.k8s.io/CustomResourceDefinition', 'apiregistration.k8s.io/APIService']);

/**
 * The `spec.names.plural` of the CRDs whose classes the library ships (`src/imports`) or writes itself
 * (`consume()`'s ExternalSecret, `GitOps.flux(...)`'s Kustomization), by `group/Kind`: their objects need no
 * CRD in the composition for the resource a policy matches. A table, so that nothing loads `src/imports` to
 * read it; test/enforcement-plurals.test.ts checks it against the CRD files in /work/shared/crds.
 */
export const KNOWN_CRD_PLURALS: Readonly<Record<string, string>> = {
  'external-secrets.io/ExternalSecret': 'externalsecrets',
  'external-secrets.io/ClusterSecretStore': 'clustersecretstores',
  'gateway.networking.k8s.io/Gateway': 'gateways',
  'gateway.networking.k8s.io/HTTPRoute': 'httproutes',
  'kustomize.toolkit.fluxcd.io/Kustomization': 'kustomizations',
  'networking.istio.io/VirtualService': 'virtualservices',
};

/** Whether Kubernetes 1.30 serves a kind itself (no CRD needed). */
export function isBuiltInKind(group: string, kind: string): boolean {
  const key = groupKind(group, kind);
  return Object.hasOwn(K8S_1_30.kinds, key) || BUILT_IN_BEYOND_TOPOLOGY.has(key);
}

/**
 * The key of a kind in `enforce.resources`, as kubectl writes a kind with its group: `Redis.cache.example.com`;
 * a kind of the core group alone: `ConfigMap`.
 */
export function resourceKey(group: string, kind: string): string {
  return group ? `${kind}.${group}` : kind;
}

/**
 * `group/Kind` to the plural of each CustomResourceDefinition among some objects, the first declaration of a
 * kind kept.
 *
 * @param objects the objects, each with its manifest and declarer
 */
export function crdResources(objects: ReadonlyArray<{ readonly manifest?: any; readonly declarer: string }>): Map<string, CrdResource> {
  const plurals = new Map<string, CrdResource>();
  for (const { manifest: m, declarer } of objects) {
    if (m?.kind !== 'CustomResourceDefinition' || apiGroup(String(m.apiVersion ?? '')) !== 'apiextensions.k8s.io') continue;
    const { group, names } = m.spec ?? {};
    if (typeof group === 'string' && typeof names?.kind === 'string' && typeof names?.plural === 'string') {
      const key = groupKind(group, names.kind);
      if (!plurals.has(key)) plurals.set(key, { plural: names.plural, declarer });
    }
  }
  return plurals;
}

/**
 * The resource of a kind: its CRD's plural when the CRD is in the composition; a built-in kind's own; the one
 * `given` (`enforce.resources`, keyed by `resourceKey`); a CRD's the library ships (`KNOWN_CRD_PLURALS`); else `guessResource` of the kind, which matches
 * nothing when the CRD installed elsewhere names another plural.
 *
 * @param crds the CRDs of the composition (`crdResources`)
 * @param given the resources the user gave, by `resourceKey`
 */
export function kindResource(
  group: string,
  kind: string,
  crds: ReadonlyMap<string, CrdResource>,
  given?: Readonly<Record<string, string>>,
): KindResource {
  const key = groupKind(group, kind);
  const crd = crds.get(key);
  if (crd) return { resource: crd.plural, source: 'crd' };
  if (isBuiltInKind(group, kind)) return { resource: builtInResource(group, kind), source: 'built-in' };
  const named = given && Object.hasOwn(given, resourceKey(group, kind)) ? given[resourceKey(group, kind)] : undefined;
  if (named !== undefined) return { resource: named, source: 'given' };
  if (Object.hasOwn(KNOWN_CRD_PLURALS, key)) return { resource: KNOWN_CRD_PLURALS[key], source: 'known' };
  return { resource: guessResource(kind), source: 'guessed' };
}

/** The resource of a built-in kind of Kubernetes 1.30. */
export function builtInResource(group: string, kind: string): string {
  return IRREGULAR_BUILT_IN[groupKind(group, kind)] ?? guessResource(kind);
}

/**
 * Kubernetes' own guess of a kind's resource, exactly as apimachinery's
 * `meta.UnsafeGuessKindToResource` makes it (kubernetes/apimachinery
 * pkg/api/meta/restmapper.go): the kind lowercased; unchanged when it ends in
 * `endpoints`; else `-es` after a final `s`, `-y` to `-ies` (after any letter:
 * `gateway` gives `gatewaies`), else `-s`. The API server maps kinds it has no
 * discovery for this way; a CRD names its plural itself and may name another
 * (`Redis` guessed `redises`, often `redis`), so a guess can be wrong.
 */
export function guessResource(kind: string): string {
  if (kind.length === 0) return '';
  const singular = kind.toLowerCase();
  if (singular.endsWith('endpoints')) return singular;
  if (singular.endsWith('s')) return `${singular}es`;
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}
