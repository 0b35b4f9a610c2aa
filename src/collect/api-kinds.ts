// The kinds and groups the Kubernetes 1.30 API serves, for the checks of an object's apiVersion and kind and of
// the kinds a `Reference` declares.
import { K8S_1_30 } from './topology/k8s-1.30.generated';

/** A kind as the API names them: UpperCamelCase, letters and digits. */
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/** The built-in kinds of Kubernetes 1.30, by group (`''` for the core group), and every kind by its lowercase form. */
const BUILT_IN = builtInKinds();

/** Why an `apiVersion` names no API group the server could have, or undefined. The syntax itself is the validity rule's. */
export function apiVersionProblem(apiVersion: string, kind: string | undefined): string | undefined {
  const slash = apiVersion.indexOf('/');
  if (slash === -1) return undefined;
  const group = apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  if (group === 'core') return `names the core group, which has no name in an apiVersion. Use ${JSON.stringify(version)}.`;
  if (group.includes('.') || BUILT_IN.groups.has(group)) return undefined;
  const likely = kind ? BUILT_IN.byLowerKind.get(kind.toLowerCase())?.group : undefined;
  const suggestion = likely !== undefined ? ` such as ${JSON.stringify(likely ? `${likely}/${version}` : version)}` : '';
  return `names the group ${JSON.stringify(group)}, which is no built-in group, and a CustomResourceDefinition's group must contain a dot (example.com). Use the kind's group and version${suggestion}.`;
}

/** Why a kind is no kind the API serves, or undefined. */
export function kindProblem(kind: string, group: string | undefined): string | undefined {
  const wellFormed = KIND.test(kind);
  if (wellFormed && (group === undefined || !BUILT_IN.groups.has(group) || BUILT_IN.kinds.has(`${group}/${kind}`))) return undefined;
  const known = BUILT_IN.byLowerKind.get(kind.replace(/[^A-Za-z0-9]/g, '').toLowerCase());
  if (!wellFormed) {
    const suggestion = known ? ` such as ${JSON.stringify(known.kind)}` : '';
    return `must be UpperCamelCase, letters and digits only, as the API names kinds${suggestion}. Fix the kind.`;
  }
  const groupName = group === '' ? 'the core group (apiVersion "v1")' : `the group ${JSON.stringify(group)}`;
  if (known && known.kind === kind && known.group !== group) {
    return `is not a kind of ${groupName}; ${kind} is in ${known.group === '' ? 'the core group' : `the group ${JSON.stringify(known.group)}`}. Set apiVersion to ${JSON.stringify(known.group === '' ? 'v1' : `${known.group}/v1`)} or the version you mean.`;
  }
  if (known && known.group === group) return `is not a kind of ${groupName}: the API names it ${JSON.stringify(known.kind)}. Fix the case.`;
  return `is not a kind of ${groupName}, which serves only the built-in kinds (custom kinds live in the group of their CustomResourceDefinition). Fix the kind or the apiVersion.`;
}

function builtInKinds() {
  const kinds = new Set(Object.keys(K8S_1_30.kinds));
  // served by the apiextensions and aggregator servers, and the core group's List; not in the apply schema
  for (const extra of ['apiextensions.k8s.io/CustomResourceDefinition', 'apiregistration.k8s.io/APIService', '/List', '/Binding']) kinds.add(extra);
  const groups = new Set<string>();
  const byLowerKind = new Map<string, { group: string; kind: string }>();
  for (const key of [...kinds].sort()) {
    const slash = key.lastIndexOf('/');
    const group = key.slice(0, slash);
    const kind = key.slice(slash + 1);
    groups.add(group);
    // the first group in sorted order wins for a kind in several (Deployment: apps before extensions)
    const lower = kind.toLowerCase();
    const existing = byLowerKind.get(lower);
    if (!existing || (existing.group === 'extensions' && group !== 'extensions')) byLowerKind.set(lower, { group, kind });
  }
  return { kinds, groups, byLowerKind };
}
