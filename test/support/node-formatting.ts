import * as vm from 'vm';

/**
 * Runs `fn` with no `Error.prepareStackTrace` of jest's (source-map-support), as a plain `node` run formats
 * stacks: neither this context's nor the main context's, which Node asks when this one has none.
 *
 * Also for tests of many constructs: each stack read under jest's maps every frame through the test's source map
 * (`@jest/source-map`'s `wrapCallSite`), which for 150,000 creation sites costs more than the synth itself.
 *
 * @returns what `fn` returns
 */
export function withNodeFormatting<T>(fn: () => T): T {
  const errors = [Error, new vm.Script('Error').runInThisContext() as ErrorConstructor];
  const prepares = errors.map((e) => Object.getOwnPropertyDescriptor(e, 'prepareStackTrace'));
  for (const e of errors) delete (e as { prepareStackTrace?: unknown }).prepareStackTrace;
  try {
    return fn();
  } finally {
    errors.forEach((e, i) => {
      if (prepares[i]) Object.defineProperty(e, 'prepareStackTrace', prepares[i]!);
    });
  }
}
