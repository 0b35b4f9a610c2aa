import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import type { CfnResource } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import { refusalAsPlanPrintsIt } from './support/plan-refusal';
import { removeTempDirs, siteOfNextLine, tempDir } from './util';
import { CapabilityApp, Capability, Contribution, RuntimeRouting } from '../src';
import { formatGithub } from '../src/cli/format-github';

afterAll(removeTempDirs);

const ROOT = path.join(__dirname, '..');
const HERE = path.relative(ROOT, __filename).split(path.sep).join('/');

/** The package's constructor: a ConfigMap whose data.mode its own addJsonPatch writes. */
const PATCHES_ITS_OBJECT = [
  "this.settings = new ApiObject(this.routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'queue-settings', namespace: 'default' }, data: {} });",
  "this.settings.addJsonPatch(JsonPatch.add('/data/mode', 'fifo'));",
];

interface QueueCapability extends Capability {
  readonly routing: RuntimeRouting;
  readonly settings: ApiObject;
}

type QueueCapabilityClass = new (scope: unknown, id: string) => QueueCapability;

/**
 * `@acme/queue-capability@1.0.0` as npm installs it into an app's node_modules, built JavaScript: its constructor
 * runs `body` (by default, it declares the ConfigMap default/queue-settings and writes its `data.mode` with
 * `addJsonPatch`). With `ownCdk8s`, the package keeps its own copy of cdk8s (its own node_modules/cdk8s, as
 * `npm i ../pkg` leaves it).
 */
function installedPackage(ownCdk8s = false, body: readonly string[] = PATCHES_ITS_OBJECT): { QueueCapability: QueueCapabilityClass } {
  const folder = path.join(tempDir(), 'node_modules', '@acme', 'queue-capability');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: '@acme/queue-capability', version: '1.0.0', main: 'index.js' }));
  let cdk8s = require.resolve('cdk8s');
  if (ownCdk8s) {
    const own = path.join(folder, 'node_modules', 'cdk8s');
    fs.cpSync(path.dirname(path.dirname(cdk8s)), own, { recursive: true, dereference: true });
    cdk8s = path.join(own, path.relative(path.dirname(path.dirname(cdk8s)), cdk8s));
    // its cdk8s resolves the app's constructs (a peer), as npm installs it
    fs.symlinkSync(path.dirname(require.resolve('constructs/package.json')), path.join(folder, '..', '..', 'constructs'));
  }
  fs.writeFileSync(path.join(folder, 'index.js'), [
    `const { ApiObject, JsonPatch } = require(${JSON.stringify(cdk8s)});`,
    `const ssm = require(${JSON.stringify(require.resolve('aws-cdk-lib/aws-ssm'))});`,
    "const { Capability, Contribution, RuntimeRouting, SharedBase } = require('cdk-capability');",
    'class QueueCapability extends Capability {',
    '  constructor(scope, id) {',
    '    super(scope, id);',
    "    this.routing = new RuntimeRouting(this, 'Routing');",
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
    'exports.QueueCapability = QueueCapability;',
    '',
  ].join('\n'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed package, loaded as the app loads it
  return require(folder);
}

/** The line after the one that calls it. */
function nextLine(): number {
  return Number(new Error().stack!.split('\n')[2].match(/:(\d+):\d+\)?$/)![1]) + 1;
}

/** The app of the trial: the package's capability, and a Contribution of the app's own writing data.mode too. */
function theTrialsApp(QueueCapability: QueueCapabilityClass): { lines: number; build: (app: CapabilityApp) => void } {
  let line = 0;
  return {
    get lines() { return line; },
    build: (app) => {
      line = nextLine();
      const queues = new QueueCapability(app, 'queues');
      new Contribution(queues.routing, 'Mode', { target: queues.settings, fields: { data: { mode: 'lifo' } } });
    },
  };
}

/** CAP002 of the trial, its call site named `where`. */
function conflict(where: string): string {
  return `CAP002 field conflict: 'queues/Routing/Mode' and 'queues/Routing/Settings' (addJsonPatch ${where}) both write data.mode of ConfigMap default/queue-settings. `
    + `Give each field one owner: drop it from one of them ('queues/Routing/Mode' writes it as a Contribution, in its fields; 'queues/Routing/Settings' writes it through addJsonPatch ${where}).`;
}

