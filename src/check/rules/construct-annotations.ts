import type { ConstructAnnotation } from '../../collect/facts';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP018` (error): an aws-cdk error annotation (`Annotations.of(c).addError`: an Aspect's, cdk-nag's, an aws-cdk
 * construct's own), which `cdk synth` refuses, so `cdk deploy` would fail with "Synthesis finished with errors".
 */
export const constructErrors = defineRule({
  code: ViolationCode.CONSTRUCT_ERROR,
  title: 'construct errors',
  explanation: "aws-cdk records a construct's error annotations (Annotations.of(c).addError, an Aspect's, cdk-nag's) in the cloud assembly, and cdk synth and cdk deploy refuse them; they refuse the composition here, named by the construct.",
  run: ({ facts }) => annotations(facts.problems.annotations, 'error'),
});

/** `CAP018` (warning): an aws-cdk warning annotation, which `cdk synth` prints; an acknowledged one is not recorded. */
export const constructWarnings = defineRule({
  code: ViolationCode.CONSTRUCT_ERROR,
  title: 'construct warnings',
  explanation: "aws-cdk records a construct's warning annotations (Annotations.of(c).addWarningV2) in the cloud assembly and cdk synth prints them; they are printed here, named by the construct, unless acknowledged (Annotations.of(c).acknowledgeWarning(id)).",
  severity: 'warning',
  run: ({ facts }) => annotations(facts.problems.annotations, 'warning'),
});

/**
 * aws-cdk's own warnings that are not shown: advice about a feature flag of the whole app, which aws-cdk adds once per
 * app to whatever construct first meets it (every capability with a tenant reading its shared base), not about a
 * construct of the composition. `cdk synth` prints it; a composition's output stays as it was without it.
 */
const NOT_SHOWN: ReadonlySet<string> = new Set(['@aws-cdk/core:crossStackReferencesDefaultStrong']);

/** The id that acknowledges a warning, from the `[ack: id]` aws-cdk ends its text with. */
function ackIdOf(message: string): string | undefined {
  return /\[ack: ([^\]]+)\]$/.exec(message)?.[1];
}

function annotations(all: readonly ConstructAnnotation[] | undefined, level: ConstructAnnotation['level']): RuleFinding[] {
  const found: RuleFinding[] = [];
  for (const a of all ?? []) {
    if (a.level !== level) continue;
    const ack = ackIdOf(a.message);
    if (level === 'warning' && ack !== undefined && NOT_SHOWN.has(ack)) continue;
    const fix = level === 'error'
      ? 'Address its cause (for cdk-nag, fix the resource or add a NagSuppressions entry with a reason); cdk deploy refuses it as "Synthesis finished with errors".'
      : 'Address its cause, or acknowledge it with Annotations.of(construct).acknowledgeWarning(id).';
    // an annotation written as a sentence keeps one full stop
    found.push({ message: `'${a.path}' has the aws-cdk ${level} annotation: ${a.message.replace(/\.+$/, '')}. ${fix}`, paths: [a.path] });
  }
  return found;
}
