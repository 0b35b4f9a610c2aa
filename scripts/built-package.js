// The package's lib/ as `npm run compile` writes it (tsc's declarations, then scripts/bundle-lib.js), built once per
// content and shared: by the tests that run the built package (consumer-roundtrip, runtime-entry, bundle, perfload,
// bench-smoke) and by the bench (bench/package-build.ts). A build costs ~20 s of CPU with tsc and ~2 s without;
// the suite used to build it five times per run, and two `npm test` runs on one machine twice that.
//
// The build is kept in the temporary directory, in a folder named by a hash of everything it is made from: every
// file of src/, this script, scripts/bundle-lib.js, tsconfig.json, package.json, package-lock.json, and the
// versions of Node, TypeScript and esbuild. A change to any of them is another folder, so a kept build is never
// stale. One process builds a given folder at a time (a lock folder beside it, taken over from a process that is
// gone); the build is written under a name of its own and renamed into place, so a reader finds all of it or none.
// Readers copy it (`copyBuiltLib`): the tests write into lib/ (V8's code cache beside the bundle).
'use strict';
const { spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const PREFIX = 'cdk-capability-build-';
/** How long a kept build nobody used stays: a day, then a later build removes it. */
const KEEP_UNUSED_MS = 24 * 60 * 60_000;
/** How long a lock without its owner's process id may stay (between taking it and writing the id). */
const OWNERLESS_LOCK_MS = 60_000;

/**
 * The hash that names a build: the contents of everything it is made from.
 *
 * @param {{ declarations?: boolean }} options
 * @returns {string} 16 hex digits
 */
function buildKey(options) {
  const hash = crypto.createHash('sha256');
  const add = (name, bytes) => hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  const src = path.join(ROOT, 'src');
  const files = fs.readdirSync(src, { recursive: true, encoding: 'utf-8' }).sort();
  for (const file of files) {
    const at = path.join(src, file);
    if (fs.statSync(at).isFile()) add(`src/${file}`, fs.readFileSync(at));
  }
  for (const file of ['scripts/built-package.js', 'scripts/bundle-lib.js', 'tsconfig.json', 'package.json', 'package-lock.json']) {
    const at = path.join(ROOT, file);
    add(file, fs.existsSync(at) ? fs.readFileSync(at) : Buffer.alloc(0));
  }
  const version = (name) => JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`, { paths: [ROOT] }), 'utf-8')).version;
  add('versions', Buffer.from(JSON.stringify([process.version, version('typescript'), version('esbuild'), Boolean(options.declarations)])));
  return hash.digest('hex').slice(0, 16);
}

/** Blocks this thread for `ms` (the tests that call this are synchronous). */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether the process `pid` of this machine still runs. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Takes the lock folder `lock`, waiting for its owner while it runs; returns a function that releases it. */
function takeLock(lock) {
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return () => fs.rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let owner;
    try {
      owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf-8'));
    } catch {
      owner = undefined;
    }
    let age = 0;
    try {
      age = Date.now() - fs.statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if ((owner !== undefined && !alive(owner)) || (owner === undefined && age > OWNERLESS_LOCK_MS)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    sleep(200);
  }
}

/** Runs `node args` in the repository; throws with its output when it fails or writes to stderr. */
function run(args, what) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf-8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0 || r.stderr !== '') throw new Error(`built-package: ${what} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`.slice(0, 4000));
}

/** Removes the kept builds of other contents that nobody used for a day, and their leftovers. */
function prune(tmp, keep) {
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(PREFIX) || name.startsWith(keep)) continue;
    try {
      if (Date.now() - fs.statSync(path.join(tmp, name)).mtimeMs > KEEP_UNUSED_MS) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

/**
 * The package's lib/ as `npm run compile` writes it from the current src/: lib/bundle.js, its source map, the
 * entry files and the generated CRD modules, and with `declarations` tsc's `.d.ts` files too. Built on the first
 * call for these contents, on this machine; later calls, in any process, return the kept one.
 *
 * The folder is shared: read it, or copy it with `copyBuiltLib`; never write into it.
 *
 * @param {{ declarations?: boolean }} [options] `declarations`: also tsc's declaration files (default false)
 * @returns {string} the kept lib/ folder
 * @throws when a build step fails or writes to stderr (nothing is kept then)
 */
function builtLib(options = {}) {
  const tmp = os.tmpdir();
  const name = `${PREFIX}${buildKey(options)}`;
  const done = path.join(tmp, name);
  const lib = path.join(done, 'lib');
  const touch = () => {
    const now = new Date();
    fs.utimesSync(done, now, now);
    return lib;
  };
  if (fs.existsSync(lib)) return touch();
  const release = takeLock(`${done}.lock`);
  try {
    if (fs.existsSync(lib)) return touch();
    const partial = path.join(tmp, `${name}.${process.pid}.partial`);
    fs.rmSync(partial, { recursive: true, force: true });
    try {
      if (options.declarations) {
        run([require.resolve('typescript/bin/tsc', { paths: [ROOT] }), '-p', 'tsconfig.json', '--outDir', path.join(partial, 'lib'), '--skipLibCheck'], 'tsc (declarations)');
      }
      run([path.join(ROOT, 'scripts', 'bundle-lib.js'), path.join(partial, 'lib')], 'scripts/bundle-lib.js');
      fs.renameSync(partial, done);
    } finally {
      fs.rmSync(partial, { recursive: true, force: true });
    }
    prune(tmp, name);
    return touch();
  } finally {
    release();
  }
}

/**
 * Copies the package's lib/ (`builtLib`) to `into`, which must not exist yet; its files are this caller's to change.
 *
 * @param {string} into the folder to write, such as `<package>/lib`
 * @param {{ declarations?: boolean }} [options] as for `builtLib`
 */
function copyBuiltLib(into, options = {}) {
  fs.cpSync(builtLib(options), into, { recursive: true, errorOnExist: true, force: false });
}

module.exports = { builtLib, copyBuiltLib, buildKey };
