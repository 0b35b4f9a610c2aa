import { CustomResourceProblem, CustomResourceSchemas, CustomTypeProblem, CustomLimitProblem, goValue, matchesPattern, UnknownCustomKind } from '../../collect/custom-resource-schema';
import type { Facts, ObjectFact } from '../../collect/facts';
import { describeWriter } from '../../collect/ledger/writer';
import { describeIdentity, groupKind } from '../../collect/object-identity';
import { resourceKey } from '../../collect/resource-names';
import { customResourceMetadataProblems, isBuiltInKind, UnknownField } from '../../collect/scalar-types';
import { CrdTopologies } from '../../collect/topology/crd-topology';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { ViolationCode } from '../finding';
import { objectField, writersNamed } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldWriters, typeFinding } from './scalar-types';
import { nearestField, nearestName } from './unknown-fields';
import { fieldPathOf, unseenBy } from './unseen-fields';

/**
 * `CAP010`: a custom resource that the schema of its CRD (an `apiextensions.k8s.io/v1` CustomResourceDefinition in
 * the composition) refuses, for the version its `apiVersion` names, as the API server's validation does
 * (`CustomResourceSchemas.validate`): a field the schema does not declare (`spec.intervall` of a Flux
 * Kustomization), a value of another type (`replicas: "3"` for an `integer`), a `required` field left out, a value
 * outside an `enum`, a string, a number, a list or a map outside its `maxLength`, `minLength`, `pattern`,
 * `maximum`, `minimum`, `maxItems`, `minItems`, `maxProperties` or `minProperties`; a key of the root `metadata`
 * that ObjectMeta does not have (`metadata.add('team', 'edge')`), or of another type than ObjectMeta's (`generateName: 3`); an `apiVersion` whose
 * version the CRD does not serve; and, when a CRD of its group is in the composition, a kind that no CRD of the
 * composition defines and Kubernetes does not build in (`kind: Widgte` beside the CRD of `acme.io/Widget`), unless
 * the program declares the kind to come from a CRD outside the composition (`Reference.clusterScoped`,
 * `Reference.external`, `enforce.resources`). Synth would write it and the API server refuses it at apply, mid-release, in the
 * words each message quotes. Not judged: CEL rules (`x-kubernetes-validations`), a field a `RuntimeWriter` writes,
 * aws-cdk tokens, the unknown fields under `x-kubernetes-preserve-unknown-fields`; a fraction in an `integer` field
 * is the rule of scalar types' finding.
 */
export const customResourceSchemas = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'custom resource schemas',
  explanation: "A custom resource that its CRD's schema refuses (an unknown field, a wrong type, a missing required field, a value outside an enum or a limit) passes synth and is refused by the API server at apply, after earlier steps were applied.",
  run: ({ facts, enforce }) => {
    let schemas: CustomResourceSchemas | undefined;
    let outside: ReadonlySet<string> | undefined;
    let crds: CrdTopologies | undefined;
    let writersAt: ReturnType<typeof fieldWriters> | undefined;
    const out: RuleFinding[] = [];
    facts.objects.forEach((object, index) => {
      const { group, kind } = object.identity;
      // a composition without custom resources pays one look-up per object
      if (object.duplicateOf !== undefined || isBuiltInKind(group, kind)) return;
      schemas ??= CustomResourceSchemas.fromManifests(facts.objects.map((o) => o.manifest));
      const result = schemas.validate(group, kind, object.manifest);
      if (!result) {
        const unknown = schemas.unknownKind(group, kind);
        if (!unknown) return;
        outside ??= kindsFromOutside(facts, enforce?.resources);
        if (!outside.has(groupKind(group, kind))) out.push(unknownKindFinding(object, unknown));
        return;
      }
      const metadata = result.unserved ? { unknown: [], types: [] } : customResourceMetadataProblems(object.manifest);
      if (result.problems.length === 0 && metadata.unknown.length === 0 && metadata.types.length === 0 && !result.unserved) return;
      crds ??= CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
      writersAt ??= fieldWriters(facts);
      const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
      if (result.unserved) {
        out.push(unservedFinding(object, what, result.crd, result.unserved));
        return;
      }
      const context: Context = { object, what, crd: result.crd, crds, writersAt, unseen: unseenBy(facts, index) };
      for (const u of metadata.unknown) out.push(metadataFinding(context, u));
      if (metadata.types.length > 0) {
        const topology = topologyOf(String(object.manifest.apiVersion), kind, crds);
        // NaN and the infinities are the JSON-values rule's, as for a built-in kind
        for (const p of metadata.types) if (typeof p.value !== 'number' || Number.isFinite(p.value)) out.push(typeFinding(object, p, what, topology, writersAt));
      }
      for (const p of result.problems) {
        // a fraction in an integer field is the rule of scalar types' finding (its message names the rounding)
        if (p.problem === 'type' && p.expected === 'integer' && p.given === 'number') continue;
        const finding = problemFinding(context, p);
        if (finding) out.push(finding);
      }
    });
    return out;
  },
});

