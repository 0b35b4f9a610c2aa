import type { Facts, ObjectFact } from '../../collect/facts';
import { formatPath } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { describeIdentity } from '../../collect/object-identity';
import { IntegerFormat, IntegerProblem, integerProblems, isBuiltInKind, ScalarTypeProblem, scalarTypeProblems, ShapeType } from '../../collect/scalar-types';
import { CrdTopologies } from '../../collect/topology/crd-topology';
import { FieldTopology, topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { walkManifest } from '../../private/manifest-walk';
import { SENSITIVE } from '../../release/lock';
import { ViolationCode } from '../finding';
import { objectField, writersNamed } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldPathOf, unseenBy } from './unseen-fields';

/** How messages name a type. */
const NAMED: Readonly<Record<ShapeType, string>> = {
  'map': 'a map (an object of keys and values)',
  'list': 'a list (an array)',
  'string': 'a string',
  'number': 'a number',
  'boolean': 'a boolean (true or false)',
  'string or number': 'a string or a number (an int-or-string, a quantity)',
};

/**
 * `CAP010`: a scalar field of a built-in kind given a value of another JSON
 * type (`replicas: '3'`, a ConfigMap's `data: { a: 1 }`, `paused: 'true'`),
 * which plain JavaScript lets through and the API server refuses; a map or a
 * list where the schema takes a scalar (`replicas: { value: 3 }`, `image: ['x']`),
 * and a scalar or another shape where it takes a map or a list. The types
 * are Kubernetes 1.30's (`scalarTypeProblems`); int-or-string fields and
 * quantities take both.
 *
 * A number in an integer field (`replicas`, `containerPort`, an int-or-string's number) that the API server cannot
 * decode into the field's Go integer type (`integerProblems`): a fraction (`replicas: 1.5`), or a value out of the
 * type's range (`2147483648` in an `int32`, `1e21`). A create or a client-side apply is refused at decode with
 * `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct
 * field DeploymentSpec.spec.replicas of type int32` (k8s.io/apiserver's `transformDecodeError` around
 * sigs.k8s.io/json's decoder); a server-side apply refuses a fraction with `cannot convert float64 to int32`
 * (apimachinery's `runtime.DefaultUnstructuredConverter`). A field a `RuntimeWriter` writes and a value that is an
 * aws-cdk token are not judged.
 */
export const scalarTypes = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'scalar types',
  explanation: "A scalar field of a built-in kind takes one JSON type (a number, a string, a boolean); the API server refuses another (replicas: '3'), after earlier steps were already applied.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    let crds: CrdTopologies | undefined;
    const crdsOf = () => (crds ??= CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest)));
    return facts.objects.flatMap((o, index) => (o.duplicateOf === undefined ? problemsOf(facts, index, writersAt, crdsOf) : []));
  },
});

/** The writers of a field of an object, as `fieldWriters` finds them. */
type WritersAt = (object: ObjectFact, field: string) => Writer[];

function problemsOf(facts: Facts, index: number, writersAt: WritersAt, crdsOf: () => CrdTopologies): RuleFinding[] {
  const object = facts.objects[index];
  if (!isBuiltInKind(object.identity.group, object.identity.kind)) return customResourceProblems(facts, index, writersAt, crdsOf);
  const shapes = scalarTypeProblems(object.identity.group, object.identity.kind, object.manifest);
  const integers = integerProblems(object.identity.group, object.identity.kind, object.manifest);
  if (shapes.length === 0 && integers.length === 0) return [];
  // a value the JSON-values rule refuses (a handle, a function, a Symbol) is that rule's finding, not a shape's
  const nonJson = shapes.length === 0 ? undefined : walkManifest(object.manifest).nonJson?.path;
  const problems = shapes
    .filter((p) => !nonJson || !p.at.every((segment, i) => String(nonJson[i]) === segment))
    // NaN and the infinities are the JSON-values rule's too, wherever they are: "(null) must be a string" would misname them
    .filter((p) => typeof p.value !== 'number' || Number.isFinite(p.value));
  if (problems.length === 0 && integers.length === 0) return [];
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  // a built-in kind's: the problems are of built-in kinds only
  const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind);
  const unseen = integers.length === 0 ? undefined : unseenBy(facts, index);
  return [...problems.map((p) => typeFinding(object, p, what, topology, writersAt)), ...integers
    .filter((p) => !unseen!(p.at, fieldPathOf(p.at, object.manifest, topology)))
    .map((p) => integerFinding(object, p, what, topology, writersAt))];
}

