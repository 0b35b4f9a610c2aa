import * as fs from 'fs';
import * as path from 'path';
import { atMost } from '../private/at-most';
import { jsyaml } from '../private/js-yaml';
import type { Plan } from '../render/writers/plan-json';

/** The documents of each runtime file a plan names, as `apply` reads them; or what is wrong with the files. */
export type RuntimeFiles = { readonly documents: ReadonlyMap<string, readonly unknown[]> } | { readonly problems: string[] };

/**
 * Reads the runtime files of the steps `apply` will run, before it runs any: each must be readable, YAML,
 * and hold Kubernetes objects only, as synth writes them. A file that was deleted, truncated or edited into
 * something else is a problem here (`CAP016`), not a failure halfway through the release, after earlier
 * steps were applied.
 *
 * @param outdir the synth's output folder
 * @param fromStep the first step that runs (1-based); the files of earlier steps are not read
 * @param max the most problems reported; the rest are counted in the last one
 * @returns the documents by file (relative to the outdir, as the plan names it), or one problem per file
 *   that is not as synth wrote it, naming the file and the step
 */
export function readRuntimeFiles(plan: Plan, outdir: string, fromStep = 1, max = 20): RuntimeFiles {
  const documents = new Map<string, readonly unknown[]>();
  const problems: string[] = [];
  plan.steps.forEach((step, i) => {
    if (i + 1 < fromStep || step.lifecycle !== 'runtime') return;
    for (const file of step.files) {
      if (documents.has(file)) continue;
      const read = documentsOf(path.join(outdir, file));
      if (typeof read === 'string') problems.push(`'${path.join(outdir, file)}' (step ${i + 1}) ${read}`);
      else documents.set(file, read);
    }
  });
  return problems.length === 0 ? { documents } : { problems: atMost(problems, max, 'files') };
}

/** The objects of one file, or why it is not a file of Kubernetes objects. */
function documentsOf(file: string): unknown[] | string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf-8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${(e as Error).message})`;
  }
  let docs: unknown[];
  try {
    docs = jsyaml.loadAll(text).filter((d) => d !== null && d !== undefined);
  } catch (e) {
    return `is not YAML (${(e as Error).message.split('\n')[0]})`;
  }
  const bad = docs.findIndex((d) => !hasIdentity(d));
  return bad < 0 ? docs : `holds a document that is not a Kubernetes object: document ${bad + 1} needs a string apiVersion, kind and metadata.name`;
}

/** True for a manifest that names its object: `apiVersion`, `kind` and `metadata.name`, strings that are not empty. */
export function hasIdentity(manifest: unknown): boolean {
  const m = manifest as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } | null;
  const filled = (x: unknown) => typeof x === 'string' && x !== '';
  return typeof m === 'object' && m !== null && !Array.isArray(m) && filled(m.apiVersion) && filled(m.kind) && typeof m.metadata === 'object' && m.metadata !== null && filled(m.metadata.name);
}
