// Runs TypeScript files in a child process of a test the way `ts-node --transpile-only` does, but through
// esbuild's transform (a devDependency already, for the bundle): about a tenth of ts-node's start-up CPU for a
// program that loads src/, which every spawned `cdk-capability plan` and fixture app does. Used as
// `node -r test/support/transpile-hook.js file.ts` (test/util.ts: NODE_TS). The compiler options that change
// what JavaScript means (class fields, decorators, interop) are read from the repository's tsconfig.json, as
// ts-node reads them; source maps are inline and Node maps stack traces through them, so a construct's creation
// site (its file and line in a report) is the .ts line, as under ts-node. Tests of ts-node itself (as cdk8s runs
// an app) keep ts-node.
//
// A test spawns hundreds of such processes, each loading the same ~270 files of src/: the JavaScript of a file of
// this repository is kept in a folder of the temporary directory, named by a hash of the file's path and text (and
// of this hook, esbuild's version and the options), so a process after the first compiles only what changed.
// Files outside the repository (a test's temporary app) are compiled each time and not kept.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { transformSync, version: esbuildVersion } = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');
// the projen-generated tsconfig.json starts with a line comment: strip whole-line comments before parsing
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf-8').replace(/^\s*\/\/.*$/gm, ''));
const { target, experimentalDecorators, esModuleInterop, useDefineForClassFields } = tsconfig.compilerOptions;
const compilerOptions = { target, experimentalDecorators, esModuleInterop, useDefineForClassFields };

const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');
const CACHE = path.join(os.tmpdir(), `cdk-capability-transpiled-${sha256([fs.readFileSync(__filename, 'utf-8'), esbuildVersion, JSON.stringify(compilerOptions)].join('\0')).slice(0, 16)}`);
const REPOSITORY = ROOT + path.sep;
const NODE_MODULES = path.join(ROOT, 'node_modules') + path.sep;

/** esbuild's JavaScript of the TypeScript `source` of `filename`. */
function transpile(source, filename) {
  return transformSync(source, {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: filename,
    tsconfigRaw: { compilerOptions },
  }).code;
}

/** The JavaScript of `filename`: kept from an earlier process when it is a file of this repository, else compiled. */
function javascriptOf(filename) {
  const source = fs.readFileSync(filename, 'utf-8');
  if (!filename.startsWith(REPOSITORY) || filename.startsWith(NODE_MODULES)) return transpile(source, filename);
  const kept = path.join(CACHE, `${sha256(`${filename}\0${source}`)}.js`);
  try {
    return fs.readFileSync(kept, 'utf-8');
  } catch {
    const code = transpile(source, filename);
    // written under a name of this process, then renamed: a process reading it meanwhile finds all of it or none
    const partial = `${kept}.${process.pid}.partial`;
    try {
      fs.mkdirSync(CACHE, { recursive: true });
      fs.writeFileSync(partial, code);
      fs.renameSync(partial, kept);
    } catch {
      // a full or read-only temporary directory: compiled each time, as without the folder
      fs.rmSync(partial, { force: true });
    }
    return code;
  }
}

process.setSourceMapsEnabled(true);
require.extensions['.ts'] = (module, filename) => {
  module._compile(javascriptOf(filename), filename);
};