/** A custom resource's numbers with a fraction in the fields its CRD (in the composition) types `integer`. */
function customResourceProblems(facts: Facts, index: number, writersAt: WritersAt, crdsOf: () => CrdTopologies): RuleFinding[] {
  const object = facts.objects[index];
  const crds = crdsOf();
  const problems = crds.integerProblems(object.identity.group, object.identity.kind, object.manifest);
  if (problems.length === 0) return [];
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind, crds);
  const unseen = unseenBy(facts, index);
  return problems.filter((p) => !unseen(p.at, fieldPathOf(p.at, object.manifest, topology))).map((p) => {
    const field = manifestPathText(p.at, object.manifest, topology);
    const others = writersAt(object, field).filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
    const by = others.length === 0 ? '' : `, written by ${others.map(describeWriter).join(' and ')},`;
    const given = JSON.stringify(p.value);
    return {
      message: `'${field}' (${given}) of ${what} declared by '${object.declarer}'${by} must be an integer, as the schema of its CRD '${p.crd}' types it; `
        + `the API server refuses ${given} there (${p.apiServerError}). ${roundingFix(p.value) ?? 'Write an integer.'}`,
      paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
      field: writersNamed(objectField(object, fieldPathOf(p.at, object.manifest, topology)), others.length > 0),
    };
  });
}

/** The nearest integer as the fix of a number with a fraction, when it fits an int32; undefined for another number. */
function roundingFix(value: number): string | undefined {
  const rounded = Math.round(value);
  return !/^-?\d+$/.test(JSON.stringify(value)) && rounded >= -2147483648 && rounded <= 2147483647
    ? `Write ${rounded}, or round the value where it is computed (Math.round(...)).`
    : undefined;
}

/** The range of each Go integer type, as messages write it. */
const RANGE_TEXT: Readonly<Record<IntegerFormat, string>> = {
  int32: '-2147483648 to 2147483647',
  int64: '-9223372036854775808 to 9223372036854775807',
};

function integerFinding(object: ObjectFact, p: IntegerProblem, what: string, topology: FieldTopology, writersAt: WritersAt): RuleFinding {
  const field = manifestPathText(p.at, object.manifest, topology);
  const others = writersAt(object, field).filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
  const by = others.length === 0 ? '' : `, written by ${others.map(describeWriter).join(' and ')},`;
  const given = JSON.stringify(p.value);
  // a fraction whose nearest integer fits: that integer is the fix; a value out of range has none to name
  const rounded = roundingFix(p.value) ?? `Write an integer from ${RANGE_TEXT[p.format]}.`;
  const expected = `${p.intOrString ? 'a string or ' : ''}an integer from ${RANGE_TEXT[p.format]} (a Go ${p.format})`;
  return {
    message: `'${field}' (${given}) of ${what} declared by '${object.declarer}'${by} must be ${expected}, `
      + `as Kubernetes 1.30's schema types it; the API server refuses ${given} there (${p.decodeError}). ${rounded}`,
    paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
    field: writersNamed(objectField(object, fieldPathOf(p.at, object.manifest, topology)), others.length > 0),
  };
}

/** True for a value in a Secret's `data` or `stringData`, which the lock masks as `(sensitive)` (`lockValues`). */
function isSecretData(object: ObjectFact, at: readonly string[]): boolean {
  return object.identity.group === '' && object.identity.kind === 'Secret' && (at[0] === 'data' || at[0] === 'stringData');
}

