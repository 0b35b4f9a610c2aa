#!/usr/bin/env node
// The package's JavaScript as it ships (the last step of `npm run compile`, after tsc): every module of src/ in one
// file, lib/bundle.js, with its source map beside it; each module runs on first use, as a required file would.
//
//   node scripts/bundle-lib.js [libdir]    (default: lib)
//
// Loading one file instead of ~170 saves resolving, reading and compiling each (docs/ARCHITECTURE.md, "The build
// output"). One file holds both entry points, so `cdk-capability` and `cdk-capability/runtime` share one copy of
// every module and its state. Modules reached only by `require()` stay lazy: the runtime entry loads no aws-cdk-lib.
// The generated CRD classes (src/imports/) stay separate files, loaded on first use as before. tsc's declarations
// stay as they are; its other .js files in libdir are removed, so nothing can load a second copy of a module.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
// eslint-disable-next-line import/no-extraneous-dependencies -- a build tool, not a runtime dependency
const { build } = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const IMPORTS = path.join(SRC, 'imports');
const lib = path.resolve(process.argv[2] ?? path.join(ROOT, 'lib'));

/** The bundle's entry: each public entry point as a function, so requiring the bundle runs none of them. */
const ENTRY = [
  "exports.full = () => require('./index');",
  "exports.runtime = () => require('./runtime');",
  "exports.cli = () => require('./cli/main');",
  '',
].join('\n');

/**
 * Loads lib/bundle.js once per process, as `require(file)` does, but through `vm.Script` with V8's code cache of it
 * when one is usable: the bytecode of every function an earlier run compiled, so this run neither parses the 1.2 MB
 * nor compiles those functions again (docs/ARCHITECTURE.md, "The build output"). Each entry file holds its own copy
 * (the function's text), so loading the package still reads two files, and both entry points share one module.
 *
 * The cache is `bundle-<process.versions.v8>.v8-cache` beside the bundle, in the package's own folder: whoever
 * may write it may write the bundle itself, so it trusts no one the package does not already trust. It is read
 * only when it is a file of this user, writable by no one else, and not older than the bundle; V8 refuses one
 * made by another V8 version, another set of V8 flags or for a source of another length. Without a usable cache the
 * bundle is compiled from its source and the cache is written when the process exits, under a temporary name
 * renamed into place; a folder the user cannot write keeps none, silently. The entry file's own
 * `require('./bundle.js')` instead (which a bundler sees too), no cache read or written: under a module registry
 * other than Node's (jest keeps the modules of a test in its own registry and realm), when Node maps stack frames
 * through source maps (`--enable-source-maps`, which maps only the files its own loader compiled), when Node's
 * compile cache is on (`NODE_COMPILE_CACHE`, Node 22), before Node 20.7 (no `process.sourceMapsEnabled` to tell),
 * where there are no user ids (Windows), and with `CDK_CAPABILITY_CODE_CACHE=0`.
 *
 * Of Node's modules it loads only `vm` beyond what a program loads anyway: Node's `Module` is `module.constructor`
 * (`require('module')` would load Node's ES module loader with it, so Node 22's `getCompileCacheDir` is read only
 * where it is loaded, else `NODE_COMPILE_CACHE` tells), and the cache is named by `process.versions.v8`, not by
 * `v8.cachedDataVersionTag()` (`require('v8')` loads three modules); V8's own check of the cache's version and flags
 * stays, so a cache of other V8 flags is refused and replaced as one of another version would be.
 *
 * The command line's entry reads the cache but never writes it: the app a command runs writes its own when it
 * exits, before the command does, and the command's would replace it with the little the command itself compiled.
 *
 * @param {string} file the bundle's absolute path
 * @param {boolean} writes whether this entry writes the cache when there is none
 * @returns {object | undefined} the bundle's exports; undefined where the entry file requires the bundle itself
 */