/**
 * The `group/Kind` keys of the kinds the program declares to come from a CRD outside the composition:
 * `Reference.clusterScoped`, an object of the kind declared with `Reference.external`, an entry of `enforce.resources`.
 */
function kindsFromOutside(facts: Facts, resources: Readonly<Record<string, string>> | undefined): ReadonlySet<string> {
  const keys = new Set<string>(facts.declaredKinds ?? []);
  for (const e of facts.externals) keys.add(groupKind(e.identity.group, e.identity.kind));
  for (const { identity: { group, kind } } of resources ? facts.objects : []) {
    if (Object.hasOwn(resources!, resourceKey(group, kind))) keys.add(groupKind(group, kind));
  }
  return keys;
}

/** A custom resource of a group whose CRDs are in the composition, of a kind none of them defines. */
function unknownKindFinding(object: ObjectFact, unknown: UnknownCustomKind): RuleFinding {
  const { group, kind } = object.identity;
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  const apiVersion = String(object.manifest.apiVersion);
  const outside = 'If its CRD is installed outside the composition, declare the kind: Reference.clusterScoped for a cluster-scoped kind, or Reference.external of an object of it.';
  const fix = unknown.meant === undefined ? `Set kind to one of those, or declare the CRD of ${kind} in the composition. ${outside}`
    : unknown.alias ? `Did you mean ${unknown.meant}? Set kind to ${JSON.stringify(unknown.meant)}: a custom resource's kind is its CRD's spec.names.kind ('${unknown.crd}'), in its letter case, not its plural, singular or a short name.`
      : `Did you mean ${unknown.meant}? Set kind to ${JSON.stringify(unknown.meant)}, the kind of its CRD '${unknown.crd}'. ${outside}`;
  return {
    message: `'kind' (${JSON.stringify(kind)}) of ${what} declared by '${object.declarer}' is no kind that a CRD of the composition defines in the group ${group} `
      + `(${unknown.kinds.length === 1 ? 'its one CRD there defines' : 'its CRDs there define'} ${unknown.kinds.join(', ')}), nor a built-in kind; the API server has no such resource and the apply is refused `
      + `(no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}). ${fix}`,
    paths: [object.declarer],
    field: objectField(object, ['kind']),
  };
}

/** What each finding of one object needs. */
interface Context {
  readonly object: ObjectFact;
  readonly what: string;
  readonly crd: string;
  readonly crds: CrdTopologies;
  readonly writersAt: ReturnType<typeof fieldWriters>;
  readonly unseen: ReturnType<typeof unseenBy>;
}

function unservedFinding(object: ObjectFact, what: string, crd: string, unserved: { version: string; served: readonly string[] }): RuleFinding {
  const { group, kind } = object.identity;
  const apiVersion = String(object.manifest.apiVersion);
  const fix = unserved.served.length > 0
    ? `Set apiVersion to ${unserved.served.map((v) => JSON.stringify(`${group}/${v}`)).join(' or ')}, or serve ${unserved.version} in the CRD.`
    : `Serve ${unserved.version} in the CRD (served: true).`;
  return {
    message: `'apiVersion' (${JSON.stringify(apiVersion)}) of ${what} declared by '${object.declarer}' names the version ${unserved.version}, which its CRD '${crd}' does not serve `
      + `(${unserved.served.length > 0 ? `it serves ${unserved.served.join(', ')}` : 'it serves none'}); the API server has no such resource and the apply is refused `
      + `(no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}). ${fix}`,
    paths: [object.declarer],
    field: objectField(object, ['apiVersion']),
  };
}

