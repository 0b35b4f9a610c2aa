import type { FileContent } from './file-content';

/** What a synth writes under the outdir: generated files, and files placed from the run folder (hard-linked where possible). */
export interface OutputTree {
  /** Generated files: path relative to the outdir, and content (text, or text made while it is written). */
  readonly files: Map<string, FileContent>;
  /** Copies: path relative to the outdir, and the absolute source file or folder. */
  readonly copies: Map<string, string>;
}