function loadBundle(file, writes) {
  const Module = module.constructor;
  // under a module registry of its own (jest's, a bundler's), whose `module` is none of Node's: required through it
  if (typeof Module !== 'function' || typeof Module.createRequire !== 'function' || !(module instanceof Module) ||
    require.cache !== Module._cache) return undefined;
  if (Module._cache[file]) return Module._cache[file].exports;
  if (process.sourceMapsEnabled !== false || typeof process.getuid !== 'function' || process.env.CDK_CAPABILITY_CODE_CACHE === '0' ||
    (typeof Module.getCompileCacheDir === 'function' ? Module.getCompileCacheDir() !== undefined : process.env.NODE_COMPILE_CACHE)) return undefined;
  const fs = require('fs');
  const path = require('path');
  const vm = require('vm');
  const dir = path.dirname(file);
  const cacheFile = path.join(dir, `bundle-${process.versions.v8.replace(/[^\w.-]/g, '_')}.v8-cache`);
  let cachedData;
  try {
    const cache = fs.statSync(cacheFile);
    if (cache.isFile() && cache.uid === process.getuid() && (cache.mode & 0o022) === 0 && cache.mtimeMs >= fs.statSync(file).mtimeMs) {
      cachedData = fs.readFileSync(cacheFile);
    }
  } catch {
    // no cache yet
  }
  // The module wrapper around the bundle's text, read into one buffer and made one string: ASCII, as the build checks,
  // so Latin-1 reads it unchanged, without the UTF-8 decoding of 1.5 MB (about 1 ms), and Node keeps a Latin-1 string
  // this long outside V8's heap, where `Module.wrap(text)` would have V8 copy all of it into the heap to compile it
  const [head, tail] = Module.wrapper;
  const fd = fs.openSync(file, 'r');
  let source;
  try {
    const size = fs.fstatSync(fd).size;
    const text = Buffer.allocUnsafeSlow(head.length + size + tail.length);
    let end = text.write(head, 0, 'latin1');
    for (let read = -1; read !== 0 && end < head.length + size; end += read) read = fs.readSync(fd, text, end, head.length + size - end, null);
    end += text.write(tail, end, 'latin1');
    source = text.toString('latin1', 0, end);
  } finally {
    fs.closeSync(fd);
  }
  const script = new vm.Script(source, { filename: file, cachedData });
  const bundle = new Module(file, module);
  bundle.filename = file;
  bundle.paths = Module._nodeModulePaths(dir);
  Module._cache[file] = bundle;
  try {
    script.runInThisContext().call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, dir);
  } catch (e) {
    delete Module._cache[file];
    throw e;
  }
  bundle.loaded = true;
  if (writes && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => {
      const temp = `${cacheFile}.${process.pid}-${Date.now()}`;
      try {
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
        fs.renameSync(temp, cacheFile);
      } catch {
        try {
          fs.rmSync(temp, { force: true });
        } catch {
          // nothing was written
        }
      }
    });
  }
  return bundle.exports;
}

/** An entry file: the loader, then one line into the bundle (`bundle`: its path from the entry file, `./bundle.js`). */
const stub = (bundle, line, writes = true) =>
  `'use strict';\n${loadBundle.toString()}\n${line.replace('BUNDLE', `(loadBundle(require('path').join(__dirname, '${bundle}'), ${writes}) ?? require('${bundle}'))`)}\n`;

/** The files that stay: the entry points (package.json's `exports` and `bin`), now each a line into the bundle. */
const STUBS = {
  'index.js': stub('./bundle.js', 'module.exports = BUNDLE.full();'),
  'runtime.js': stub('./bundle.js', 'module.exports = BUNDLE.runtime();'),
  [path.join('cli', 'main.js')]: `#!/usr/bin/env node\n${stub('../bundle.js', 'process.exitCode = BUNDLE.cli().main(process.argv.slice(2));', false)}`,
};

/** A generated CRD module stays its own file, lib/imports/<name>.js, required from lib/bundle.js as ./imports/<name>. */
const crdImportsApart = {
  name: 'crd-imports-apart',
  setup(b) {
    b.onResolve({ filter: /[\\/]imports[\\/][^\\/]+$/ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      if (path.dirname(file) !== IMPORTS) return undefined;
      return { path: `./imports/${path.basename(file)}`, external: true };
    });
  },
};

/**
 * `import * as fs from 'fs'` of a Node built-in module, compiled as `import fs = require('fs')`: esbuild makes
 * the first a copy of the module's every export as a getter (`__toESM`), once per importing module (64 of them,
 * about 2 ms of loading), where the module object itself serves. TypeScript allows no `default` on such a
 * namespace, so nothing read through it changes. Lines keep their place, so the source map is unchanged.
 */
