import * as fs from 'fs';
import * as path from 'path';
import { K8S_1_30 } from '../src/collect/topology/k8s-1.30.generated';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script, a plain CommonJS file
const { generatedDataModule } = require('../scripts/bundle-lib.js') as { generatedDataModule: (source: string) => string | undefined };

/** The exports of a module `generatedDataModule` wrote (ES `export const` lines), run as CommonJS. */
function run(js: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', js.replace(/^export const (\w+) = /gm, 'exports.$1 = '))(module, module.exports);
  return module.exports;
}

describe('the bundle ships a generated data module as JSON.parse of its data', () => {
  test("the Kubernetes field topology: one JSON.parse, whose data is the module's", () => {
    // GIVEN the generated topology module as it is in src/
    const source = fs.readFileSync(path.join(__dirname, '..', 'src', 'collect', 'topology', 'k8s-1.30.generated.ts'), 'utf-8');

    // WHEN the build rewrites it
    const js = generatedDataModule(source)!;

    // THEN it is one export made by JSON.parse, equal to what the TypeScript module exports
    expect(js.split('\n').filter(Boolean).map((l) => l.slice(0, 35))).toEqual(['export const K8S_1_30 = JSON.parse(']);
    expect(run(js)).toStrictEqual({ K8S_1_30 });
  });

  test.each([
    ['a value JSON changes (a Set)', `export const BIG = { names: new Set(['a']), pad: '${'x'.repeat(9000)}' };`],
    ['undefined in a list, which JSON writes as null', `export const BIG = { list: [undefined], pad: '${'x'.repeat(9000)}' };`],
    ['a function', `export const BIG = { f: () => 1, pad: '${'x'.repeat(9000)}' };`],
    ['a module that requires another', `import { x } from './other';\nexport const BIG = { x, pad: '${'x'.repeat(9000)}' };`],
    ['a small module (an object literal that size loads as fast)', 'export const SMALL = { a: 1 };'],
  ])('stays as it is: %s', (_, source) => {
    expect(generatedDataModule(source)).toBeUndefined();
  });
});
