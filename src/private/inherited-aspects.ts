import type { IConstruct } from 'constructs';
import { awsCdk, isStage } from './aws-cdk';
import { aspectApplicationList, HeldAspectApplication } from './upstream-state';

/**
 * Runs `synth`, a synthesis of `stage`, with the aspects `stage` inherits from
 * the constructs above it, as a stack under a plain aws-cdk `App` inherits
 * them: those of the root and of every construct down to `stage`, stopping at
 * an enclosing `Stage` (whose own aspects aws-cdk keeps inside it).
 *
 * aws-cdk invokes aspects from the stage it synthesizes down and carries none
 * across a Stage boundary, so without this `Tags.of(app)` would never reach a
 * stack of a stage under the app. The same application objects (aspect and
 * priority) are put first in the stage's own list for the call and taken out
 * after: aws-cdk then sorts them with the stage's own by priority, an
 * inherited aspect first at an equal priority, as it sorts an inherited
 * aspect at a stack, and whoever reads an aspect's identity (the ledger names
 * a Tag by its aspect object) sees the aspect that was added.
 */
export function withInheritedAspects<T>(stage: IConstruct, synth: () => T): T {
  const inherited = inheritedAspects(stage);
  if (inherited.length === 0) return synth();
  const own = aspectApplicationList(stage);
  own.unshift(...inherited);
  try {
    return synth();
  } finally {
    const added = new Set(inherited);
    own.splice(0, own.length, ...own.filter((a) => !added.has(a)));
  }
}

/** The aspect applications `stage` inherits, in the order aws-cdk would invoke them at it. */
function inheritedAspects(stage: IConstruct): HeldAspectApplication[] {
  const above = stage.node.scopes.slice(0, -1);
  let inherited: HeldAspectApplication[] = [];
  for (let i = above.map(isStage).lastIndexOf(true) + 1; i < above.length; i++) {
    // stable: at an equal priority, what is inherited runs before what is local
    inherited = [...inherited, ...awsCdk().Aspects.of(above[i]).applied].sort((a, b) => a.priority - b.priority);
  }
  return inherited;
}
