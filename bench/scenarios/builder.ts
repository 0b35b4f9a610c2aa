import * as path from 'path';

/** What a run may pass to a builder besides its outdir and size. */
export interface BuildOptions {
  /**
   * Our side: the lock file of the previous release (`CapabilityApp`'s `lockFile`).
   *
   * @default - `capability.lock.json` next to the outdir, which does not exist: a first release
   */
  readonly lockFile?: string;
}

/** Builds one scenario at one size and writes its output into `outdir`. */
export type Builder = (outdir: string, size: number, options?: BuildOptions) => void;

/** The lock file our side reads: the one given, else one next to the outdir (never the working directory's). */
export function lockFileFor(outdir: string, options: BuildOptions = {}): string {
  return options.lockFile ?? path.join(path.dirname(path.resolve(outdir)), 'capability.lock.json');
}
