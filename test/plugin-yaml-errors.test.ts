import * as fs from 'fs';
import * as path from 'path';
import { removeTempDirs, tempDir } from './util';
import { CapabilityValidation } from '../src';
import type { CapabilityValidationProps, Cdk8sValidationContext } from '../src/plugin/validation-plugin';

afterAll(removeTempDirs);

// Issue 22 item 7: the validation plugin reports YAML errors as findings with file and line, and never throws
// without a report. The context is the part of cdk8s-cli's ValidationContext the plugin uses; cdk8s writes valid
// YAML, so malformed files are written here directly.

interface Reported {
  readonly violations: Array<{ rule: string; recommendation: string; resources: string[] }>;
  readonly status?: string;
  readonly metadata?: Record<string, string>;
}

/** Runs the plugin on `files` (name -> content) in a fresh folder; what it reported. */
async function validate(files: Record<string, string>, props?: unknown): Promise<Reported> {
  const dir = tempDir();
  const manifests = Object.entries(files).map(([name, content]) => {
    fs.writeFileSync(path.join(dir, name), content);
    return path.join(dir, name);
  });
  const reported: { violations: Reported['violations']; status?: string; metadata?: Record<string, string> } = { violations: [] };
  const context: Cdk8sValidationContext = {
    manifests,
    report: {
      addViolation: (v) => reported.violations.push({
        rule: v.ruleName,
        recommendation: v.recommendation.split(dir + path.sep).join(''),
        resources: v.violatingResources.map((r) => `${path.basename(r.manifestPath)}#${r.locations.join(';')} ${r.resourceName}`),
      }),
      submit: (status, metadata) => {
        reported.status = status;
        reported.metadata = metadata as Record<string, string>;
      },
    },
    parseManifest: () => {
      throw new Error('the plugin reads the files itself');
    },
  };
  await new CapabilityValidation((props ?? { lockFile: path.join(dir, 'no.lock.json') }) as CapabilityValidationProps).validate(context);
  return reported;
}

const CONFIG = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\n';

test('a document that is not valid YAML is one CAP010 with its file, line and column; its partial object is not linted; the other documents are', async () => {
  // GIVEN a good ConfigMap, a document whose flow list never closes (it also holds an invalid name), and one with an invalid name
  const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Partial\n  namespace: shop\n  labels: [a, b\ndata: {}\n';
  const named = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n  namespace: shop\n';

  // WHEN
  const reported = await validate({ 'app.k8s.yaml': `${CONFIG}---\n${broken}---\n${named}` });

  // THEN the YAML error, located, and the invalid name of the third document; nothing about Bad_Partial
  expect(reported.violations).toEqual([
    {
      rule: 'CAP010 invalid object',
      recommendation: expect.stringMatching(/^CAP010 invalid object: 'metadata\.name' \("Bad_Name"\) of ConfigMap shop\/Bad_Name declared by document 3 of 'app\.k8s\.yaml' must be a DNS-1123 subdomain/),
      resources: ['app.k8s.yaml#document 3 (ConfigMap shop/Bad_Name) Bad_Name'],
    },
    {
      rule: 'CAP010 invalid object',
      recommendation: "CAP010 invalid object: document 2 of 'app.k8s.yaml' is not valid YAML at line 13, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]; it was not checked. Fix the file (kubectl would refuse it too).",
      resources: ['app.k8s.yaml#document 2, line 13, column 1 ((no kind) (no name)) (no name)'],
    },
  ]);
  expect([reported.status, reported.metadata]).toEqual(['failure', { errors: '2', warnings: '0' }]);
});

test('an unclosed quote that swallows the documents after it is reported once, at the line where the file ends', async () => {
  // WHEN
  const reported = await validate({ 'a.k8s.yaml': `${CONFIG}data:\n  mode: "live\n---\n${CONFIG}` });

  // THEN
  expect(reported.violations.map((v) => [v.recommendation, v.resources])).toEqual([[
    "CAP010 invalid object: document 1 of 'a.k8s.yaml' is not valid YAML at line 14, column 1: Missing closing \"quote; it was not checked. Fix the file (kubectl would refuse it too).",
    ['a.k8s.yaml#document 1, line 14, column 1 ((no kind) (no name)) (no name)'],
  ]]);
  expect(reported.status).toBe('failure');
});

test('a YAML alias bomb is reported as one CAP010 with its line, never expanded, and the plugin does not throw', async () => {
  // GIVEN the "billion laughs" shape: each level nine aliases of the one before
  const levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
  }
  const bomb = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: lol', '  namespace: shop', 'data:', ...levels.map((l) => `  ${l}`), ''].join('\n');

  // WHEN
  const reported = await validate({ 'ok.k8s.yaml': CONFIG.replace('settings', 'other'), 'bomb.k8s.yaml': `${CONFIG}---\n${bomb}` });

  // THEN
  expect(reported.violations.map((v) => [v.recommendation, v.resources])).toEqual([[
    "CAP010 invalid object: document 2 of 'bomb.k8s.yaml' (from line 7) expands its aliases past 100 nodes, a resource exhaustion attack (Excessive alias count indicates a resource exhaustion attack); it was not checked. Fix the file (kubectl would refuse it too).",
    ['bomb.k8s.yaml#document 2, line 7, column 1 ((no kind) (no name)) (no name)'],
  ]]);
  expect(reported.status).toBe('failure');
});

