import * as fs from 'fs';
import * as path from 'path';
import { removeTempDirs, tempDir } from './util';
import { CapabilityValidation } from '../src';
import type { Cdk8sConstructMetadata, Cdk8sValidationContext } from '../src/plugin/validation-plugin';
import { OUTPUT_MARKER, OUTPUT_MARKER_CONTENT } from '../src/render/outdir-safety';

afterAll(removeTempDirs);

// The validation plugin at its API, with the part of cdk8s-cli's ValidationContext it uses
// (test/cdk8s-plugin.test.ts runs it under the real CLI).

interface Reported {
  readonly violations: Array<{ rule: string; recommendation: string; resources: string[] }>;
  readonly status?: string;
  /** What the plugin wrote to stderr. */
  readonly stderr: string;
}

interface Run {
  /** The manifest files, by path relative to `dir`. */
  readonly manifests: readonly string[];
  readonly metadata?: { readonly [name: string]: Cdk8sConstructMetadata };
  readonly env?: Record<string, string>;
}

/**
 * Runs the plugin in `dir` (as the CLI runs it in the folder of cdk8s.yaml) on the given manifests; what
 * it reported. Each violating resource reads `file#location resourceName`, and `at <path>` when the
 * metadata names a construct for that resource name, as the CLI's report does.
 */
async function validate(dir: string, run: Run): Promise<Reported> {
  const violations: Reported['violations'] = [];
  let status: string | undefined;
  let stderr = '';
  const cwd = process.cwd();
  const saved = { ...process.env };
  const captured = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    process.chdir(dir);
    Object.assign(process.env, run.env ?? {});
    const context: Cdk8sValidationContext = {
      manifests: run.manifests,
      metadata: run.metadata,
      report: {
        addViolation: (v) => violations.push({
          rule: v.ruleName,
          recommendation: v.recommendation,
          resources: v.violatingResources.map((r) => {
            // as cdk8s-cli's ValidationReport finds a resource's construct path
            const at = run.metadata?.[r.resourceName]?.path;
            return `${r.manifestPath}#${r.locations.join(';')} ${r.resourceName}${at ? ` at ${at}` : ''}`;
          }),
        }),
        submit: (s) => {
          status = s;
        },
      },
      parseManifest: () => {
        throw new Error('the plugin reads the files itself');
      },
    };
    await new CapabilityValidation().validate(context);
  } finally {
    process.chdir(cwd);
    process.env = saved;
    captured.mockRestore();
  }
  return { violations, status, stderr };
}

