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
