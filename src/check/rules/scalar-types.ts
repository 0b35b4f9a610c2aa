import type { Facts, ObjectFact } from '../../collect/facts';
import { formatPath } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { describeIdentity } from '../../collect/object-identity';
import { ScalarTypeProblem, scalarTypeProblems, ShapeType } from '../../collect/scalar-types';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { walkManifest } from '../../private/manifest-walk';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

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
 */
export const scalarTypes = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'scalar types',
  explanation: "A scalar field of a built-in kind takes one JSON type (a number, a string, a boolean); the API server refuses another (replicas: '3'), after earlier steps were already applied.",
  run: ({ facts }) => {
    const writersAt = fieldWriters(facts);
    return facts.objects.flatMap((o) => (o.duplicateOf === undefined ? problemsOf(o, writersAt) : []));
  },
});

function problemsOf(object: ObjectFact, writersAt: (object: ObjectFact, field: string) => Writer[]): RuleFinding[] {
  // a value the JSON-values rule refuses (a handle, a function, a Symbol) is that rule's finding, not a shape's
  const nonJson = walkManifest(object.manifest).nonJson?.path;
  const problems = scalarTypeProblems(object.identity.group, object.identity.kind, object.manifest)
    .filter((p) => !nonJson || !p.at.every((segment, i) => String(nonJson[i]) === segment))
    // NaN and the infinities are the JSON-values rule's too, wherever they are: "(null) must be a string" would misname them
    .filter((p) => typeof p.value !== 'number' || Number.isFinite(p.value));
  if (problems.length === 0) return [];
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  // a built-in kind's: the problems are of built-in kinds only
  const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind);
  return problems.map((p) => {
    const field = manifestPathText(p.at, object.manifest, topology);
    // the writers of the value, when another than the declarer wrote it (a Contribution, an escape hatch)
    const others = writersAt(object, field).filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
    const by = others.length === 0 ? '' : `, written by ${others.map(describeWriter).join(' and ')},`;
    return {
      message: `'${field}' (${shown(p.value)}) of ${what} declared by '${object.declarer}'${by} must be ${NAMED[p.expected]}, as Kubernetes 1.30's schema types it; the API server refuses ${typeOf(p.value)} there. ${fix(p)}`,
      paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
    };
  });
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
