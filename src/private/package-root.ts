import * as fs from 'fs';
import * as path from 'path';

let root: string | undefined;

/**
 * This package's own folder (the one with its package.json): the nearest
 * folder above this module that holds a package.json. This module runs from
 * `src/private/` (tests), `lib/private/` (tsc's output) or `lib/bundle.js`
 * (the single file the package ships), so a fixed number of `..` is wrong in
 * one of them. Looked up on first use and kept.
 */
export function packageRoot(): string {
  if (root === undefined) {
    let dir = __dirname;
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    root = dir;
  }
  return root;
}

let ownFolders: readonly [string, string] | undefined;

/**
 * True for a file of this package's own code (under its `src/` or `lib/`): never the program's. Tested for
 * each frame read off a recorded stack: the two folders are made once.
 */
export function isOwnFile(file: string): boolean {
  ownFolders ??= [path.join(packageRoot(), 'src') + path.sep, path.join(packageRoot(), 'lib') + path.sep];
  return file.startsWith(ownFolders[0]) || file.startsWith(ownFolders[1]);
}
