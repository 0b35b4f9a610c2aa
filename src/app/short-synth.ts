import type { IConstruct } from 'constructs';
import { isStack } from '../private/aws-cdk';

/** The most constructs of a runtime-only tree whose synth is taken to be short (`isShortSynth`). */
export const SHORT_SYNTH_CONSTRUCTS = 20_000;

/**
 * True when synthesizing `root` is expected to end well within the heartbeat's
 * stale window (`HEARTBEAT.staleMs`, 15 s), so that its outdir lock and run
 * folder need no refreshing thread up front (`deferringThread`): a tree of at
 * most `SHORT_SYNTH_CONSTRUCTS` constructs, with no aws-cdk stack unless
 * aws-cdk's template validator is off. Synth without a stack is linear in the
 * tree, about 0.15 ms a construct on a busy 2-core machine (10 charts x 1,000
 * ConfigMaps, 10,000 constructs, in 1.5 s; 20,000 in about 3 s); aws-cdk's own
 * synthesis of the stacks, without the validator, is too (1,000 tenants, about
 * 25,000 constructs, in 1.6 s of a 3.5 s synth). A synth that turns out longer
 * still gets its thread at the first `pulse()` after a fifth of
 * `HEARTBEAT.staleMs`. The validator takes seconds a stack, whatever the size of
 * the tree, in one step. aws-cdk-lib being loaded, or a `Capability` being an
 * aws-cdk `Stage`, makes no synth longer.
 *
 * @param root the app
 * @param validating whether aws-cdk's template validator checks the stacks (`templateValidationEnabled`)
 * @param constructs `root.node.findAll()`, when the caller has walked the tree already (synth hands the same walk
 *   to collect: one walk of 10,000 constructs is about 6 ms)
 */
export function isShortSynth(root: IConstruct, validating = true, constructs: readonly IConstruct[] = root.node.findAll()): boolean {
  return constructs.length <= SHORT_SYNTH_CONSTRUCTS && (!validating || !constructs.some(isStack));
}
