import type { DroppedPatchValue, ObjectFact } from '../../collect/facts';
import { topologyOf } from '../../collect/topology/field-topology';
import type { TypeRef, TypeSpec } from '../../collect/topology/field-topology';
import { K8S_1_30 } from '../../collect/topology/k8s-1.30.generated';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { SENSITIVE } from '../../release/lock';
import { isSecretEnvName } from '../../release/sensitive-env';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { secretShapesIn } from './possible-secrets';

/**
 * `CAP010`: a value an object's JSON patch writes that its render loses (`droppedPatchValues` of collect): an
 * object of a class generated from a schema (cdk8s-plus's `KubeStatefulSet`, an imported CRD's class) serializes
 * itself after its patches, so a quantity or an int-or-string given as text is written as null and a key the
 * schema lacks is dropped, by cdk8s without a word. The message names the call, the field, the value, and two
 * ways that keep it: a `Contribution` (merged into the rendered object as written), or the class's own form.
 * The value is quoted masked as `apply --dry-run` and the lock mask it (`maskedPatchValue`): a finding lands in CI
 * logs, and a Secret's patched value, or one shaped like a secret, is no text for them.
 */
export const patchValues = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'patch values',
  explanation: 'A JSON patch of an object of a generated class (cdk8s-plus, an imported CRD) is serialized by the class after it is applied: text where the schema has a Quantity or IntOrString becomes null, a key the schema lacks is dropped; the output would silently lose what the patch wrote.',
  run({ facts }) {
    const dropped = facts.problems.droppedPatchValues ?? [];
    if (dropped.length === 0) return [];
    const byPath = new Map(facts.objects.map((o) => [o.path, o]));
    return dropped.map((d) => finding(d, byPath.get(d.path)));
  },
});

function finding(d: DroppedPatchValue, object: ObjectFact | undefined): RuleFinding {
  const manifest = object?.manifest;
  const topology = topologyOf(String(manifest?.apiVersion ?? ''), String(manifest?.kind ?? ''));
  const field = manifestPathText(d.at, manifest, topology);
  const who = `'${object?.declarer ?? d.path}'${d.call ? ` (${d.call})` : ''}`;
  const shown = maskedPatchValue(d.value, isSecretValue(manifest, d.at));
  const text = JSON.stringify(shown);
  const value = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  const outcome = d.rendered === 'null' ? 'which the output has as null' : 'which the output leaves out';
  // the class's form would quote the value again: none for a masked one
  const form = text === JSON.stringify(d.value) ? classForm(d, object) : '';
  return {
    message: `${who} writes ${value} at '${field}', ${outcome}: its class, ${d.className}, serializes the object after its patches by its schema, `
      + "which drops a key it lacks and reads a Quantity or an IntOrString by its 'value' (text or a number there is lost). "
      + `Write the field with a Contribution (new Contribution(scope, id, { target, fields }): its fields are merged into the rendered object as written)${form}, or check the key's spelling.`,
    paths: [object?.declarer ?? d.path],
  };
}

/**
 * True when a patch writes into a Secret's values (anywhere but its `metadata`: a misspelt `strinData` is still
 * the Secret's bytes), or writes an environment variable named like a secret, where the lock masks every value.
 */
function isSecretValue(manifest: any, at: readonly string[]): boolean {
  if (manifest?.apiVersion === 'v1' && manifest?.kind === 'Secret' && at[0] !== 'metadata') return true;
  const n = at.length;
  // `.../env/<i>` with the entry, or `.../env/<i>/value` with its text
  const entryAt = at[n - 2] === 'env' ? at : at[n - 3] === 'env' && at[n - 1] === 'value' ? at.slice(0, -1) : undefined;
  if (entryAt === undefined) return false;
  let entry: any = manifest;
  for (const key of entryAt) entry = entry?.[key];
  return typeof entry?.name === 'string' && isSecretEnvName(entry.name);
}

/**
 * A patch's value as a finding quotes it, masked as the lock and `apply --dry-run` mask values: every text and
 * number `(sensitive)` when `sensitive`, else a text shaped like a secret (`secretShapesIn`) or a secret reference
 * (`{{resolve:secretsmanager:`); keys and the rest as they are.
 */
