import type { ObjectFact } from '../../collect/facts';
import type { FieldPath } from '../../collect/ledger/field-path';
import { describeIdentity, groupKind } from '../../collect/object-identity';
import { isMap } from '../../private/maps';
import { ViolationCode } from '../finding';
import { objectField } from '../placement';
import { defineRule, RuleFinding } from '../rule';

/** The name formats the Kubernetes API server applies to `metadata.name`. */
type NameFormat = 'subdomain' | 'label' | 'dns1035' | 'path-segment';

interface NameRule {
  readonly format: NameFormat;
  /** A tighter length limit than the format's own. */
  readonly max?: number;
}

/**
 * The kinds whose `metadata.name` the API server checks with another rule than
 * a DNS-1123 subdomain, keyed `group/Kind` (the `ValidateXName` functions of
 * kubernetes `pkg/apis/<group>/validation`). Every other kind, custom
 * resources included, is a DNS-1123 subdomain.
 */
const NAME_RULES: ReadonlyMap<string, NameRule> = new Map([
  ['/Namespace', { format: 'label' }], // ValidateNamespaceName
  ['/Service', { format: 'dns1035' }], // ValidateServiceName = NameIsDNS1035Label
  ['apps/StatefulSet', { format: 'label' }], // ValidateStatefulSetName = NameIsDNSLabel: pods are named <name>-<ordinal>
  ['batch/CronJob', { format: 'subdomain', max: 52 }], // the controller appends an 11-character suffix to job names
  ['rbac.authorization.k8s.io/Role', { format: 'path-segment' }], // ValidateRBACName = IsValidPathSegmentName
  ['rbac.authorization.k8s.io/ClusterRole', { format: 'path-segment' }],
  ['rbac.authorization.k8s.io/RoleBinding', { format: 'path-segment' }],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', { format: 'path-segment' }],
]);

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${LABEL}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${LABEL}(\\.${LABEL})*$`);
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const API_VERSION = new RegExp(`^(${LABEL}(\\.${LABEL})*/)?[a-z0-9]+$`);

/** The API server's limit on the total size of an object's annotations (keys plus values, in bytes). */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** A name format: how messages name it, and its test. */
export interface Format {
  /** What it is called, with its length limit added by the caller. */
  readonly title: string;
  /** The characters and shape it allows. */
  readonly shape: string;
  /** Characters it allows anywhere; undefined when only a few are refused. */
  readonly chars?: RegExp;
  readonly max: number;
  readonly test: (s: string) => boolean;
}

/** The name formats the API server applies, by name. */
export const FORMATS: Record<NameFormat | 'qualified' | 'label-value', Format> = {
  'subdomain': {
    title: 'a DNS-1123 subdomain',
    shape: "lowercase letters, digits, '-' and '.', each dot-separated part starting and ending with a letter or digit",
    chars: /[a-z0-9.-]/,
    max: 253,
    test: (s) => DNS1123_SUBDOMAIN.test(s),
  },
  'label': {
    title: 'a DNS-1123 label',
    shape: "lowercase letters, digits and '-', starting and ending with a letter or digit",
    chars: /[a-z0-9-]/,
    max: 63,
    test: (s) => DNS1123_LABEL.test(s),
  },
  'dns1035': {
    title: 'a DNS-1035 label',
    shape: "lowercase letters, digits and '-', starting with a letter and ending with a letter or digit",
    chars: /[a-z0-9-]/,
    max: 63,
    test: (s) => DNS1035_LABEL.test(s),
  },
  'path-segment': {
    title: 'a path segment',
    shape: "not '.' or '..', and without '/' or '%'",
    max: Infinity,
    test: (s) => s !== '.' && s !== '..' && !/[/%]/.test(s),
  },
  'qualified': {
    title: 'a name',
    shape: "letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
    chars: /[A-Za-z0-9_.-]/,
    max: 63,
    test: (s) => QUALIFIED_NAME.test(s),
  },
  'label-value': {
    title: 'empty or a label value',
    shape: "letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
    chars: /[A-Za-z0-9_.-]/,
    max: 63,
    test: (s) => LABEL_VALUE.test(s),
  },
};

/**
 * `CAP010`: every runtime object as the Kubernetes API server validates it:
 * `apiVersion` and `kind` present; `metadata.name` valid for its kind;
 * `metadata.namespace` a DNS-1123 label; label keys and values, annotation
 * keys, and the total size of annotations within the API server's limits.
 */
export const objectValidity = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'object validity',
  explanation: "Names, namespaces, labels and annotations must follow the API server's rules (DNS names, label syntax, lengths); an invalid one fails at apply, after earlier steps were applied.",
  run: ({ facts }) => facts.objects.flatMap(objectProblems),
});

/** The problems of one object. */
export function objectProblems(object: ObjectFact): RuleFinding[] {
  const m = object.manifest ?? {};
  const path = object.declarer;
  const found: RuleFinding[] = [];
  // how the messages name the object, made only for an object that has a problem
  let where: string | undefined;
  // `at`: the field the problem is in, to place the finding where that field was written (`placeFinding`)
  const report = (what: string, expected: string, fix: string, at?: FieldPath) => {
    where ??= `of ${describeObject(object)} declared by '${path}'`;
    found.push({ message: `${what} ${where} must be ${expected}. ${fix}`, paths: [path], ...(at ? { field: objectField(object, at) } : {}) });
  };

  if (typeof m.apiVersion !== 'string' || !API_VERSION.test(m.apiVersion)) {
    report(`'apiVersion' (${show(m.apiVersion)})`, 'a version such as "v1", or a group and version such as "apps/v1"', 'Set apiVersion.');
  }
  if (typeof m.kind !== 'string' || m.kind === '') {
    report(`'kind' (${show(m.kind)})`, 'a non-empty kind such as "ConfigMap"', 'Set kind.');
  }

  const meta = m.metadata;
  if (!isMap(meta)) {
    report(`'metadata' (${show(meta)})`, 'an object with at least a name', 'Set metadata: { name }.');
    return found;
  }

  const rule = NAME_RULES.get(groupKind(object.identity.group, object.identity.kind)) ?? { format: 'subdomain' };
  // no name but a generateName: the rule of generated names says why that cannot be applied (hook-generate-names.ts)
  const nameProblem = meta.name === undefined && typeof meta.generateName === 'string' ? undefined : problemOf(meta.name, FORMATS[rule.format], rule.max);
  if (nameProblem) {
    const fix = object.nameFrom
      ? `cdk8s generated the name from the construct path '${object.nameFrom}': change those construct ids, or set metadata.name.`
      : 'Rename the object.';
    report(`'metadata.name' (${show(meta.name)})`, expectation(FORMATS[rule.format], meta.name, nameProblem, rule.max), fix, ['metadata', 'name']);
  }
  if (meta.namespace !== undefined) {
    const problem = problemOf(meta.namespace, FORMATS.label);
    if (problem) {
      report(`'metadata.namespace' (${show(meta.namespace)})`, expectation(FORMATS.label, meta.namespace, problem), "Fix the namespace (or the chart's namespace prop).", ['metadata', 'namespace']);
    }
  }

  for (const field of ['labels', 'annotations'] as const) {
    const map = meta[field];
    if (map === undefined) continue;
    if (!isMap(map)) {
      report(`'metadata.${field}' (${show(map)})`, 'a map of strings', `Set metadata.${field} to a map.`, ['metadata', field]);
      continue;
    }
    for (const [key, value] of Object.entries(map)) {
      const keyProblem = qualifiedNameProblem(key);
      if (keyProblem) {
        report(
          `'metadata.${field}' key ${show(key)}`,
          `a qualified name: an optional DNS-1123 subdomain prefix of at most 253 characters and '/', then a name of at most 63 characters (${FORMATS.qualified.shape}) such as "example.com/my-key", but ${keyProblem}`,
          'Rename the key.',
          ['metadata', field, key],
        );
      }
      // NaN and the infinities are the JSON-values rule's (JSON has no form for them)
      if (typeof value !== 'string' && !(typeof value === 'number' && !Number.isFinite(value))) {
        report(`'metadata.${field}.${key}' (${show(value)})`, 'a string', 'Quote the value.', ['metadata', field, key]);
      } else if (field === 'labels') {
        const problem = problemOf(value, FORMATS['label-value']);
        if (problem) {
          report(`'metadata.labels.${key}' (${show(value)})`, expectation(FORMATS['label-value'], value, problem), 'Shorten or clean the value; put free text in an annotation.', ['metadata', 'labels', key]);
        }
      }
    }
    if (field === 'annotations') {
      const bytes = Object.entries(map).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(String(v)), 0);
      if (bytes > MAX_ANNOTATIONS_BYTES) {
        report(`'metadata.annotations' (${bytes} bytes)`, `at most ${MAX_ANNOTATIONS_BYTES} bytes in total, keys and values`, 'Move large data into a ConfigMap.');
      }
    }
  }
  return found;
}

/** `<title> of at most N characters (<shape>) such as "<close valid value>", but <problem>` */
export function expectation(format: Format, value: unknown, problem: string, max = format.max): string {
  const limit = Math.min(max, format.max);
  const length = limit === Infinity ? '' : ` of at most ${limit} characters`;
  const close = typeof value === 'string' ? suggest(value, format, limit) : undefined;
  return `${format.title}${length} (${format.shape})${close ? ` such as ${show(close)}` : ''}, but ${problem}`;
}

/** Why `value` is not valid in `format`, or undefined when it is. */
export function problemOf(value: unknown, format: Format, max = format.max): string | undefined {
  if (typeof value !== 'string') return value === undefined ? 'it is missing' : `it is ${show(value)}, not a string`;
  if (value === '') return format === FORMATS['label-value'] ? undefined : 'it is empty';
  const limit = Math.min(max, format.max);
  if (value.length > limit) return `it has ${value.length} characters`;
  if (format.test(value)) return undefined;
  if (format === FORMATS['path-segment']) {
    return value === '.' || value === '..' ? `it is ${JSON.stringify(value)}` : `it contains ${[...new Set(value.match(/[/%]/g))].map((c) => JSON.stringify(c)).join(' and ')}`;
  }
  const bad = [...new Set([...value].filter((c) => !format.chars!.test(c)))];
  if (bad.length > 0) return `it contains ${bad.slice(0, 3).map((c) => JSON.stringify(c)).join(', ')}${bad.length > 3 ? ' and more' : ''}`;
  if (format === FORMATS.dns1035 && !/^[a-z]/.test(value)) return `it starts with ${JSON.stringify(value[0])}`;
  const parts = format === FORMATS.subdomain ? value.split('.') : [value];
  if (parts.some((part) => part === '')) return 'it has an empty part between dots, or starts or ends with a dot';
  const part = parts.find((x) => !/^[A-Za-z0-9]/.test(x) || !/[A-Za-z0-9]$/.test(x)) ?? value;
  const edge = /^[A-Za-z0-9]/.test(part) ? `ends with ${JSON.stringify(part[part.length - 1])}` : `starts with ${JSON.stringify(part[0])}`;
  return parts.length > 1 ? `its part ${JSON.stringify(part)} ${edge}` : `it ${edge}`;
}

/** Why `key` is not a qualified name (`prefix/name` or `name`), or undefined when it is. */
function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return "it has more than one '/'";
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (prefix !== undefined) {
    const problem = problemOf(prefix, FORMATS.subdomain);
    if (problem) return `its prefix ${show(prefix)} is not a DNS-1123 subdomain: ${problem}`;
  }
  const problem = problemOf(name, FORMATS.qualified);
  return problem ? `its name ${show(name)} is not valid: ${problem}` : undefined;
}

/** A valid value close to `value`, or undefined when none is easily made. */
export function suggest(value: string, format: Format, max: number): string | undefined {
  if (format === FORMATS['path-segment']) {
    const s = value.replace(/[/%]/g, '-');
    return s !== value && format.test(s) ? s : undefined;
  }
  const lower = format.chars?.test('A') ? value : value.toLowerCase();
  let s = lower.replace(new RegExp(`(?!${format.chars!.source}).`, 'gu'), '-');
  if (format === FORMATS.subdomain) s = s.replace(/[-.]*\.[-.]*/g, '.');
  s = s.slice(0, Math.min(max, 253)).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  if (format === FORMATS.dns1035) s = s.replace(/^[^a-z]+/, '');
  return s && s !== value && format.test(s) ? s : undefined;
}

/** `Kind namespace/name` of the object, its name shortened when long. */
function describeObject(object: ObjectFact): string {
  const id = object.identity;
  const name = id.name.length > 60 ? `${id.name.slice(0, 40)}...` : id.name;
  return describeIdentity({ ...id, kind: id.kind || '(no kind)', name: name || '(no name)' });
}

/** A value as messages quote it: JSON for strings (shortened past 60 characters), else its type. */
function show(value: unknown): string {
  if (typeof value === 'string') {
    return value.length > 60 ? `${JSON.stringify(value.slice(0, 40))}... (${value.length} characters)` : JSON.stringify(value);
  }
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