/** Writes `files` (relative path -> content) under `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
}

const SETTINGS = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\n';
const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - 0001-cdn-routing.yaml\n';
const LOCK = '{"formatVersion":1,"interfaces":[],"units":[],"barriers":[],"edges":[]}\n';

describe("the output of a CapabilityApp (its synth's marker at the top of the outdir)", () => {
  test('under cdk8s synth --stdout (manifests.yaml at the top): skipped in one line, nothing reported, the lock left as it is', async () => {
    // GIVEN the CLI's temporary outdir as a CapabilityApp leaves it (the object twice: a plain app's CAP001)
    const dir = tempDir();
    write(dir, { 'capability.lock.json': LOCK, [`out/${OUTPUT_MARKER}`]: OUTPUT_MARKER_CONTENT, 'out/plan.json': '{}', 'out/manifests.yaml': `${SETTINGS}---\n${SETTINGS}` });

    // WHEN the plugin runs on it with the lock switch on
    const reported = await validate(dir, { manifests: ['out/manifests.yaml'], env: { CDK_CAPABILITY_UPDATE_LOCK: '1' } });

    // THEN
    expect(reported).toEqual({
      violations: [],
      status: 'success',
      stderr: "cdk-capability: the validation plugin skipped 'out', the output of a CapabilityApp: its synth ran these checks, and the lock is its own.\n",
    });
    expect(fs.readFileSync(path.join(dir, 'capability.lock.json'), 'utf-8')).toBe(LOCK);
  });

  test('found from a GitOps folder below it too: the kustomization files are not taken for objects', async () => {
    const dir = tempDir();
    write(dir, { [`dist/${OUTPUT_MARKER}`]: OUTPUT_MARKER_CONTENT, 'dist/gitops/flux/cluster/kustomization.yaml': KUSTOMIZATION, 'dist/runtime/kustomization.yaml': KUSTOMIZATION });

    const reported = await validate(dir, { manifests: ['dist/gitops/flux/cluster/kustomization.yaml', 'dist/runtime/kustomization.yaml'] });

    expect(reported.violations).toEqual([]);
    expect(reported.stderr).toBe("cdk-capability: the validation plugin skipped 'dist', the output of a CapabilityApp: its synth ran these checks, and the lock is its own.\n");
  });

  test("a plain app's folder inside an output folder is checked: the marker counts only for the folders a synth writes", async () => {
    const dir = tempDir();
    write(dir, { [`dist/${OUTPUT_MARKER}`]: OUTPUT_MARKER_CONTENT, 'dist/plain/app.k8s.yaml': `${SETTINGS}---\n${SETTINGS}` });

    const reported = await validate(dir, { manifests: ['dist/plain/app.k8s.yaml'] });

    expect(reported.violations.map((v) => v.rule)).toEqual(['CAP001 duplicate object']);
    expect(reported.stderr).toBe('');
  });
});

test('no manifests at all (a CapabilityApp of stacks alone writes no YAML): the lock is left as it is, in one line', async () => {
  // GIVEN the lock the app wrote
  const dir = tempDir();
  write(dir, { 'capability.lock.json': LOCK });

  // WHEN the plugin runs on no manifests with the lock switch on
  const reported = await validate(dir, { manifests: [], env: { CDK_CAPABILITY_UPDATE_LOCK: 'true' } });

  // THEN it reports nothing, does not rewrite the lock and says so
  expect(reported).toEqual({ violations: [], status: 'success', stderr: 'cdk-capability: no manifests were synthesized; the validation plugin left the lock capability.lock.json as it is.\n' });
  expect(fs.readFileSync(path.join(dir, 'capability.lock.json'), 'utf-8')).toBe(LOCK);
});

describe("the app's construct paths, from cdk8s' construct metadata keyed by object name alone", () => {
  const binding = (name: string) =>
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n' +
    `metadata:\n  name: ${name}\n  namespace: shop\n` +
    'roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: missing\n' +
    'subjects:\n  - kind: ServiceAccount\n    name: default\n    namespace: shop\n';
  const configMap = (name: string, data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: shop\ndata:\n  k: "${data}"\n`;

  test('an object whose name another object shares is named by its file and document, not by the construct the metadata holds for the name', async () => {
    // GIVEN a RoleBinding and a ConfigMap both named reader (cdk8s recorded the ConfigMap's construct for the name), and a RoleBinding writer
    const dir = tempDir();
    write(dir, { 'web.k8s.yaml': [binding('reader'), configMap('reader', 'a'), binding('writer')].join('---\n') });
    const metadata = { reader: { path: 'web/SettingsConfigMap' }, writer: { path: 'web/WriterBinding' } };

    // WHEN
    const reported = await validate(dir, { manifests: ['web.k8s.yaml'], metadata });

    // THEN the RoleBinding reader is not said to be declared by web/SettingsConfigMap, in the message or in the CLI's report; writer keeps its construct
    expect(reported.violations.map((v) => v.recommendation.replace(/ refers to .*/, ''))).toEqual([
      "CAP005 dangling reference: rbac.authorization.k8s.io/RoleBinding shop/reader declared by document 1 of 'web.k8s.yaml'",
      "CAP005 dangling reference: rbac.authorization.k8s.io/RoleBinding shop/writer declared by 'web/WriterBinding'",
    ]);
    expect(reported.violations.map((v) => v.resources)).toEqual([
      ['web.k8s.yaml#document 1 (RoleBinding shop/reader) RoleBinding shop/reader'],
      ['web.k8s.yaml#document 3 (RoleBinding shop/writer) writer at web/WriterBinding'],
    ]);
  });

  test('two declarations of one object (an Include and an ApiObject) are named by their documents, not twice by one construct', async () => {
    // GIVEN an included ConfigMap dup and an ApiObject of the same name, which cdk8s records as one name with the last one's path
    const dir = tempDir();
    write(dir, { 'web.k8s.yaml': [configMap('dup', 'included'), configMap('dup', 'declared')].join('---\n') });

    const reported = await validate(dir, { manifests: ['web.k8s.yaml'], metadata: { dup: { path: 'web/Dup' } } });

    expect(reported.violations).toEqual([
      {
        rule: 'CAP001 duplicate object',
        recommendation: expect.stringMatching(/^CAP001 duplicate object: ConfigMap shop\/dup is declared by document 1 of 'web\.k8s\.yaml' and document 2 of 'web\.k8s\.yaml'\. Emit it once: /),
        resources: ['web.k8s.yaml#document 1 (ConfigMap shop/dup) ConfigMap shop/dup', 'web.k8s.yaml#document 2 (ConfigMap shop/dup) ConfigMap shop/dup'],
      },
    ]);
  });

  test('metadata that gives two objects one construct names neither by it', async () => {
    // GIVEN two differently named RoleBindings whose metadata entries name the same construct (cdk8s never writes it: a guard)
    const dir = tempDir();
    write(dir, { 'web.k8s.yaml': [binding('a'), binding('b')].join('---\n') });

    const reported = await validate(dir, { manifests: ['web.k8s.yaml'], metadata: { a: { path: 'web/Binding' }, b: { path: 'web/Binding' } } });

    expect(reported.violations.map((v) => v.recommendation.replace(/ refers to .*/, ''))).toEqual([
      "CAP005 dangling reference: rbac.authorization.k8s.io/RoleBinding shop/a declared by document 1 of 'web.k8s.yaml'",
      "CAP005 dangling reference: rbac.authorization.k8s.io/RoleBinding shop/b declared by document 2 of 'web.k8s.yaml'",
    ]);
  });
});
