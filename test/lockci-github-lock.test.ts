import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, RuntimeRouting } from '../src';
import { appOf, newSeries, ReleaseSeries, removeReleaseDirs, withEnv } from './release-fixtures';
import { capturingOutput } from './util';
import { formatGithub } from '../src/cli/format-github';
import { formatSarif } from '../src/cli/format-sarif';
import { reportedFindings } from '../src/cli/report-findings';
import { readReport, REPORT_ENV } from '../src/render/report-file';

// A lock's CAP014 is about the lock file: `--format github` annotates it there (file=, line=), on the line the
// problem is on, so GitHub shows it on the file; SARIF gets the same physical location.

afterAll(removeReleaseDirs);

const ROOT = path.resolve(__dirname, '..');

/** One ConfigMap whose data.mode is `mode`, synthesized against the series' lock; the report of the synth. */
function release(series: ReleaseSeries, mode: string, updateLock = false) {
  const app = appOf(series);
  new ApiObject(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode },
  });
  const reportFile = path.join(series.dir, `report-${mode}-${Date.now()}.json`);
  // (the line that says a lock was written is captured, not printed)
  capturingOutput(() => withEnv('CDK_CAPABILITY_UPDATE_LOCK', updateLock ? '1' : undefined, () => withEnv(REPORT_ENV, reportFile, () => {
    try {
      app.synth();
    } catch {
      // refused: the report says why
    }
  })));
  return readReport(reportFile)!;
}

/** A series whose lock release 1 wrote, edited by `edit`; the lock's text after the edit. */
function editedLock(edit: (text: string) => string): { series: ReleaseSeries; text: string } {
  const series = newSeries();
  release(series, 'fast', true);
  const text = edit(fs.readFileSync(series.lockFile, 'utf-8'));
  fs.writeFileSync(series.lockFile, text);
  return { series, text };
}

/** The 1-based number of the first line of `text` that contains `needle`, found without a JSON parser. */
function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`no line holds ${needle}`);
  return i + 1;
}

/** The `::error` lines of the GitHub format for a series' report, and its lock's path as annotated. */
function annotations(series: ReleaseSeries, mode = 'slow'): { lines: string[]; file: string; sarif: any } {
  const report = release(series, mode);
  const findings = reportedFindings(report, ROOT);
  return {
    lines: formatGithub(findings).split('\n').filter((l) => l !== ''),
    file: path.relative(ROOT, series.lockFile),
    sarif: JSON.parse(formatSarif(findings, ROOT)),
  };
}

describe('--format github annotates a lock CAP014 on the lock file', () => {
  test('a lock edited by hand: on the contentDigest line', () => {
    // GIVEN release 1's lock with a value edited by hand
    const { series, text } = editedLock((t) => t.replace('"fast"', '"slow"'));
    // WHEN release 2 is planned against it
    const { lines, file, sarif } = annotations(series);
    // THEN one annotation, on the lock's contentDigest line
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^::error file=${escape(file)},line=${lineOf(text, '"contentDigest"')},col=1,title=CAP014 lock file::CAP014 lock file: '[^']+' is not the lock cdk-capability wrote: its content does not match its contentDigest`));
    expect(lineOf(text, '"contentDigest"')).toBe(3);
    // AND SARIF gives the same place
    expect(sarif.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: file, uriBaseId: 'SRCROOT' },
      region: { startLine: 3, startColumn: 1 },
    });
  });

  test('a lock left with merge-conflict markers: on the first marker', () => {
    const { series, text } = editedLock((t) => t.replace(/^( *"contentDigest".*)$/m, '<<<<<<< HEAD\n$1\n=======\n$1\n>>>>>>> feature'));
    const { lines, file } = annotations(series);
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`::error file=${file},line=${lineOf(text, '<<<<<<<')},col=1,title=CAP014 lock file::CAP014 lock file: `)).toBe(true);
    expect(lineOf(text, '<<<<<<<')).toBe(3);
  });

  test('a schema problem: on the value its JSON pointer names, or the nearest ancestor the file has', () => {
    // GIVEN a lock whose unit lost its digest and whose formatVersion is a string (two schema problems)
    const { series, text } = editedLock((t) => t.replace(/^( *)"digest": "[0-9a-f]+",\n/m, '').replace('"formatVersion": 2', '"formatVersion": "2"'));
    const { lines, file } = annotations(series);
    // THEN each is annotated: the missing digest on its unit's line, the formatVersion on its own
    const at = lines.map((l) => /^::error file=([^,]+),line=(\d+),col=1,title=CAP014 lock file::CAP014 lock file: '[^']+' is not a cdk-capability lock: (\/\S+)/.exec(l)?.slice(1));
    expect(at).toEqual(expect.arrayContaining([
      [file, String(lineOf(text, '"formatVersion"')), '/formatVersion'],
      [file, String(text.split('\n').findIndex((l, i, all) => l.trim() === '{' && all[i + 1].includes('"id": "object:')) + 1), '/units/0/digest'],
    ]));
  });

  test('a lock that is not JSON: on the line JSON.parse stopped at', () => {
    const { series, text } = editedLock((t) => t.replace('"units": [', '"units": [,'));
    expect(() => JSON.parse(text)).toThrow(/^Unexpected token ','/);
    const { lines, file } = annotations(series);
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`::error file=${file},line=${lineOf(text, '"units": [,')},col=1,title=CAP014 lock file::CAP014 lock file: '`)).toBe(true);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
