import type { IConstruct } from 'constructs';
import { isStack } from '../private/aws-cdk';

/** The most constructs of a runtime-only tree whose synth is taken to be short (`isShortSynth`). */
export const SHORT_SYNTH_CONSTRUCTS = 20_000;

/**
 * True when synthesizing `root` is expected to end well within the heartbeat's
 * stale window (`HEARTBEAT.staleMs`, 15 s), so that its outdir lock and run
 * folder need no refreshing thread up front (`deferringThread`): a tree of at
 * most `SHORT_SYNTH_CONSTRUCTS` constructs with no aws-cdk stack. Synth without
 * a stack is linear in the tree, about 0.15 ms a construct on a busy 2-core
 * machine (10 charts x 1,000 ConfigMaps, 10,000 constructs, in 1.5 s; 20,000 in
 * about 3 s); a synth that turns out longer still gets its thread at the first
 * `pulse()` after a fifth of `HEARTBEAT.staleMs`. A stack's synthesis runs aws-cdk's own,
 * and its template validator takes seconds a stack, whatever the size of the
 * tree. aws-cdk-lib being loaded, or a `Capability` being an aws-cdk `Stage`,
 * makes no synth longer.
 */
export function isShortSynth(root: IConstruct): boolean {
  const constructs = root.node.findAll();
  return constructs.length <= SHORT_SYNTH_CONSTRUCTS && !constructs.some(isStack);
}
