import * as fs from 'fs';
import * as path from 'path';
import { Capability, CompositionError, RuntimeRouting } from '../src';
import { configMap, newApp, removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);
afterEach(() => delete process.env.CDK_CAPABILITY_REPORT);

/** An app with one ConfigMap named `name`, and the report file CDK_CAPABILITY_REPORT names. */
function appReportingTo(name: string): { synth: () => void; report: string } {
  const app = newApp();
  configMap(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', name, 'edge');
  const report = path.join(tempDir(), 'reports', 'report.json');
  process.env.CDK_CAPABILITY_REPORT = report;
  return { synth: () => app.synth(), report };
}

describe('CDK_CAPABILITY_REPORT', () => {
  test('an accepted synth reports accepted, no violations, and its plan', () => {
    // GIVEN
    const { synth, report } = appReportingTo('settings');

    // WHEN
    synth();

    // THEN
    const written = JSON.parse(fs.readFileSync(report, 'utf-8'));
    const lock = { file: expect.any(String), found: false };
    expect({ ...written, plan: undefined }).toEqual({ formatVersion: 1, accepted: true, violations: [], warnings: [], lock });
    expect(written.plan.steps.map((s: any) => s.id)).toEqual(['cdn/Routing']);
  });

  test('a refused synth reports its violations, exactly as the CompositionError carries them, and no plan', () => {
    // GIVEN an invalid object name
    const { synth, report } = appReportingTo('Bad_Name');

    // WHEN
    let error: CompositionError | undefined;
    try {
      synth();
    } catch (e) {
      error = e as CompositionError;
    }

    // THEN
    const written = JSON.parse(fs.readFileSync(report, 'utf-8'));
    // the violations as the CompositionError carries them, each with the rule that found it; and the lock it compared against
    expect(written).toEqual({
      formatVersion: 1,
      accepted: false,
      violations: error!.violations.map((v) => ({ ...JSON.parse(JSON.stringify(v)), rule: 'CAP010/object-validity' })),
      warnings: [],
      lock: { file: expect.any(String), found: false },
    });
    expect(written.violations.map((v: any) => v.code)).toEqual(['CAP010']);
  });

  test('a report that cannot be written is one coded line on stderr, and the refusal it would have carried is still thrown', () => {
    // GIVEN a report file under a path whose folder is a file (a user trial: the I/O error replaced the violations)
    const { synth, report } = appReportingTo('Bad_Name');
    fs.mkdirSync(path.dirname(path.dirname(report)), { recursive: true });
    fs.writeFileSync(path.dirname(report), 'a file where the folder would be');
    const stderr: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));

    // WHEN
    let error: unknown;
    try {
      synth();
    } catch (e) {
      error = e;
    } finally {
      spy.mockRestore();
    }

    // THEN the refusal, as without the variable, and the report's problem said with its code
    expect(error).toBeInstanceOf(CompositionError);
    expect((error as CompositionError).violations.map((v) => v.code)).toEqual(['CAP010']);
    expect(stderr.join('').replace(/could not be written \(.*?\): /, 'could not be written (<cause>): ')).toBe(
      `CAP011 output not written: the report CDK_CAPABILITY_REPORT names, '${report}', could not be written (<cause>): ` +
        'point CDK_CAPABILITY_REPORT at a file in a folder this program can write. The synth itself goes on.\n',
    );
  });

  test('without the variable, nothing but the output is written', () => {
    // GIVEN an app and no CDK_CAPABILITY_REPORT
    const parent = tempDir();
    const app = newApp(path.join(parent, 'dist'));
    configMap(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', 'settings', 'edge');

    // WHEN
    app.synth();

    // THEN
    expect(fs.readdirSync(parent)).toEqual(['dist']);
  });
});
