import * as path from 'path';
import { loadSnippet, pageSection } from './doc-snippets';
import { coded, newSeries, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import type { CapabilityApp, CapabilityAppProps } from '../src';

afterAll(removeReleaseDirs);

/** The majors migration of docs/releases.md, as the page shows it: the snippet and the refusal it documents. */
const section = pageSection(path.join(__dirname, '..', 'docs', 'releases.md'), 'A major bump without breaking readers');
const { release } = loadSnippet(section.snippets[0]) as { release: (name: string, props?: CapabilityAppProps) => CapabilityApp };

let outdirs = 0;

/** The documented release `name` of the series, with the series' lock and a fresh outdir. */
function documented(series: ReleaseSeries, name: string): CapabilityApp {
  return release(name, { lockFile: series.lockFile, outdir: path.join(series.dir, `dist-${++outdirs}`) });
}

/** Accepts the documented release `name` as a user does (`CDK_CAPABILITY_UPDATE_LOCK=1`), which rewrites the lock. */
function accept(series: ReleaseSeries, name: string): void {
  capturingOutput(() => withUpdateLock('1', () => documented(series, name).synth()));
}

describe('docs/releases.md: majors side by side', () => {
  test('releases 1, 2, 2b and 3 of the page are each accepted, and release 3 retires v1', () => {
    // GIVEN releases 1, 2 and 2b accepted in order
    const series = newSeries();
    for (const name of ['1', '2', '2b']) accept(series, name);

    // WHEN release 3 is checked against the lock of 2b
    const third = documented(series, '3').synthesize();

    // THEN it is accepted, retiring v1 (its contract gone from interface.json) and keeping v2
    expect(coded(third.violations)).toEqual([]);
    expect(third.plan?.changes.contracts).toEqual([
      { contract: 'shop/Edge', change: 'retired', before: { version: '1.4.0', parameter: '/cdk-capability/shop/edge/v1' } },
    ]);
    expect(third.interface?.interfaces.map((i) => `${i.name} ${i.version} ${i.parameter.name}`)).toEqual(['Edge 2.0.0 /cdk-capability/shop/edge/v2']);
    expect(() => accept(series, '3')).not.toThrow();
  });

  test('release 2b, moving the last reader off v1, is accepted and removes only the binding of v1', () => {
    // GIVEN releases 1 and 2 accepted
    const series = newSeries();
    for (const name of ['1', '2']) accept(series, name);

    // WHEN release 2b moves worker to v2
    const moved = documented(series, '2b').synthesize();

    // THEN accepted: v1 stays published, its ExternalSecret (nothing consumes v1 any more) is removed
    expect(coded(moved.violations)).toEqual([]);
    expect(moved.plan?.changes.removed).toEqual(['external-secrets.io/ExternalSecret shop-edge-interface']);
    expect(moved.plan?.changes.contracts).toEqual([]);
  });

  test('release 3 right after release 2 is refused with exactly the CAP008 the page documents', () => {
    // GIVEN releases 1 and 2 accepted: worker still reads v1 in the lock
    const series = newSeries();
    for (const name of ['1', '2']) accept(series, name);

    // WHEN release 3 moves worker and retires v1 in one release
    const { violations } = documented(series, '3').synthesize();

    // THEN the one violation is the documented one
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([section.texts[0]]);
    expect(section.texts).toHaveLength(1);
  });
});