/** A field of the root `metadata` that ObjectMeta does not have: a label or an annotation written with `metadata.add`, or a misspelling. */
function metadataFinding(c: Context, u: UnknownField): RuleFinding {
  const { object } = c;
  const name = u.at[u.at.length - 1];
  const near = nearestField(name, u.struct);
  const fix = near !== undefined ? `Did you mean ${near}? Rename it to 'metadata.${near}', or remove it.`
    : `Remove it, or write it as a label or an annotation (metadata.addLabel(${JSON.stringify(name)}, ...), metadata.addAnnotation(${JSON.stringify(name)}, ...)): metadata.add puts a key in metadata itself.`;
  const field = u.at.join('.');
  return {
    message: `'${field}' of ${c.what} declared by '${object.declarer}' is no field of its metadata, which the API server reads as Kubernetes 1.30's ObjectMeta whatever its CRD '${c.crd}' says; `
      + `synth would write it and the API server refuses it at apply (server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field ${JSON.stringify(field)}'). ${fix}`,
    paths: [object.declarer],
    field: objectField(object, [...u.at]),
  };
}

function problemFinding(c: Context, p: CustomResourceProblem): RuleFinding | undefined {
  const { object } = c;
  const topology = topologyOf(String(object.manifest.apiVersion), object.identity.kind, c.crds);
  const path = fieldPathOf(p.at, object.manifest, topology);
  if (c.unseen(p.at, path)) return undefined;
  const field = manifestPathText(p.at, object.manifest, topology);
  const others = c.writersAt(object, field).filter((w) => w.kind !== 'declaration' || w.path !== object.declarer);
  const by = others.length === 0 ? '' : `, written by ${others.map(describeWriter).join(' and ')},`;
  const of = `of ${c.what} declared by '${object.declarer}'${by}`;
  const schema = `the schema of its CRD '${c.crd}'`;
  let message: string;
  switch (p.problem) {
    case 'unknown': {
      const name = p.at[p.at.length - 1];
      const strict = p.at.map((s, i) => (/^\d+$/.test(s) && i > 0 ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
      const parent = p.at.length > 1 ? manifestPathText(p.at.slice(0, -1), object.manifest, topology) : '';
      const near = nearestName(name, p.known);
      const fix = near !== undefined ? `Did you mean ${near}? Rename it to '${parent ? `${parent}.` : ''}${near}', or remove it.`
        : `Remove it (${parent ? `'${parent}'` : 'the object'} has ${p.known.length > 0 ? list(p.known) : 'no fields in the schema'}).`;
      message = `'${field}' ${of} is no field of ${object.manifest.apiVersion} ${object.identity.kind} in ${schema}; synth would write it and the API server refuses it at apply `
        + `(server-side apply: 'field not declared in schema'; a create: 'strict decoding error: unknown field ${JSON.stringify(strict)}'). ${fix}`;
      break;
    }
    case 'type':
      message = `'${field}' (${shown(p.value)}) ${of} must be ${NAMED[p.expected] ?? p.expected}, as ${schema} types it; the API server refuses ${NAMED[p.given] ?? p.given} there (${p.apiServerError}). ${typeFix(p)}`;
      break;
    case 'required':
      message = `'${field}' ${of} is not set, and ${schema} requires it (without a default); the API server refuses the object without it (${p.apiServerError}). Set '${field}'.`;
      break;
    case 'enum': {
      const near = typeof p.value === 'string' ? nearestValue(p.value, p.allowed) : undefined;
      message = `'${field}' (${shown(p.value)}) ${of} must be one of ${p.allowed.map((a) => JSON.stringify(a)).join(', ')}, as ${schema} lists them; the API server refuses it (${p.apiServerError}). `
        + (near !== undefined ? `Did you mean ${JSON.stringify(near)}? Write one of the values.` : 'Write one of the values.');
      break;
    }
    case 'limit':
      message = `'${field}' (${limitShown(p)}) ${of} ${p.expected}, as ${schema} limits it (${p.keyword}); the API server refuses it (${p.apiServerError}). ${LIMIT_FIX[p.keyword]}`;
      break;
  }
  return {
    message,
    paths: others.length === 0 ? [object.declarer] : [...new Set(others.map((w) => w.path))],
    field: writersNamed(objectField(object, path), others.length > 0),
  };
}

/** The allowed value a string means: the same but for letter case, the one it begins (`GitRepo`), else the nearest by edit distance. */
function nearestValue(value: string, allowed: readonly string[]): string | undefined {
  const lower = value.toLowerCase();
  return allowed.find((a) => a.toLowerCase() === lower)
    ?? (lower.length >= 3 ? allowed.find((a) => a.toLowerCase().startsWith(lower)) : undefined)
    ?? nearestName(value, allowed);
}

/** How messages name a schema's type, and a value's. */
const NAMED: Readonly<Record<string, string>> = {
  'string': 'a string',
  'integer': 'an integer',
  'number': 'a number',
  'boolean': 'a boolean (true or false)',
  'object': 'a map (an object of keys and values)',
  'array': 'a list (an array)',
  'integer,string': 'an integer or a string (an int-or-string)',
};

/** The same value written in the type the field takes, when there is one: `Write 3, not "3".` */
function typeFix(p: CustomTypeProblem): string {
  const given = shown(p.value);
  if (p.expected === 'object') return 'Write a map, such as { key: value }.';
  if (p.expected === 'array') return `Write a list, such as [${typeof p.value === 'object' ? 'item' : given}].`;
  if (typeof p.value === 'object') return `Write ${NAMED[p.expected] ?? p.expected} in place of the ${Array.isArray(p.value) ? 'list' : 'map'}.`;
  if (p.expected === 'string') {
    const text = String(p.value);
    return p.pattern === undefined || matchesPattern(p.pattern, text) !== false ? `Write ${JSON.stringify(text)}, not ${given}.` : `Write a string that matches '${p.pattern}'.`;
  }
  if (typeof p.value === 'string') {
    const number = /^-?(0|[1-9]\d*)(\.\d+)?$/.test(p.value) ? Number(p.value) : undefined;
    if (number !== undefined && (p.expected === 'number' || Number.isInteger(number))) return `Write ${p.value}, not ${given}.`;
    if (p.expected === 'boolean' && (p.value === 'true' || p.value === 'false')) return `Write ${p.value}, not ${given}.`;
  }
  if (p.expected === 'integer,string') {
    return typeof p.value === 'number' ? `Write ${Math.round(p.value)}, or the string ${JSON.stringify(String(p.value))}.` : `Write ${JSON.stringify(String(p.value))}, or an integer.`;
  }
  return `Write ${NAMED[p.expected] ?? p.expected}.`;
}

/** How to meet each limit. */
const LIMIT_FIX: Readonly<Record<CustomLimitProblem['keyword'], string>> = {
  maxLength: 'Shorten it.',
  minLength: 'Lengthen it.',
  pattern: 'Write a value that matches the pattern.',
  maximum: 'Write a smaller number.',
  minimum: 'Write a larger number.',
  maxItems: 'Give fewer items.',
  minItems: 'Give more items.',
  maxProperties: 'Give fewer keys.',
  minProperties: 'Give more keys.',
};

/** A limited value as messages show it: a scalar as JSON, a list or a map by its size. */
function limitShown(p: CustomLimitProblem): string {
  if (Array.isArray(p.value)) return `${p.value.length} ${p.value.length === 1 ? 'item' : 'items'}`;
  if (typeof p.value === 'object' && p.value !== null) {
    const n = Object.keys(p.value).length;
    return `${n} ${n === 1 ? 'key' : 'keys'}`;
  }
  return typeof p.value === 'number' ? goValue(p.value) : shown(p.value);
}

/** A value as messages show it: JSON, cut after 60 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** At most ten names, as messages list them. */
function list(names: readonly string[]): string {
  return names.length > 10 ? `${names.slice(0, 10).join(', ')}, ...` : names.join(', ');
}
