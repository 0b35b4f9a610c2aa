import * as vm from 'vm';
import * as fc from 'fast-check';
import { withNodeFormatting } from './support/node-formatting';
import { captureStack, CapturedStack, stackLines, structuredLines } from '../src/private/stack-lines';

/** One frame of a generated call stack: how the next function down is called. */
type Step =
  | { readonly kind: 'named'; readonly file: string; readonly name: string }
  | { readonly kind: 'method'; readonly file: string; readonly name: string }
  | { readonly kind: 'eval'; readonly file: string }
  | { readonly kind: 'function'; readonly file: string }
  | { readonly kind: 'map'; readonly file: string }
  | { readonly kind: 'construct'; readonly file: string; readonly name: string };

/** Runs `steps` as nested calls, each compiled from a script named `step.file`, the last calling `inner`. */
function callThrough(steps: readonly Step[], inner: () => void): void {
  let next = inner;
  for (const step of [...steps].reverse()) {
    const callee = next;
    const source = ((): string => {
      switch (step.kind) {
        case 'named':
          return `(function (callee) { return function ${identifier(step.name)}() { callee(); }; })`;
        case 'method':
          return `(function (callee) { const o = { [${JSON.stringify(step.name)}]() { callee(); } }; return () => o[${JSON.stringify(step.name)}](); })`;
        case 'eval':
          return '(function (callee) { return function () { eval("callee()"); }; })';
        case 'function':
          return '(function (callee) { return function () { new Function("callee", "callee()")(callee); }; })';
        case 'map':
          return '(function (callee) { return function () { [1].map(() => callee()); }; })';
        case 'construct':
          return `(function (callee) { class ${identifier(step.name)} { constructor() { callee(); } } return () => new ${identifier(step.name)}(); })`;
      }
    })();
    next = (new vm.Script(source, { filename: step.file }).runInThisContext() as (c: () => void) => () => void)(callee);
  }
  next();
}

/**
 * A name usable as both a function's and a class's name: `name` with other characters as `_`, and prefixed
 * when it starts with a digit or is a reserved word (`do`, `if`, or `let`, `eval` in a class's strict code).
 */
function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[A-Za-z_$]/.test(id) && declarable(id) ? id : `f${id}`;
}

/** Whether `id` can name a sloppy-mode function and a class. */
function declarable(id: string): boolean {
  try {
    new vm.Script(`(function ${id}() {}); (class ${id} {});`);
    return true;
  } catch {
    return false;
  }
}

const files = fc.oneof(
  fc.constantFrom('/app/main.js', '/app/node_modules/aws-cdk-lib/core/lib/stack.js', '/app/node_modules/cdk8s/lib/api-object.js', 'node:internal/x', 'file:///app/a%20b.mjs', '', 'C:\\app\\main.js'),
  fc.string({ minLength: 1, maxLength: 12 }).map((s) => `/app/${s}.js`),
  fc.constantFrom('/app/a (b).js', '/app/a:1:2.js', '/app/new\nline.js', '/app/(x)'),
);
const names = fc.oneof(fc.constantFrom('main', 'a\nb', 'with space', 'eval at x (y:1:2)', 'Object.<anonymous>'), fc.string({ minLength: 1, maxLength: 8 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('named' as const), file: files, name: names }),
  fc.record({ kind: fc.constant('method' as const), file: files, name: names }),
  fc.record({ kind: fc.constant('eval' as const), file: files }),
  fc.record({ kind: fc.constant('function' as const), file: files }),
  fc.record({ kind: fc.constant('map' as const), file: files }),
  fc.record({ kind: fc.constant('construct' as const), file: files, name: names }),
);

/** Two holders captured at the same call, at most `frames` frames each. */
function twins(steps: readonly Step[], frames: number): [CapturedStack, CapturedStack] {
  let pair: [CapturedStack, CapturedStack] | undefined;
  const probe = (): void => {
    pair = [captureStack(probe, frames), captureStack(probe, frames)];
  };
  callThrough(steps, probe);
  return pair!;
}

describe('stackLines', () => {
  test('the lines of a stack read frame by frame are the lines of the stack Node formats whole, for any frames', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 30 }), (steps, frames, readTo) => {
        withNodeFormatting(() => {
          // GIVEN two captures of one call
          const [whole, byFrame] = twins(steps, frames);
          // WHEN one is formatted whole by Node and the other read frame by frame, first partly, then to its end
          const expected = (whole.stack as string).split('\n').slice(1);
          const lines = structuredLines(byFrame);
          const first: string[] = [];
          for (const line of lines) {
            if (first.length >= readTo) break;
            first.push(line);
          }
          // THEN the lines are the same text, in the same order, however far they are read
          expect(first).toEqual(expected.slice(0, readTo));
          expect([...structuredLines(byFrame)]).toEqual(expected);
        });
      }),
      { numRuns: 300 },
    );
  });

  test('a reserved word as a generated name is declared prefixed (fast-check seed -1580615515 ran `function do()`)', () => {
    expect(['do', 'if', 'let', 'eval', 'yield', 'main', '9a'].map(identifier)).toEqual(['fdo', 'fif', 'flet', 'feval', 'fyield', 'main', 'f9a']);
    withNodeFormatting(() => {
      const [holder] = twins([{ kind: 'named', file: '/app/main.js', name: 'do' }, { kind: 'construct', file: '/app/main.js', name: 'let' }], 0);
      expect([...structuredLines(holder)]).toEqual([]);
    });
  });

  test('a stack already read whole is read as it was formatted then', () => {
    withNodeFormatting(() => {
      const [holder] = twins([{ kind: 'named', file: '/app/main.js', name: 'main' }], 20);
      const text = holder.stack as string;
      expect([...structuredLines(holder)]).toEqual(text.split('\n').slice(1));
    });
  });

  test('a stack is read whole, by the formatter installed, when one other than Node\'s is', () => {
    // GIVEN a formatter of the program's (source-map-support rewrites each frame so)
    const prepare = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
    const mapped = (_error: Error, sites: NodeJS.CallSite[]): string => `Mapped\n${sites.map((s) => `    at mapped (${s.getFileName()}.ts:1:1)`).join('\n')}`;
    Error.prepareStackTrace = mapped;
    try {
      const [holder] = twins([{ kind: 'named', file: '/app/main.js', name: 'main' }], 3);
      // WHEN its lines are read
      const lines = [...stackLines(holder)];
      // THEN they are the formatter's
      expect(lines[0]).toBe('    at mapped (/app/main.js.ts:1:1)');
      expect(lines).toHaveLength(3);
      // and the formatter stays installed
      expect(Error.prepareStackTrace).toBe(mapped);
    } finally {
      if (prepare) Object.defineProperty(Error, 'prepareStackTrace', prepare);
    }
  });
});