describe('a write made inside an installed package names the package, and the app\'s line that reached it', () => {
  test("the trial's addJsonPatch in a package's constructor: text, JSON and GitHub say where the call is, not only the app's line", () => {
    // GIVEN @acme/queue-capability, whose constructor patches data.mode, and the app's Contribution of data.mode
    const { QueueCapability } = installedPackage();
    const trial = theTrialsApp(QueueCapability);

    // WHEN plan runs the app
    const { text, findings } = refusalAsPlanPrintsIt(trial.build);

    // THEN the message says the call is inside the package, reached from the app's line
    const line = trial.lines;
    const message = conflict(`inside the installed package @acme/queue-capability@1.0.0, reached from ${HERE}:${line}`);
    expect(text.split('\n')).toEqual([
      'The composition was refused with 1 violation:',
      message,
      `  'queues/Routing/Mode' created at ${HERE}:${line + 1}:7`,
      `  'queues/Routing/Settings' created at ${HERE}:${line}:22, inside the installed package @acme/queue-capability@1.0.0`,
    ]);
    // AND --json's finding has the same message, and the package of the writer the package made
    expect(findings.map((f) => ({ message: `${f.code} ${f.message}`, writers: f.writers }))).toEqual([{
      message,
      writers: [
        { path: 'queues/Routing/Mode', location: { file: HERE, line: line + 1, column: 7 } },
        { path: 'queues/Routing/Settings', location: { file: HERE, line, column: 22 }, package: { name: '@acme/queue-capability', version: '1.0.0' } },
      ],
    }]);
    // AND --format github says the same on both lines
    expect(formatGithub(findings, { cwd: ROOT }).split('\n')).toEqual([
      `::error file=${HERE},line=${line + 1},col=7,title=CAP002 field conflict::${message} (constructs: queues/Routing/Mode, queues/Routing/Settings) [newest: queues/Routing/Mode]`,
      `::error file=${HERE},line=${line},col=22,title=CAP002 field conflict::${message} (constructs: queues/Routing/Mode, queues/Routing/Settings) [also: queues/Routing/Settings] [inside the installed package @acme/queue-capability@1.0.0]`,
      '',
    ]);
  });

  test('a package with its own copy of cdk8s: its addJsonPatch is recorded too, and named as the package\'s, not numbered', () => {
    // GIVEN the same package, installed from its folder with its own node_modules/cdk8s
    const { QueueCapability } = installedPackage(true);
    const trial = theTrialsApp(QueueCapability);

    // WHEN plan runs the app
    const { text } = refusalAsPlanPrintsIt(trial.build);

    // THEN the call is named where it was made, as with the app's cdk8s, not `(addJsonPatch #1)`
    expect(text.split('\n')[1]).toBe(conflict(`inside the installed package @acme/queue-capability@1.0.0, reached from ${HERE}:${trial.lines}`));
  });

  test('a Contribution a package makes: the write the finding is placed at names the package, after the app\'s line', () => {
    // GIVEN a package whose Contribution gives its own Deployment dnsPolicy None, and no dnsConfig
    const { QueueCapability } = installedPackage(false, [
      "const pod = { containers: [{ name: 'api', image: 'nginx:1.27' }] };",
      "this.settings = new ApiObject(this.routing, 'Api', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: pod } } });",
      "new Contribution(this.routing, 'Dns', { target: this.settings, fields: { spec: { template: { spec: { dnsPolicy: 'None' } } } } });",
    ]);

    // WHEN plan runs an app of that capability alone
    let line = 0;
    const { text, findings } = refusalAsPlanPrintsIt((app) => {
      line = nextLine();
      new QueueCapability(app, 'queues');
    });

    // THEN the line of the write says the package made it, as a creation site does
    expect(text.split('\n').slice(2)).toEqual([
      `  'queues/Routing/Dns' wrote 'spec.template.spec.dnsPolicy' by a Contribution (its fields) at ${HERE}:${line}:7, inside the installed package @acme/queue-capability@1.0.0`,
      `  'queues/Routing/Api' created at ${HERE}:${line}:7, inside the installed package @acme/queue-capability@1.0.0`,
    ]);
    // AND --json's first writer, the write, has the package, valid against docs/plan-output.schema.json
    const wrote = { path: 'queues/Routing/Dns', location: { file: HERE, line, column: 7 }, package: { name: '@acme/queue-capability', version: '1.0.0' }, wrote: { field: 'spec.template.spec.dnsPolicy', how: 'a Contribution (its fields)' } };
    expect(findings[0].writers[0]).toEqual(wrote);
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).addSchema(schema).compile({ $ref: `${schema.$id}#/$defs/finding` });
    expect({ valid: validate(findings[0]), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
    // AND --format github marks the annotation of the write
    expect(formatGithub(findings, { cwd: ROOT })).toMatch(/\[written by a Contribution \(its fields\): 'queues\/Routing\/Dns' wrote 'spec\.template\.spec\.dnsPolicy'\] \[inside the installed package @acme\/queue-capability@1\.0\.0\]\n$/);
  });

  test("a package's own addJsonPatch the finding is placed at: the write names the package, in text, JSON and GitHub", () => {
    // GIVEN a package whose constructor patches its own Deployment to dnsPolicy None, and no dnsConfig
    const { QueueCapability } = installedPackage(false, [
      "const pod = { containers: [{ name: 'api', image: 'nginx:1.27' }] };",
      "this.settings = new ApiObject(this.routing, 'Api', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: pod } } });",
      "this.settings.addJsonPatch(JsonPatch.add('/spec/template/spec/dnsPolicy', 'None'));",
    ]);

    // WHEN plan runs an app of that capability alone
    let line = 0;
    const { text, findings } = refusalAsPlanPrintsIt((app) => {
      line = nextLine();
      new QueueCapability(app, 'queues');
    });

    // THEN the line of the write says the package's code made the call the app's line reached
    expect(text.split('\n').slice(2)).toEqual([
      `  'queues/Routing/Api' wrote 'spec.template.spec.dnsPolicy' by addJsonPatch at ${HERE}:${line}:1, inside the installed package @acme/queue-capability@1.0.0`,
    ]);
    // AND --json's first writer, the write, has the package
    expect(findings[0].writers[0]).toEqual({
      path: 'queues/Routing/Api',
      location: { file: HERE, line, column: 1 },
      package: { name: '@acme/queue-capability', version: '1.0.0' },
      wrote: { field: 'spec.template.spec.dnsPolicy', how: 'addJsonPatch' },
    });
    // AND --format github marks it too
    expect(formatGithub(findings, { cwd: ROOT })).toMatch(/\[written by addJsonPatch: 'queues\/Routing\/Api' wrote 'spec\.template\.spec\.dnsPolicy'\] \[inside the installed package @acme\/queue-capability@1\.0\.0\]\n$/);
  });

  test("an override a package makes on its own resource is named inside the package, the app's own override as before", () => {
    // GIVEN a package whose shared base overrides its parameter's Description
    const { QueueCapability } = installedPackage(false, [
      "this.base = new SharedBase(this, 'Base');",
      "this.param = new ssm.CfnParameter(this.base, 'Mode', { type: 'String', value: 'fifo' });",
      "this.param.addPropertyOverride('Description', 'set by the package');",
    ]);
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist'), lockFile: path.join(tempDir(), 'capability.lock.json') });

    // WHEN the app overrides it too
    const made = siteOfNextLine();
    const queues = new QueueCapability(app, 'queues') as QueueCapability & { param: CfnResource };
    const own = siteOfNextLine();
    queues.param.addPropertyOverride('Description', 'set by the app');

    // THEN CAP002 names the package's call where it is, and the app's where it is
    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP002 field conflict: 'queues/Base/Mode' (addPropertyOverride at ${own}) and 'queues/Base/Mode' (addPropertyOverride inside the installed package @acme/queue-capability@1.0.0, reached from ${made}) `
      + 'both write Description of AWS::SSM::Parameter queues/Base/Mode. Give each field one owner: keep one of these calls on \'queues/Base/Mode\' (each replaces the value of the one before it), '
      + 'and write what another team needs with a Contribution.',
    ]);
  });
});
