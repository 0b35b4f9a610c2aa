import type { DeployTimeForm } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { CrdTopologies } from '../../collect/topology/crd-topology';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { ViolationCode } from '../finding';
import { objectField, writersNamed } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldPathOf } from './unseen-fields';

/** The fix of a boundary leak, as a capability app makes it. */
export const BOUNDARY_LEAK_FIX = "Publish it through the capability's InterfaceContract and read it with contract.consume(chart): a consumed value reaches a pod only as a container env entry (handle.envValue() for cdk8s-plus, handle.envVar() raw: a secretKeyRef to the Secret the contract's ExternalSecret makes at deploy time); a ConfigMap, an annotation or any other field cannot hold one, since the manifests are written before the stack is deployed.";

/** What each form of a deployment-time value becomes when it is written out at synth. */
const RENDERS: Readonly<Record<DeployTimeForm, string>> = {
  'string': 'which would render as unresolved token text such as "${Token[TOKEN.16]}"',
  'list': 'a list token (Fn.split, Lazy.list, Token.asList, a list attribute), which would render as unresolved token text such as "#{Token[TOKEN.16]}"',
  'number': 'a number token (Token.asNumber, Lazy.number, a number attribute), which would render as a meaningless number such as -1.8881545897087626e+289',
  'dynamic-reference': 'a CloudFormation dynamic reference ("{{resolve:...}}"), which only CloudFormation resolves: Kubernetes would receive the text as it is',
};

/**
 * How a message names the token: a deployment-time value when it is one (a
 * reference to a resource, a dynamic reference); otherwise only what is known
 * of it at synth, that aws-cdk has not resolved it (a `Lazy`, a pseudo
 * parameter such as `Aws.REGION`), which cdk8s writes as its token text all the same.
 */
function tokenKind(v: { readonly form: DeployTimeForm; readonly producer?: string }): string {
  return v.producer || v.form === 'dynamic-reference' ? 'a deployment-time value' : 'an unresolved aws-cdk token';
}

/**
 * `CAP006`: an aws-cdk token (a deployment-time value) in a runtime manifest,
 * in any of its forms (string, list, number, dynamic reference, base64 in a
 * Secret's `data`), or in text synth writes to `plan.json` or `interface.json`.
 * Only the interface contract crosses from deployment time to runtime; without
 * this rule the token renders silently as the text `${Token[TOKEN.16]}`. A
 * value a `Contribution` wrote names the contribution as well as the declarer.
 */
export const boundaryLeaks = defineRule({
  code: ViolationCode.BOUNDARY_LEAK,
  title: 'boundary leaks',
  explanation: 'An aws-cdk token (a deployment-time value, or a Lazy value aws-cdk resolves only in a stack) in a runtime manifest is written as literal text such as ${Token[TOKEN.16]}: only the interface contract carries such values across, resolved at deploy time.',
  run: ({ facts }) => {
    let crds: CrdTopologies | undefined;
    const found: RuleFinding[] = facts.deployTimeValues.map((v) => {
      const object = facts.objects[v.object];
      crds ??= CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
      const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), String(object.manifest?.kind ?? ''), crds);
      const at = manifestPathText(v.path, object.manifest, topology);
      const where = v.isKey ? `as a key at ${at}` : `at ${at}`;
      const value = v.encoding === 'base64' ? `${tokenKind(v)}, base64-encoded,` : tokenKind(v);
      const writer = v.writer ? ` written by '${v.writer}'` : '';
      return {
        message: `${describeIdentity(object.identity)} declared by '${object.declarer}' holds ${value} ${where}${writer}${v.producer ? ` produced by '${v.producer}'` : ''}, ${RENDERS[v.form]}. ${BOUNDARY_LEAK_FIX}`,
        paths: [object.declarer, ...(v.writer ? [v.writer] : []), ...(v.producer ? [v.producer] : [])],
        field: writersNamed(objectField(object, fieldPathOf(v.path, object.manifest, topology)), v.writer !== undefined),
      };
    });
    for (const v of facts.artifactDeployTimeValues) {
      found.push({
        message: `'${v.owner}' puts ${tokenKind(v)} into ${v.file} as ${v.what}${v.producer ? ` produced by '${v.producer}'` : ''}, ${RENDERS[v.form]}. ${v.file} is written at synth, before anything is deployed: use text known at synth.`,
        paths: [v.owner, ...(v.producer ? [v.producer] : [])],
      });
    }
    return found;
  },
});

