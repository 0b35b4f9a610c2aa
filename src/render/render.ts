import type { OutputTree } from './output-tree';
import type { OutputWriter } from './output-writer';
import { RenderContext, renderContext } from './render-context';
import type { Facts } from '../collect/facts';
import type { EnforceOptions } from './enforcement/enforce-options';
import type { Lock } from '../release/lock';
import type { LockKey } from '../release/lock-key';

/** What `render` returns: the files to write and the context they were rendered from. */
export interface Rendered {
  /** The files under the outdir. */
  readonly output: OutputTree;
  /** The steps, objects, interface and lock of this release. */
  readonly context: RenderContext;
}

/**
 * The render stage: every writer's files for an accepted composition. Pure:
 * nothing is written to disk here (`writeOutput` does that, atomically).
 *
 * @param writers the output formats, in order
 * @param lockKey the key of the lock's digests of sensitive values, if any
 * @param enforce with it, the admission policies that enforce the ownership map are part of the output
 */
export function render(
  facts: Facts,
  previous: Lock | undefined,
  writers: readonly OutputWriter[],
  lockKey?: LockKey,
  enforce?: EnforceOptions,
): Rendered {
  const engine = writers.find((w) => w.gitopsEngine !== undefined);
  const context = renderContext(facts, previous, lockKey, enforce, engine?.gitopsEngine, engine?.gitopsRecord);
  const output: OutputTree = { files: new Map(), copies: new Map() };
  for (const writer of writers) writer.write(context, output);
  return { output, context };
}
