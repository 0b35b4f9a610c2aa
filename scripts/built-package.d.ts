// The types of scripts/built-package.js (plain JavaScript, so the compiled bench can require it too).

/** What a build of the package's lib/ holds besides the JavaScript. */
export interface BuiltLibOptions {
  /** Also tsc's declaration files (`.d.ts`), for a program that type-checks against the package. Default: false. */
  readonly declarations?: boolean;
}

/**
 * The package's lib/ as `npm run compile` writes it from the current src/, built once per content on this machine and
 * kept in the temporary directory. The folder is shared: read it, or copy it with `copyBuiltLib`; never write into it.
 *
 * @returns the kept lib/ folder
 * @throws when a build step fails or writes to stderr (nothing is kept then)
 */
export function builtLib(options?: BuiltLibOptions): string;

/** Copies the package's lib/ (`builtLib`) to `into`, which must not exist yet; its files are the caller's to change. */
export function copyBuiltLib(into: string, options?: BuiltLibOptions): void;

/** The hash that names a build (16 hex digits): of src/, the build scripts, tsconfig.json, the package files and tool versions. */
export function buildKey(options: BuiltLibOptions): string;