/**
 * The finding of a value of another type than Kubernetes 1.30's schema gives the field (of a built-in kind, or of
 * the root `metadata` of a custom resource): the field, the value, the type, the fix.
 */
export function typeFinding(object: ObjectFact, p: ScalarTypeProblem, what: string, topology: FieldTopology, writersAt: WritersAt): RuleFinding {
  const field = manifestPathText(p.at, object.manifest, topology);
  // the writers of the value, when another than the declarer wrote it (a Contribution, an escape hatch)
  const others = writersAt(object, field).filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
  const by = others.length === 0 ? '' : `, written by ${others.map(describeWriter).join(' and ')},`;
  // a Secret's data is masked as the lock masks it: a refusal lands in CI logs
  const secret = isSecretData(object, p.at);
  const given = secret ? SENSITIVE : `(${shown(p.value)})`;
  const remedy = secret ? `Write ${NAMED[p.expected]} in place of ${typeOf(p.value)}.` : fix(p);
  return {
    message: `'${field}' ${given} of ${what} declared by '${object.declarer}'${by} must be ${NAMED[p.expected]}, as Kubernetes 1.30's schema types it; the API server refuses ${typeOf(p.value)} there. ${remedy}`,
    paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
    field: writersNamed(objectField(object, fieldPathOf(p.at, object.manifest, topology)), others.length > 0),
  };
}

/**
 * The writers the field ledger records at a field of an object or below it (a map written where a scalar
 * belongs is recorded by its leaves), each once; `field` as `manifestPathText` names it.
 */
export function fieldWriters(facts: Facts): (object: ObjectFact, field: string) => Writer[] {
  let byLabel: Map<string, Facts['ledger']['objects'][number]> | undefined;
  return (object, field) => {
    byLabel ??= new Map(facts.ledger.objects.filter((w) => w.kind === 'k8s').map((w) => [w.label, w]));
    const writers = (byLabel.get(describeIdentity(object.identity))?.writes ?? [])
      .filter((w) => {
        const at = formatPath(w.path);
        return at === field || at.startsWith(`${field}.`) || at.startsWith(`${field}[`);
      })
      .map((w) => w.writer);
    return [...new Map(writers.map((w) => [describeWriter(w), w])).values()];
  };
}

function typeOf(value: string | number | boolean | object): string {
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a map' : typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : 'a boolean';
}

/** A value as messages show it: JSON, cut after 60 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The same value written in the type the field takes, when there is one: `Write 3, not "3".` */
function fix(p: ScalarTypeProblem): string {
  const given = shown(p.value);
  if (p.expected === 'map') return 'Write a map, such as { key: value }.';
  if (p.expected === 'list') return 'Write a list, such as [item].';
  if (typeof p.value === 'object') {
    // a map of one key or a list of one element around a value the field takes: that value is the fix
    const values: unknown[] = Array.isArray(p.value) ? p.value : Object.values(p.value);
    const inner = values.length === 1 ? values[0] : undefined;
    const fits = p.expected === 'string or number' ? typeof inner === 'string' || typeof inner === 'number' : typeof inner === p.expected;
    return fits ? `Write ${shown(inner)}, not ${given}.` : `Write ${NAMED[p.expected]} in place of the ${Array.isArray(p.value) ? 'list' : 'map'}.`;
  }
  if (p.expected === 'string') return `Write ${JSON.stringify(String(p.value))}, not ${given}.`;
  if (p.expected === 'string or number') return 'Write a number or a string.';
  if (p.expected === 'number') {
    return typeof p.value === 'string' && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(p.value) ? `Write ${p.value}, not ${given}.` : 'Write a number.';
  }
  return p.value === 'true' || p.value === 'false' ? `Write ${p.value}, not ${given}.` : 'Write true or false.';
}
