#!/usr/bin/env node
// The prepack guard (`npm pack` and `npm publish` run it): refuses to pack a clone whose lib/ is missing or
// older than src/, which would ship no code or stale code. Build first with `npm run compile`.
// Plain JavaScript, so it runs before anything is compiled. Exits 1 with the reason, 0 when lib/ is current.
'use strict';
const fs = require('fs');
const path = require('path');

const root = process.cwd();

/** The newest modification time of the files under `dir` matching `re` (0 when there is none). */
function newest(dir, re) {
  let latest = 0;
  if (!fs.existsSync(dir)) return latest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !re.test(entry.name)) continue;
    latest = Math.max(latest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
}

const entry = path.join(root, 'lib', 'index.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('prepack: lib/index.js is missing, so the package would ship no code. Run `npm run compile` first, then pack again.\n');
  process.exit(1);
}
const source = newest(path.join(root, 'src'), /\.ts$/);
const built = newest(path.join(root, 'lib'), /\.js$/);
if (source > built) {
  process.stderr.write('prepack: src/ has changes newer than lib/, so the package would ship stale code. Run `npm run compile` first, then pack again.\n');
  process.exit(1);
}
