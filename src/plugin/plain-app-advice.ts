import { ViolationCode } from '../check/finding';
import { BOUNDARY_LEAK_FIX } from '../check/rules/boundary-leaks';
import { DANGLING_REFERENCE_FIX, SELECTOR_FIX } from '../check/rules/dangling-references';
import { DUPLICATE_OBJECT_FIX } from '../check/rules/duplicate-objects';

/**
 * The fixes a plain cdk8s app can make, in place of those that name a
 * capability's constructs (a Contribution, an InterfaceContract,
 * Reference.external), which the app the validation plugin runs on does not
 * have. Each names the capability way last, as the road to adopt it.
 */
const PLAIN_APP_FIXES: ReadonlyMap<ViolationCode, readonly (readonly [capabilityText: string, plainText: string])[]> = new Map([
  [
    ViolationCode.DUPLICATE_OBJECT,
    [[
      DUPLICATE_OBJECT_FIX,
      'Emit it once: drop one of the constructs, or give each its own name (or namespace). ' +
        'If two parts of the app must each write fields of one object, synthesize with CapabilityApp, where a Contribution writes them.',
    ]],
  ],
  [
    ViolationCode.BOUNDARY_LEAK,
    [[
      BOUNDARY_LEAK_FIX,
      'cdk8s cannot resolve an aws-cdk token: pass the resolved value to the chart (a literal, or a value read at synth), ' +
        'or let a deploy step write it to the cluster (an ExternalSecret reading SSM). ' +
        'With CapabilityApp, an InterfaceContract carries such values across, resolved at deploy time.',
    ]],
  ],
  [
    ViolationCode.DANGLING_REFERENCE,
    [
      [', which is not in the composition.', ", which is not in the app's manifests."],
      // a kind that differs only in case: the rule names the object the composition has
      [', which is not in the composition; the composition has ', ", which is not in the app's manifests; they have "],
      [
        DANGLING_REFERENCE_FIX,
        'Emit the target in the app, or fix the name. If another release provides it, the reference is expected to dangle here: ' +
          'with CapabilityApp, Reference.external(scope, id, { apiVersion, kind, name, namespace }) says so.',
      ],
      // a Service selecting no pods: the rule's text goes on with the Reference.externalPods declaration
      [
        SELECTOR_FIX,
        'Emit the workload in the app, or fix the selector. If something outside the app makes the pods (an operator, another release), ' +
          'the selector is expected to match nothing here: with CapabilityApp, ',
      ],
    ],
  ],
]);

/**
 * A finding's message with the fix a plain cdk8s app can make.
 *
 * @param code the finding's code
 * @param message the message, as the rule wrote it for a capability app
 * @returns the message, its capability wording replaced by the plain app's (unchanged for other codes)
 */
export function plainAppMessage(code: ViolationCode, message: string): string {
  return (PLAIN_APP_FIXES.get(code) ?? []).reduce((m, [capability, plain]) => m.split(capability).join(plain), message);
}
