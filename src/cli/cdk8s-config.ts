import * as fs from 'fs';
import * as path from 'path';
import { shown } from '../private/json-schema';
import { yaml } from '../private/lazy';

/** What the commands read from `./cdk8s.yaml`, as the cdk8s CLI does: the command that runs the app, and its output folder. */
export interface Cdk8sConfig {
  /** The command that runs the app (`app:`), if the file gives one. */
  readonly app?: string;
  /** The synth's output folder (`output:`), if the file gives one. */
  readonly output?: string;
}

/**
 * Reads `app` and `output` of `./cdk8s.yaml`: nothing when there is no such file, and what is wrong with it
 * when it is not YAML, not a map, or gives either setting as something else than a string that is not empty
 * (a YAML list for `app`, a number for `output`), which the commands would otherwise run or write to as it is.
 *
 * @param file the config file: relative to the working folder, as the cdk8s CLI reads it, or absolute
 */
export function readCdk8sConfig(file = 'cdk8s.yaml'): Cdk8sConfig | { readonly problem: string } {
  if (!fs.existsSync(file)) return {};
  const named = path.isAbsolute(file) ? file : `./${file}`;
  let settings: unknown;
  try {
    const doc = yaml().parseDocument(fs.readFileSync(file, 'utf-8'));
    if (doc.errors.length > 0) return { problem: `${named} is not YAML (${doc.errors[0].message.split('\n')[0]})` };
    settings = doc.toJS();
  } catch (e) {
    return { problem: `${named} cannot be read (${(e as Error).message.split('\n')[0]})` };
  }
  if (settings === null || settings === undefined) return {};
  if (typeof settings !== 'object' || Array.isArray(settings)) return { problem: `${named} must be a map of settings (app, output, ...), not ${shown(settings)}` };
  const { app, output } = settings as Record<string, unknown>;
  if (app !== undefined && (typeof app !== 'string' || app.trim() === '')) {
    return { problem: `"app" in ${named} (${shown(app)}) must be the command that runs the app, such as "npx ts-node main.ts"` };
  }
  if (output !== undefined && (typeof output !== 'string' || output === '')) return { problem: `"output" in ${named} (${shown(output)}) must be a folder, such as "dist"` };
  return { ...(app !== undefined ? { app } : {}), ...(output !== undefined ? { output } : {}) };
}

/** How deep `appsBelow` looks: `apps/platform/cdk8s.yaml` is two folders down. */
const APPS_DEPTH = 3;

/**
 * The folders below `dir` that hold a `cdk8s.yaml` (an app of a monorepo, `apps/platform`), relative to `dir`
 * with `/`, sorted: at most `APPS_DEPTH` folders down, never in `node_modules` or a folder whose name starts
 * with a dot, and never `dir` itself. For the commands' message when the working folder has no `cdk8s.yaml`.
 */
export function appsBelow(dir = '.'): string[] {
  const found: string[] = [];
  const visit = (folder: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, folder), { withFileTypes: true });
    } catch {
      return; // a folder we cannot read holds no app we can name
    }
    for (const e of entries) {
      if (!e.isDirectory() || e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const sub = folder === '' ? e.name : `${folder}/${e.name}`;
      if (fs.existsSync(path.join(dir, sub, 'cdk8s.yaml'))) found.push(sub);
      if (depth < APPS_DEPTH) visit(sub, depth + 1);
    }
  };
  visit('', 1);
  return found.sort();
}
