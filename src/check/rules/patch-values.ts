import type { DroppedPatchValue, ObjectFact } from '../../collect/facts';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a value an object's JSON patch writes that its render loses (`droppedPatchValues` of collect): an
 * object of a class generated from a schema (cdk8s-plus's `KubeStatefulSet`, an imported CRD's class) serializes
 * itself after its patches, so a quantity or an int-or-string given as text is written as null and a key the
 * schema lacks is dropped, by cdk8s without a word. The message names the call, the field, the value, and two
 * ways that keep it: a `Contribution` (merged into the rendered object as written), or the class's own form.
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
  const text = JSON.stringify(d.value);
  const value = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  const outcome = d.rendered === 'null' ? 'which the output has as null' : 'which the output leaves out';
  const from = typeof d.value === 'number' ? 'fromNumber' : typeof d.value === 'string' ? 'fromString' : undefined;
  const form = from ? `, or give the patch the class's form (IntOrString.${from}(${value}) or Quantity.${from}(${value}), from the class's module)` : '';
  return {
    message: `${who} writes ${value} at '${field}', ${outcome}: its class, ${d.className}, serializes the object after its patches by its schema, `
      + "which drops a key it lacks and reads a Quantity or an IntOrString by its 'value' (text or a number there is lost). "
      + `Write the field with a Contribution (new Contribution(scope, id, { target, fields }): its fields are merged into the rendered object as written)${form}, or check the key's spelling.`,
    paths: [object?.declarer ?? d.path],
  };
}
