import * as path from 'path';

/** A package loaded twice: the copy a value came from, and the copy this app resolves. */
export interface DuplicatePackage {
  /** The package's name (`cdk8s`). */
  readonly name: string;
  /** The folder of the copy the value's class comes from. */
  readonly foreign: string;
  /** The folder of the copy this library (and so the app) resolves. */
  readonly loaded: string;
}

/**
 * Whether `value`'s class comes from a second copy of its package: the module
 * that exports the class lies in one `node_modules/<name>` folder, and the
 * package of that name resolves to another. A capability package installed
 * from a folder (`npm i ../pkg`, `npm link`) keeps its own `cdk8s`, and a
 * `Lazy` of that copy is no `Lazy` to the app's. Cheap enough for an error
 * path: one pass over the loaded modules.
 *
 * @returns the two copies, or undefined when the class is not from a package, or from the loaded copy
 */
export function duplicatePackageOf(value: object, resolve: (request: string) => string = require.resolve): DuplicatePackage | undefined {
  const ctor = value.constructor;
  if (typeof ctor !== 'function' || ctor.name === '') return undefined;
  const file = moduleFileExporting(ctor);
  const foreign = file !== undefined ? packageOf(file) : undefined;
  if (!foreign) return undefined;
  let loaded: string | undefined;
  try {
    loaded = packageOf(resolve(foreign.name))?.root;
  } catch {
    return undefined;
  }
  if (loaded === undefined || loaded === foreign.root) return undefined;
  return { name: foreign.name, foreign: foreign.root, loaded };
}

/** The file of a loaded module that exports `ctor` under its name; undefined when none does. */
export function moduleFileExporting(ctor: Function): string | undefined {
  for (const [file, loaded] of Object.entries(require.cache)) {
    try {
      const exported: unknown = loaded?.exports;
      if (exported === ctor || (exported !== null && typeof exported === 'object' && (exported as Record<string, unknown>)[ctor.name] === ctor)) return file;
    } catch {
      // an export getter that throws: not this module
    }
  }
  return undefined;
}

/** The package a file lies in: the last `node_modules/<name>` (or `node_modules/@scope/name`) of its path. */
function packageOf(file: string): { readonly name: string; readonly root: string } | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const scoped = parts[at + 1].startsWith('@');
  if (scoped && at + 2 >= parts.length) return undefined;
  const nameParts = scoped ? parts.slice(at + 1, at + 3) : [parts[at + 1]];
  return { name: nameParts.join('/'), root: parts.slice(0, at + 1 + nameParts.length).join(path.sep) };
}