export function maskedPatchValue(v: unknown, sensitive: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => maskedPatchValue(x, sensitive));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskedPatchValue(x, sensitive)]));
  if (sensitive && (typeof v === 'string' || typeof v === 'number')) return SENSITIVE;
  if (typeof v === 'string' && (/\{\{resolve:(secretsmanager|ssm-secure):/.test(v) || secretShapesIn(v).length > 0)) return SENSITIVE;
  return v;
}

/** cdk8s-plus's generated classes: `k8s` of its index (`export * as k8s from './imports/k8s'`). */
const CDK8S_PLUS_IMPORTS = /(?:^|[\\/])node_modules[\\/](cdk8s-plus-\d+)[\\/]lib[\\/]imports[\\/]k8s\.js$/;

/**
 * The patch's value in the form the class keeps, as code that compiles: `k8s.Quantity.fromString('256Mi')` with
 * `import { k8s } from 'cdk8s-plus-30'` for a cdk8s-plus object, the class's own module's `Quantity` for an
 * imported one; the one of Quantity and IntOrString the field takes, when the kind is built in (both otherwise);
 * none for a value that is neither text nor a number, or a field of a built-in kind that takes neither.
 */
function classForm(d: DroppedPatchValue, object: ObjectFact | undefined): string {
  const from = typeof d.value === 'number' ? 'fromNumber' : typeof d.value === 'string' ? 'fromString' : undefined;
  if (from === undefined) return '';
  const special = object ? specialScalarAt(object.identity.group, object.identity.kind, d.at) : undefined;
  if (special === 'neither') return '';
  const classes = special === 'quantity' ? ['Quantity'] : special === 'int-or-string' ? ['IntOrString'] : ['IntOrString', 'Quantity'];
  const literal = typeof d.value === 'string' ? `'${d.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(d.value);
  const plus = d.classModule === undefined ? undefined : CDK8S_PLUS_IMPORTS.exec(d.classModule)?.[1];
  if (plus !== undefined) {
    const calls = classes.map((c) => `k8s.${c}.${from}(${literal})`).join(' or ');
    return `, or give the patch the class's form, ${calls} (import { k8s } from '${plus}')`;
  }
  const calls = classes.map((c) => `${c}.${from}(${literal})`).join(' or ');
  const module = d.classModule === undefined ? "the class's module" : `the module that exports ${d.className}, ${d.classModule}`;
  return `, or give the patch the class's form, ${calls} (import { ${classes.join(', ')} } from ${module})`;
}

/**
 * What a field of a built-in kind takes, by Kubernetes 1.30's schema: a resource quantity, an int-or-string,
 * 'neither' (another scalar, or a key the schema lacks), or undefined for a kind that is not built in.
 */
function specialScalarAt(group: string, kind: string, at: readonly string[]): 'quantity' | 'int-or-string' | 'neither' | undefined {
  const root = K8S_1_30.kinds[`${group}/${kind}`];
  if (root === undefined) return undefined;
  let ref: TypeRef = root;
  for (let i = 0; i < at.length; i++) {
    const spec: TypeSpec | undefined = typeof ref === 'string' ? K8S_1_30.types[ref] : 'type' in ref ? K8S_1_30.types[ref.type] : ref;
    if (spec === undefined) return 'neither';
    const last = i === at.length - 1;
    if ('list' in spec) {
      ref = spec.list;
      continue;
    }
    const name = at[i];
    if (spec.fields && Object.hasOwn(spec.fields, name)) {
      ref = spec.fields[name];
    } else if (spec.scalars?.split(' ').includes(name)) {
      if (!last) return 'neither';
      if (spec.quantities?.split(' ').includes(name)) return 'quantity';
      return spec.intOrString?.split(' ').includes(name) ? 'int-or-string' : 'neither';
    } else if (spec.values !== undefined) {
      if (last) return spec.quantityValues === true ? 'quantity' : 'neither';
      ref = spec.values;
    } else {
      return 'neither';
    }
  }
  return 'neither';
}