const builtinNamespaces = {
  name: 'builtin-namespaces',
  setup(b) {
    const builtins = new Set(require('module').builtinModules);
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!args.path.startsWith(SRC + path.sep)) return undefined;
      const source = fs.readFileSync(args.path, 'utf-8');
      const contents = source.replace(/^import \* as ([A-Za-z_$][\w$]*) from '([a-z_]+)';$/gm, (line, name, module) =>
        builtins.has(module) ? `import ${name} = require('${module}');` : line);
      return { contents, loader: 'ts' };
    });
  },
};

async function main() {
  fs.mkdirSync(lib, { recursive: true });
  await build({
    stdin: { contents: ENTRY, resolveDir: SRC, sourcefile: 'bundle-entry.js', loader: 'js' },
    outfile: path.join(lib, 'bundle.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // dependencies and peers are required from node_modules, as from tsc's output
    packages: 'external',
    // class and function names as in the source (messages name a construct's class)
    keepNames: true,
    // any other character escaped (esbuild's default, kept on purpose): `loadBundle` reads the text as Latin-1
    charset: 'ascii',
    sourcemap: 'linked',
    // src/ does not ship: the map carries the sources
    sourcesContent: true,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    plugins: [crdImportsApart, builtinNamespaces],
    logLevel: 'warning',
  });
  await build({
    entryPoints: fs.readdirSync(IMPORTS).filter((f) => f.endsWith('.ts')).map((f) => path.join(IMPORTS, f)),
    outdir: path.join(lib, 'imports'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });

  const bundleFile = path.join(lib, 'bundle.js');
  const text = withoutInnerNameCalls(fs.readFileSync(bundleFile, 'utf-8'));
  const notAscii = nonAsciiProblem(text);
  if (notAscii) throw new Error(`lib/bundle.js: ${notAscii}`);
  fs.writeFileSync(bundleFile, text);
  sourcesAsWritten(path.join(lib, 'bundle.js.map'));

  const keep = new Set(['bundle.js', ...Object.keys(STUBS)]);
  for (const entry of fs.readdirSync(lib, { recursive: true })) {
    const file = String(entry);
    if (file.endsWith('.js') && !keep.has(file) && path.dirname(file) !== 'imports') fs.rmSync(path.join(lib, file));
    // the code caches of the bundle this build replaces (`loadBundle`)
    if (file.endsWith('.v8-cache')) fs.rmSync(path.join(lib, file));
  }
  for (const [file, text] of Object.entries(STUBS)) {
    fs.mkdirSync(path.dirname(path.join(lib, file)), { recursive: true });
    fs.writeFileSync(path.join(lib, file), text + exportNames(bundleFile, ENTRY_POINTS[file]));
    // executable, as package.json's `bin` runs it: the mode of writeFileSync applies only to a file it creates
    fs.chmodSync(path.join(lib, file), 0o755);
  }
}

/** The public entry points among the stubs, by file: the bundle's function that loads each. */
const ENTRY_POINTS = { 'index.js': 'full', 'runtime.js': 'runtime' };

/**
 * A line that names an entry point's exports for Node's ES module loader, which reads a CommonJS module's export
 * names from its text without running it (cjs-module-lexer) and cannot see through `require('./bundle.js').full()`:
 * without it `import { CapabilityApp } from 'cdk-capability'` fails in an ES module. The line never runs (`0 &&`),
 * as esbuild writes it for the same reason. The names are read from the built bundle in a process of their own.
 *
 * @param {string} bundleFile the built bundle
 * @param {string | undefined} entry the bundle's function of the entry point; none for the command line's stub
 * @returns {string} the line, or nothing
 */
function exportNames(bundleFile, entry) {
  if (!entry) return '';
  const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(bundleFile)}).${entry}())))`;
  // the peers resolve from beside the bundle, else from this repository's (a libdir outside it, as the tests build)
  const env = { ...process.env, CDK_VALIDATION: 'false', NODE_PATH: path.join(ROOT, 'node_modules') };
  const names = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf-8', env }));
  const identifiers = names.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n)).sort();
  if (identifiers.length === 0) throw new Error(`the bundle's ${entry}() exports nothing`);
  return `// the export names, for \`import { ... } from\` in an ES module (never run)\n0 && (module.exports = { ${identifiers.join(', ')} });\n`;
}

