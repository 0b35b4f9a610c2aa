import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { decode } from '@jridgewell/sourcemap-codec';
import * as ts from 'typescript';

/** One section of docs/errors.md: its code, its failing snippet and the message it documents. */
export interface DocSection {
  readonly code: string;
  readonly snippet: string;
  readonly message: string;
  /** The section's further snippets (each ```ts block after the first), each with the ```text block that follows it. */
  readonly more: ReadonlyArray<{ readonly snippet: string; readonly message: string }>;
}

/** The sections of docs/errors.md: `## CAPnnn`, then a ```ts block (absent for CAP000, which no snippet can trigger), then a ```text block. */
export function docSections(file = path.join(__dirname, '..', 'docs', 'errors.md')): DocSection[] {
  const text = fs.readFileSync(file, 'utf-8');
  const sections: DocSection[] = [];
  for (const part of text.split(/^## /m).slice(1)) {
    const code = part.slice(0, 6);
    const snippet = /```ts\n([\s\S]*?)```/.exec(part)?.[1] ?? '';
    const message = /```text\n([\s\S]*?)```/.exec(part)?.[1];
    const more = [...part.matchAll(/```ts\n([\s\S]*?)```[\s\S]*?```text\n([\s\S]*?)```/g)].slice(1).map((m) => ({ snippet: m[1], message: m[2].trimEnd() }));
    if (message !== undefined) sections.push({ code, snippet, message: message.trimEnd(), more });
  }
  return sections;
}

/** The ```ts and ```text blocks of the section of a Markdown page whose `## ` heading starts with `heading`. */
export function pageSection(file: string, heading: string): { snippets: string[]; texts: string[] } {
  const text = fs.readFileSync(file, 'utf-8');
  const part = text.split(/^## /m).find((p) => p.startsWith(heading));
  if (!part) throw new Error(`no section '## ${heading}' in ${file}`);
  const blocks = (lang: string) => [...part.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
  return { snippets: blocks('ts'), texts: blocks('text').map((t) => t.trimEnd()) };
}

/** Evaluates a snippet as a CommonJS module, `cdk-capability` (and `cdk-capability/runtime`) resolving to src/, and returns its exports. */
export function loadSnippet(snippet: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'exports', 'module', transpile(snippet))(loadModule, module.exports, module);
  return module.exports;
}

function transpile(snippet: string): string {
  return ts.transpileModule(snippet, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, resolved at run time
const loadModule = (name: string) => (name === 'cdk-capability' ? require('../src') : name === 'cdk-capability/runtime' ? require('../src/runtime') : require(name));

/** The file a snippet runs as, in the working directory, so that messages name its lines as a program's (`main.ts:12`). */
const SNIPPET_FILE = 'main.ts';

/**
 * The snippet as a CommonJS function of `require`, `exports` and `module` whose
 * stack frames name `main.ts` and the snippet's own lines: each line of the
 * transpiled code is put on the line of the snippet it came from (TypeScript's
 * source map says which), and `//# sourceURL` names the file.
 */
function compileAsFile(snippet: string): (require: (name: string) => unknown, exports: object, module: object) => void {
  const out = ts.transpileModule(snippet, {
    fileName: SNIPPET_FILE,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: true, removeComments: true },
  });
  const sources = sourceLines(JSON.parse(out.sourceMapText!).mappings);
  const lines: string[] = [''];
  const append = (js: string) => (lines[lines.length - 1] = lines[lines.length - 1] === '' ? js : `${lines[lines.length - 1]} ${js}`);
  let started = false;
  out.outputText.split('\n').forEach((js, i) => {
    const at = sources[i];
    if (at === undefined && !started) {
      append(js); // the prologue and helpers: on line 1, before its code
    } else if (at === undefined) {
      lines.push(js); // no mapping of its own (a template literal's next line): the next line
    } else {
      started = true;
      while (lines.length < at) lines.push('');
      append(js); // on its line, or on the current one when it maps behind it
    }
  });
  const file = path.join(process.cwd(), SNIPPET_FILE);
  // an indirect eval: in this realm, with no wrapper lines before the code (new Function adds two)
  return (0, eval)(`(function (require, exports, module) {${lines.join('\n')}\n})\n//# sourceURL=${file}`);
}

/** Per line of generated code, the 1-based line of the source its first mapping points at. */
function sourceLines(mappings: string): Array<number | undefined> {
  return decode(mappings).map((segments) => {
    const first = segments.find((s) => s.length >= 4);
    return first === undefined ? undefined : first[2]! + 1;
  });
}

/**
 * Runs a snippet in this process as the program `main.ts` of a project of its
 * own: a fresh, empty temporary working directory (messages name its lines;
 * what it writes to a relative path, such as `outdir: 'out'`, goes there and
 * is removed after), `cdk-capability` resolving to src/, and the outdir in
 * that folder; returns the violation lines of the error it throws, else the
 * warning lines it prints ('' when neither).
 */
export function runSnippet(snippet: string): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'errors-doc-'));
  const cwd = process.cwd();
  const saved = process.env.CDK8S_OUTDIR;
  const warnings: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => warnings.push(String(chunk)) > 0);
  try {
    process.chdir(project);
    process.env.CDK8S_OUTDIR = path.join(project, 'dist');
    compileAsFile(snippet)(loadModule, {}, { exports: {} });
    return warnings.join('').trimEnd();
  } catch (e) {
    return (e as Error).message.split('\n').slice(1).join('\n');
  } finally {
    write.mockRestore();
    process.chdir(cwd);
    if (saved === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = saved;
    fs.rmSync(project, { recursive: true, force: true });
  }
}
