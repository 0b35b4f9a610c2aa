import * as path from 'path';
import type * as JsYaml from 'js-yaml';

/**
 * js-yaml, from the single-file build its package ships (`dist/js-yaml.js`,
 * the same sources bundled by js-yaml's own release): one module instead of the
 * 25 of its `lib/` tree, which cost about three times as long to load (node
 * resolves, reads and compiles each). Its package's `exports` name only the
 * index, so the file is required by its resolved path; a js-yaml without it
 * falls back to the index. Every use in this library goes through this copy, so
 * its `Type` and schemas are one family.
 */
export const jsyaml: typeof JsYaml = loadSingleFile();

function loadSingleFile(): typeof JsYaml {
  const index = require.resolve('js-yaml');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file of the package that `exports` does not name
    return require(path.join(path.dirname(index), 'dist', 'js-yaml.js')) as typeof JsYaml;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the index, as `import` would load it
    return require(index) as typeof JsYaml;
  }
}
