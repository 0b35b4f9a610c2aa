import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

/** One section of docs/errors.md: its code, its failing snippet and the message it documents. */
export interface DocSection {
  readonly code: string;
  readonly snippet: string;
  readonly message: string;
}

/** The sections of docs/errors.md that have a snippet: `## CAPnnn`, then a ```ts block, then a ```text block. */
export function docSections(file = path.join(__dirname, '..', 'docs', 'errors.md')): DocSection[] {
  const text = fs.readFileSync(file, 'utf-8');
  const sections: DocSection[] = [];
  for (const part of text.split(/^## /m).slice(1)) {
    const code = part.slice(0, 6);
    const snippet = /```ts\n([\s\S]*?)```/.exec(part)?.[1];
    const message = /```text\n([\s\S]*?)```/.exec(part)?.[1];
    if (snippet !== undefined && message !== undefined) sections.push({ code, snippet, message: message.trimEnd() });
  }
  return sections;
}

/**
 * Runs a snippet in this process, `cdk-capability` resolving to src/, with the
 * outdir in a fresh temporary folder; returns the violation lines of the
 * error it throws ('' when it throws nothing).
 */
export function runSnippet(snippet: string): string {
  const js = ts.transpileModule(snippet, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'errors-doc-'));
  const saved = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = path.join(outdir, 'dist');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, resolved at run time
  const load = (name: string) => (name === 'cdk-capability' ? require('../src') : require(name));
  try {
    new Function('require', 'exports', 'module', js)(load, {}, { exports: {} });
    return '';
  } catch (e) {
    return (e as Error).message.split('\n').slice(1).join('\n');
  } finally {
    if (saved === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = saved;
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