test('a crash while validating is reported as one CAP000 and fails the report instead of throwing', async () => {
  // GIVEN a manifest path that is a folder (reading it fails with EISDIR)
  const dir = tempDir();
  const reported: Reported = { violations: [] };
  const context: Cdk8sValidationContext = {
    manifests: [dir],
    report: {
      addViolation: (v) => reported.violations.push({ rule: v.ruleName, recommendation: v.recommendation, resources: [] }),
      submit: (status) => Object.assign(reported, { status }),
    },
    parseManifest: () => [],
  };

  // WHEN / THEN it resolves, with the report submitted
  await expect(new CapabilityValidation().validate(context)).resolves.toBeUndefined();
  expect(reported.violations).toEqual([{
    rule: 'CAP000 internal error',
    recommendation: expect.stringMatching(/^CAP000 internal error: the validation plugin crashed: Error: EISDIR: illegal operation on a directory, read\. This is a bug in cdk-capability/),
    resources: [],
  }]);
  expect(reported.status).toBe('failure');
});

test('valid files give the same documents the CLI parser gives: a clean file passes', async () => {
  const reported = await validate({ 'a.k8s.yaml': `${CONFIG}---\n# only a comment\n` });

  expect(reported).toEqual({ violations: [], status: 'success', metadata: { errors: '0', warnings: '0' } });
});

test('properties cdk8s.yaml gives the plugin that it cannot use are CAP014s, reported before any check, never a throw', async () => {
  // GIVEN a lockFile that is a number and a misspelt property (cdk8s-cli passes properties from YAML unchecked)
  const wrong = await validate({ 'a.k8s.yaml': CONFIG }, { lockFile: 7, lockfile: 'capability.lock.json' });
  // and properties that are no map at all
  const list = await validate({ 'a.k8s.yaml': CONFIG }, ['capability.lock.json']);

  // THEN one CAP014 each, the report failed, and no check ran
  expect(wrong.violations.map((v) => v.recommendation)).toEqual([
    // sorted, as every report is
    'CAP014 lock file: the validation plugin has no property "lockfile" in cdk8s.yaml: its one property is lockFile',
    "CAP014 lock file: the validation plugin's property lockFile in cdk8s.yaml (7) must be the path of the lock file, such as capability.lock.json",
  ]);
  expect(wrong.status).toBe('failure');
  expect(list.violations.map((v) => v.recommendation)).toEqual([
    'CAP014 lock file: the validation plugin\'s properties in cdk8s.yaml (["capability.lock.json"]) must be a map, such as { lockFile: capability.lock.json }',
  ]);
});

test('a lockFile whose folder does not exist is one CAP011 saying so when the lock is to be rewritten, before any check', async () => {
  // GIVEN lockFile locks/capability.lock.json, whose folder does not exist, and CDK_CAPABILITY_UPDATE_LOCK=1
  const before = process.env.CDK_CAPABILITY_UPDATE_LOCK;
  process.env.CDK_CAPABILITY_UPDATE_LOCK = '1';
  const lockFile = path.join(tempDir(), 'locks', 'capability.lock.json');
  let reported: Reported;
  try {
    // WHEN the plugin validates a clean file
    reported = await validate({ 'a.k8s.yaml': CONFIG }, { lockFile });
  } finally {
    if (before === undefined) delete process.env.CDK_CAPABILITY_UPDATE_LOCK;
    else process.env.CDK_CAPABILITY_UPDATE_LOCK = before;
  }

  // THEN one CAP011 says that the folder does not exist, not a crash (CAP000) of the write
  expect(reported.violations.map((v) => v.recommendation)).toEqual([
    `CAP011 output not written: the folder '${path.dirname(lockFile)}' of the lock file '${lockFile}' does not exist, so the lock of this release cannot be written (CDK_CAPABILITY_UPDATE_LOCK=1). ` +
      `Nothing was changed. Create the folder (mkdir -p ${path.dirname(lockFile)}), or correct the path of the lock file, and synth again.`,
  ]);
  expect(reported.status).toBe('failure');
  expect(fs.existsSync(path.dirname(lockFile))).toBe(false);
});
