/**
 * Reports users act on: each rule carries its own id and explanation, as a cdk-nag rule does, and a finding
 * about several writers points at each of them, the newest (the line a pull request added) first, in SARIF
 * `relatedLocations` validated against the vendored OASIS schema and in one GitHub annotation per writer.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, RuntimeRouting } from '../src';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { ViolationCode } from '../src/check/finding';
import { RULES } from '../src/check/rules';
import { main } from '../src/cli/main';
import { reportedRules } from '../src/cli/report-findings';
import type { SynthReport } from '../src/render/report-file';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
const THIS_FILE = path.relative(process.cwd(), __filename).split(path.sep).join('/');

/** The 1-based line of this file that holds `marker`. */
function lineOf(marker: string): number {
  return fs.readFileSync(__filename, 'utf-8').split('\n').findIndex((l) => l.includes(marker) && !l.includes('lineOf(')) + 1;
}

describe('rule metadata, declared once per rule', () => {
  // Ported from cdk-nag's rule shape (cdklabs/cdk-nag docs/NagPack.md, `applyRule({ info, explanation, level, rule })`,
  // main as of 2026-12): a rule has a stable id, a short info line, an explanation of why it matters, and a level.
  test('every rule has its own id, made of its code and title, and an explanation of one or two sentences', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(new RegExp(`^${r.code}/[a-z0-9]+(-[a-z0-9]+)*$`));
      expect(r.explanation).toMatch(/^[A-Za-z].{40,300}[.]$/);
    }
    expect(new Set(RULES.map((r) => r.explanation)).size).toBe(RULES.length);
  });

  test('the report explains every code: each rule, plus the findings no rule makes (CAP000, CAP011, CAP013, CAP015, CAP016, CAP017)', () => {
    const rules = reportedRules();
    expect([...new Set(rules.map((r) => r.code))]).toEqual(Object.values(ViolationCode));
    expect(rules.filter((r) => !RULES.some((x) => x.id === r.id)).map((r) => r.id)).toEqual([
      'CAP000/internal-error', 'CAP011/output-not-written', 'CAP013/custom-resource-before-its-crd',
      'CAP015/misplaced-construct', 'CAP016/plan-file', 'CAP017/live-objects',
    ]);
  });
});

describe('a field conflict between a declaration and the contribution a pull request adds', () => {
  let report: string;

  beforeAll(() => {
    // GIVEN a ConfigMap declared here, and a Contribution (the pull request's, created later; its path sorts after the declarer's) writing the same field
    const dir = tempDir();
    const file = path.join(dir, 'report.json');
    const previous = process.env.CDK_CAPABILITY_REPORT;
    process.env.CDK_CAPABILITY_REPORT = file;
    try {
      const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'capability.lock.json') });
      const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
      const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { mode: 'live' } }); // SITE-DECLARER
      new Contribution(routing, 'Tuning', { target: settings, fields: { data: { mode: 'maintenance' } } }); // SITE-CONTRIBUTION
      expect(() => capturingOutput(() => app.synth())).toThrow(/CAP002/);
    } finally {
      if (previous === undefined) delete process.env.CDK_CAPABILITY_REPORT;
      else process.env.CDK_CAPABILITY_REPORT = previous;
    }
    report = file;
    const parsed: SynthReport = JSON.parse(fs.readFileSync(file, 'utf-8'));
    expect(parsed.violations.map((v) => [v.code, v.rule, v.paths])).toEqual([['CAP002', 'CAP002/field-conflicts', ['cdn/Routing/Settings', 'cdn/Routing/Tuning']]]);
  });

  const plan = (...args: string[]) => {
    const { result, stdout } = capturingOutput(() => main(['plan', '--app', `cp '${report}' "$CDK_CAPABILITY_REPORT"`, ...args]));
    return { code: result, stdout };
  };
  const declarer = () => ({ uri: THIS_FILE, line: lineOf('// SITE-DECLARER') });
  const contribution = () => ({ uri: THIS_FILE, line: lineOf('// SITE-CONTRIBUTION') });

  test('SARIF: the newest writer is the location, the other a related location; valid against the vendored schema', () => {
    const { code, stdout } = plan('--format', 'sarif');
    const sarif = JSON.parse(stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'vendor', 'sarif', 'sarif-schema-2.1.0.json'), 'utf-8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);

    expect(code).toBe(1);
    expect(validate(sarif) ? [] : validate.errors).toEqual([]);
    const [result] = sarif.runs[0].results;
    const at = (l: any) => ({ uri: l.physicalLocation.artifactLocation.uri, line: l.physicalLocation.region.startLine });
    expect(result.ruleId).toBe('CAP002/field-conflicts');
    expect(sarif.runs[0].tool.driver.rules[result.ruleIndex].id).toBe('CAP002/field-conflicts');
    expect(at(result.locations[0])).toEqual(contribution());
    expect(result.relatedLocations.map((l: any) => ({ ...at(l), id: l.id, message: l.message.text }))).toEqual([
      { ...declarer(), id: 1, message: 'cdn/Routing/Settings, also named by this CAP002 finding' },
    ]);
  });

  test('GitHub: one annotation per writer, the newest first', () => {
    const { stdout } = plan('--format', 'github');
    expect(stdout.split('\n').filter(Boolean).map((l) => /^::error file=([^,]+),line=(\d+),.*\[(newest|also): ([^\]]+)\]$/.exec(l)?.slice(1))).toEqual([
      [THIS_FILE, String(contribution().line), 'newest', 'cdn/Routing/Tuning'],
      [THIS_FILE, String(declarer().line), 'also', 'cdn/Routing/Settings'],
    ]);
  });

  test('JSON: the writers, newest first, and the rule', () => {
    const { stdout } = plan('--json');
    const [finding] = JSON.parse(stdout).findings;
    expect({ rule: finding.rule, writers: finding.writers.map((w: any) => [w.path, w.location.line]) }).toEqual({
      rule: 'CAP002/field-conflicts',
      writers: [['cdn/Routing/Tuning', contribution().line], ['cdn/Routing/Settings', declarer().line]],
    });
  });
});
