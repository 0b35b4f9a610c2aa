import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { CrdTopologies } from '../../collect/topology/crd-topology';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { walkManifest } from '../../private/manifest-walk';
import { ViolationCode } from '../finding';
import { objectField } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldPathOf } from './unseen-fields';

/**
 * `CAP010`: a manifest holding a value that JSON and YAML have no form for: a
 * `BigInt`, a `Symbol` or a function (cdk8s renders such props as they are);
 * or `NaN` or an infinity, which YAML writes as `.nan` and `.inf` but the JSON
 * sent to the API server cannot hold.
 * Refused at check, so no writer meets it; the first one of each object is
 * named, with its path as the field ledger names it (`manifestPathText`: an
 * element of a keyed list by its keys, `containers[name=web]`). A value another writer than the declarer's props
 * wrote (a JSON patch, a Contribution) places the finding at that write (`placeFinding`).
 */
export const jsonValues = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'JSON values',
  explanation: 'A manifest is written as YAML and sent to the API server as JSON; a BigInt, a Symbol or a function has no form in either, so synth refuses the object instead of failing while it writes it.',
  run: ({ facts }) => {
    // the CRDs of the composition, read only when an object holds such a value: their lists' keys name elements
    let crds: CrdTopologies | undefined;
    const crdsOf = () => (crds ??= CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest)));
    return facts.objects.flatMap((o) => (o.duplicateOf === undefined ? valueProblem(o, crdsOf) : []));
  },
});

function valueProblem(object: ObjectFact, crdsOf: () => CrdTopologies): RuleFinding[] {
  // the walk the nesting-depth rule makes too (kept per manifest): one walk for both
  const found = walkManifest(object.manifest).nonJson;
  if (!found) return [];
  const what = describeIdentity({ ...object.identity, kind: object.identity.kind || '(no kind)', name: object.identity.name || '(no name)' });
  const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), String(object.manifest?.kind ?? ''), crdsOf());
  const at = manifestPathText(found.path, object.manifest, topology);
  // placed where the value was written, when a JSON patch or a Contribution wrote it, not the declarer's props
  const about = objectField(object, fieldPathOf(found.path, object.manifest, topology));
  if (found.handle) {
    const { contract, field } = found.handle;
    return [{
      message: `'${at}' of ${what} declared by '${object.declarer}' is the handle of field '${field}' of '${contract}', not a value: `
        + 'a consumed field reaches a pod only as a container env entry that reads it from the Secret the contract binds. '
        + `Render it as one: env: [values.${field}.envVar()], or with cdk8s-plus envVariables: { NAME: values.${field}.envValue() }.`,
      paths: [object.declarer],
      field: about,
    }];
  }
  // NaN and the infinities: YAML has .nan and .inf, JSON (what kubectl, Argo CD and Flux send the API server) has none
  const notFinite = found.kind === 'NaN' || found.kind.endsWith('Infinity');
  return [{
    message: notFinite
      ? `'${at}' of ${what} declared by '${object.declarer}' is ${found.kind}, which JSON has no form for: cdk8s writes it as ${found.kind === 'NaN' ? '.nan' : found.kind === 'Infinity' ? '.inf' : '-.inf'}, which cannot be sent to the API server as JSON. Give it as a finite number, or as a string.`
      : `'${at}' of ${what} declared by '${object.declarer}' is ${found.kind}, which JSON and YAML have no form for. Give it as a string or a number.`,
    paths: [object.declarer],
    field: about,
  }];
}
