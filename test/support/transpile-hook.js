// Runs TypeScript files in a child process of a test the way `ts-node --transpile-only` does, but through
// esbuild's transform (a devDependency already, for the bundle): about a tenth of ts-node's start-up CPU for a
// program that loads src/, which every spawned `cdk-capability plan` and fixture app does. Used as
// `node -r test/support/transpile-hook.js file.ts` (test/util.ts: NODE_TS). The compiler options that change
// what JavaScript means (class fields, decorators, interop) are read from the repository's tsconfig.json, as
// ts-node reads them; source maps are inline and Node maps stack traces through them, so a construct's creation
// site (its file and line in a report) is the .ts line, as under ts-node. Tests of ts-node itself (as cdk8s runs
// an app) keep ts-node.
'use strict';
const fs = require('fs');
const path = require('path');
const { transformSync } = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');
// the projen-generated tsconfig.json starts with a line comment: strip whole-line comments before parsing
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf-8').replace(/^\s*\/\/.*$/gm, ''));
const { target, experimentalDecorators, esModuleInterop, useDefineForClassFields } = tsconfig.compilerOptions;
const compilerOptions = { target, experimentalDecorators, esModuleInterop, useDefineForClassFields };

process.setSourceMapsEnabled(true);
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf-8'), {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: filename,
    tsconfigRaw: { compilerOptions },
  });
  module._compile(code, filename);
};
