import * as fs from 'fs';
import * as path from 'path';
import type { OutputWriter } from '../output-writer';

/**
 * `deploy/`: the capabilities' cloud assemblies merged into one, so
 * `cdk deploy --app <outdir>/deploy --all` sees every stack. Files are linked
 * from the run folder aws-cdk synthesized them into (`RunFolder`), not written
 * again; only the merged `manifest.json` is generated.
 */
export const deployAssembly: OutputWriter = {
  name: 'deploy/',
  write: ({ facts }, out) => {
    if (facts.assembly.dirs.length === 0) return;
    const merged = mergeAssemblies(facts.assembly.dirs);
    out.files.set('deploy/manifest.json', merged.manifest);
    for (const [source, name] of merged.files) out.copies.set(`deploy/${name}`, source);
  },
};

/**
 * Merges cloud assemblies into one manifest.
 *
 * @returns the merged `manifest.json` and the files to copy, as [source, name]
 */
export function mergeAssemblies(dirs: readonly string[]): { manifest: string; files: Array<[string, string]> } {
  const merged: any = { version: undefined, artifacts: {} };
  const files: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf-8'));
    merged.version ??= manifest.version;
    Object.assign(merged.artifacts, manifest.artifacts ?? {});
    if (manifest.missing) merged.missing = [...(merged.missing ?? []), ...manifest.missing];
    for (const entry of fs.readdirSync(dir).sort()) {
      if (entry === 'manifest.json' || seen.has(entry)) continue;
      seen.add(entry);
      files.push([path.join(dir, entry), entry]);
    }
  }
  return { manifest: JSON.stringify(merged, undefined, 2) + '\n', files };
}