/**
 * The bundle without the `__name(fn, "name")` calls (esbuild's `keepNames`) that run on every call of a function:
 * those around a function or arrow created inside another function (not in a module's one-time init) whose name
 * JavaScript gives it anyway, as `const name = ...`, `{ name: ... }` or `function name() {}`. Each such call is an
 * `Object.defineProperty` per closure made (lockValues made two per object). A call whose name differs from its
 * binding (esbuild renamed it, `walk3` for `walk`) stays, as do the one-time calls that keep class and top-level
 * names. Each call is blanked to a parenthesis and spaces of the same length, so every line and column, and so the
 * source map, stays as it was.
 *
 * @param {string} text the bundle
 * @returns {string} the same bundle without those calls
 */
function withoutInnerNameCalls(text) {
  // eslint-disable-next-line import/no-extraneous-dependencies -- a build tool, not a runtime dependency
  const ts = require('typescript');
  const file = ts.createSourceFile('bundle.js', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const blanks = [];
  const isModuleInit = (node) => ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent) &&
    ts.isCallExpression(node.parent.parent) && ts.isIdentifier(node.parent.parent.expression) && node.parent.parent.expression.text === '__esm';
  const visit = (node, insideFunction) => {
    if (insideFunction && ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === '__name' && node.arguments.length === 2) {
      const [fn, name] = node.arguments;
      const is = (n) => n !== undefined && (ts.isIdentifier(n) || ts.isStringLiteral(n)) && n.text === name.text;
      const holder = node.parent;
      if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isStringLiteral(name) &&
        ((ts.isVariableDeclaration(holder) && is(holder.name)) || (ts.isPropertyAssignment(holder) && is(holder.name)) || (ts.isFunctionExpression(fn) && is(fn.name)))) {
        blanks.push({ start: node.getStart(file), end: fn.getStart(file), text: '(', align: 'end' });
        blanks.push({ start: fn.getEnd(), end: node.getEnd(), text: ')', align: 'start' });
      }
    }
    const enters = ts.isFunctionLike(node) && !isModuleInit(node);
    ts.forEachChild(node, (child) => visit(child, insideFunction || enters));
  };
  visit(file, false);
  let out = text;
  for (const b of blanks.sort((x, y) => y.start - x.start)) {
    const span = out.slice(b.start, b.end);
    if (span.includes('\n')) throw new Error(`a __name call spans lines at ${b.start}: ${span}`);
    const pad = ' '.repeat(span.length - 1);
    out = out.slice(0, b.start) + (b.align === 'end' ? pad + b.text : b.text + pad) + out.slice(b.end);
  }
  return out;
}

/**
 * Why the bundle's text could not be read as Latin-1, as `loadBundle` reads it: its first character that is not
 * ASCII, where one is (Latin-1 and UTF-8 read ASCII alike, and only ASCII).
 *
 * @param {string} text the bundle
 * @returns {string | undefined} the problem, or undefined when every character is ASCII
 */
function nonAsciiProblem(text) {
  const at = text.search(/[^\x00-\x7f]/);
  if (at === -1) return undefined;
  const line = text.slice(0, at).split('\n').length;
  return `character U+${text.codePointAt(at).toString(16).toUpperCase().padStart(4, '0')} at line ${line} is not ASCII; the entry files read the bundle as Latin-1 (keep esbuild's charset 'ascii')`;
}

/**
 * The map's embedded sources as the files in src/ read, not as `builtinNamespaces` gave them to esbuild; and each
 * source of src/ named `../src/<file>`, beside the lib/ the bundle is in, wherever it is written. A stack frame a
 * source-map reader (ts-node's, Node's --enable-source-maps) maps is then a file of the package itself
 * (`isOwnFile`), as it is in an installed package, not one of the folder that built it: the frames the package
 * skips to find the program's call stay skipped.
 */
function sourcesAsWritten(mapFile) {
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf-8'));
  const files = map.sources.map((source) => path.resolve(path.dirname(mapFile), source));
  map.sourcesContent = files.map((file, i) => (isSource(file) ? fs.readFileSync(file, 'utf-8') : map.sourcesContent[i]));
  map.sources = files.map((file, i) => (file.startsWith(SRC + path.sep) ? `../src/${path.relative(SRC, file).split(path.sep).join('/')}` : map.sources[i]));
  fs.writeFileSync(mapFile, JSON.stringify(map));
}

function isSource(file) {
  return file.startsWith(SRC + path.sep) && file.endsWith('.ts');
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`bundle-lib: ${e.message}\n`);
    process.exit(1);
  });
}

module.exports = { withoutInnerNameCalls, nonAsciiProblem };
