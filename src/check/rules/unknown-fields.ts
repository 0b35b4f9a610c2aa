import type { ObjectFact } from '../../collect/facts';
import { describeWriter } from '../../collect/ledger/writer';
import { describeIdentity } from '../../collect/object-identity';
import { builtInVersion, UnknownField, unknownFields } from '../../collect/scalar-types';
import type { MapSpec } from '../../collect/topology/field-topology';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { ViolationCode } from '../finding';
import { objectField, writersNamed } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldWriters } from './scalar-types';
import { fieldPathOf } from './unseen-fields';

/**
 * `CAP010`: a field that an object of a built-in kind does not have in Kubernetes 1.30's schema (`spec.replicaz`,
 * a container's `imagePullPolcy`, `metadata.x` from `metadata.add('x', 'y')`). TypeScript lets it through an
 * `ApiObject`'s props (`as any`), an escape hatch or `metadata.add`; synth would write it, and `cdk-capability
 * apply` (`kubectl apply --server-side`, whose `--validate` is `strict` by default) is refused mid-release: the
 * API server's server-side apply types the patch with structured-merge-diff, which refuses
 * `.spec.replicaz: field not declared in schema` (`failed to create typed patch object`); a create or a
 * client-side apply is refused with `strict decoding error: unknown field "spec.replicaz"` (k8s.io/apimachinery's
 * strict decoding error).
 *
 * Only the API version whose schema the table holds is judged (`apps/v1` Deployments, `autoscaling/v2`
 * HorizontalPodAutoscalers): an object of another version of the kind and what lies below an untyped field say
 * nothing; a custom resource is judged against its CRD by the rule of custom resource schemas. One walk of each
 * manifest, the one the rule of scalar types makes.
 */
export const unknownFieldsRule = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'unknown fields',
  explanation: "A field a built-in kind does not have (spec.replicaz) passes synth and is refused by the API server's strict field validation at apply, after earlier steps were applied.",
  run: ({ facts }) => {
    let writersAt: ReturnType<typeof fieldWriters> | undefined;
    const out: RuleFinding[] = [];
    for (const object of facts.objects) {
      if (object.duplicateOf !== undefined) continue;
      const { group, kind } = object.identity;
      const version = builtInVersion(group, kind);
      if (version === undefined || versionOf(object.manifest?.apiVersion) !== version) continue;
      const unknown = unknownFields(group, kind, object.manifest);
      if (unknown.length === 0) continue;
      writersAt ??= fieldWriters(facts);
      for (const u of unknown) out.push(unknownFinding(object, u, writersAt));
    }
    return out;
  },
});

/** The version of an `apiVersion` (`v1` of `apps/v1` and of `v1`). */
function versionOf(apiVersion: unknown): string | undefined {
  return typeof apiVersion === 'string' ? apiVersion.slice(apiVersion.lastIndexOf('/') + 1) : undefined;
}

function unknownFinding(object: ObjectFact, u: UnknownField, writersAt: ReturnType<typeof fieldWriters>): RuleFinding {
  const topology = topologyOf(String(object.manifest.apiVersion), object.identity.kind);
  const field = manifestPathText(u.at, object.manifest, topology);
  const name = u.at[u.at.length - 1];
  const others = writersAt(object, field).filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
  const by = others.length === 0 ? '' : `, written by ${others.map(describeWriter).join(' and ')},`;
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  const near = nearestField(name, u.struct);
  const parent = u.at.length > 1 ? manifestPathText(u.at.slice(0, -1), object.manifest, topology) : '';
  const strict = u.at.map((s, i) => (/^\d+$/.test(s) && i > 0 ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
  const fix = fixOf(u, name, near, parent);
  return {
    message: `'${field}' of ${what} declared by '${object.declarer}'${by} is no field of ${object.manifest.apiVersion} ${object.identity.kind} in Kubernetes 1.30's schema; `
      + `synth would write it and the API server refuses it at apply (server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field ${JSON.stringify(strict)}'). ${fix}`,
    paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
    field: writersNamed(objectField(object, fieldPathOf(u.at, object.manifest, topology)), others.length > 0),
  };
}

/** How to fix an unknown field: rename it to the nearest field, else remove it (a root metadata key: or make it a label or an annotation). */
function fixOf(u: UnknownField, name: string, near: string | undefined, parent: string): string {
  if (near !== undefined) return `Did you mean ${near}? Rename it to '${parent ? `${parent}.` : ''}${near}', or remove it.`;
  if (u.at.length === 2 && u.at[0] === 'metadata') {
    return `Remove it, or write it as a label or an annotation (metadata.addLabel(${JSON.stringify(name)}, ...), metadata.addAnnotation(${JSON.stringify(name)}, ...)): metadata.add puts a key in metadata itself.`;
  }
  const fields = known(u.struct);
  return `Remove it${fields.length > 0 ? ` (${parent ? `'${parent}'` : 'the object'} has ${list(fields)})` : ''}.`;
}

/** The fields of a struct, sorted. */
function known(struct: MapSpec): string[] {
  return [...Object.keys(struct.fields ?? {}), ...(struct.scalars?.split(' ') ?? [])].sort();
}

/** At most ten names, as messages list them. */
function list(names: readonly string[]): string {
  return names.length > 10 ? `${names.slice(0, 10).join(', ')}, ...` : names.join(', ');
}

/**
 * The struct's field nearest `name` by edit distance (letter case ignored, so `imagepullpolicy` finds
 * `imagePullPolicy`), when one is near enough to be a misspelling: at most a third of the name's letters apart
 * (at least one, at most three). Ties go to the first in alphabetical order.
 */
export function nearestField(name: string, struct: MapSpec): string | undefined {
  return nearestName(name, known(struct));
}

/**
 * The candidate nearest `name` by edit distance, letter case ignored, when one is near enough to be a misspelling
 * (as `nearestField` finds a struct's field): at most a third of the name's letters apart (at least one, at most
 * three). Ties go to the first of `candidates`.
 *
 * @param candidates the names a fix may mean, sorted
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
