import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { ApiObject } from 'cdk8s';
import { refusalAsPlanPrintsIt } from './support/plan-refusal';
import { removeTempDirs, tempDir } from './util';
import { Capability, RuntimeRouting } from '../src';
import { formatGithub } from '../src/cli/format-github';

afterAll(removeTempDirs);

const ROOT = path.join(__dirname, '..');
const HERE = path.relative(ROOT, __filename).split(path.sep).join('/');

/**
 * A capability package as npm installs it, `node_modules/@acme/queue-worker-capability` of an app (2.1.0), built
 * JavaScript: its constructor declares the ConfigMap `workers/settings` in its runtime chart.
 */
function installedPackage(): { QueueWorkerCapability: new (scope: unknown, id: string) => Capability } {
  const folder = path.join(tempDir(), 'node_modules', '@acme', 'queue-worker-capability');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: '@acme/queue-worker-capability', version: '2.1.0', main: 'index.js' }));
  fs.writeFileSync(path.join(folder, 'index.js'), [
    // the app's cdk8s (a peer): the temporary folder has no node_modules above it
    `const { ApiObject } = require(${JSON.stringify(require.resolve('cdk8s'))});`,
    "const { Capability, RuntimeRouting } = require('cdk-capability');",
    'class QueueWorkerCapability extends Capability {',
    '  constructor(scope, id) {',
    '    super(scope, id);',
    "    const routing = new RuntimeRouting(this, 'Routing');",
    "    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'workers' }, data: { a: '1' } });",
    '  }',
    '}',
    'exports.QueueWorkerCapability = QueueWorkerCapability;',
    '',
  ].join('\n'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed package, loaded as the app loads it
  return require(folder);
}

describe('a refusal naming a construct that an installed package made', () => {
  test('names, after the app\'s line, the package and version whose code made it; the app\'s own construct gets no such note', () => {
    // GIVEN the package from npm, and the app's own ConfigMap of the same identity
    const { QueueWorkerCapability } = installedPackage();

    // WHEN plan runs the app
    let line = 0;
    const { text, findings } = refusalAsPlanPrintsIt((app) => {
      line = Number(new Error().stack!.split('\n')[1].match(/:(\d+):\d+\)?$/)![1]) + 1;
      new QueueWorkerCapability(app, 'jobs');
      new ApiObject(new RuntimeRouting(new Capability(app, 'team'), 'Routing'), 'Settings', {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'workers' }, data: { b: '2' },
      });
    });

    // THEN
    expect(text.split('\n')).toEqual([
      'The composition was refused with 1 violation:',
      expect.stringMatching(/^CAP001 duplicate object: ConfigMap workers\/settings is declared by 'jobs\/Routing\/Settings' and 'team\/Routing\/Settings'\./),
      `  'team/Routing/Settings' created at ${HERE}:${line + 1}:7`,
      `  'jobs/Routing/Settings' created at ${HERE}:${line}:7, inside the installed package @acme/queue-worker-capability@2.1.0`,
    ]);

    // AND --json's finding names the package of that writer, as docs/plan-output.schema.json describes it
    expect(findings[0].writers).toEqual([
      { path: 'team/Routing/Settings', location: { file: HERE, line: line + 1, column: 7 } },
      { path: 'jobs/Routing/Settings', location: { file: HERE, line, column: 7 }, package: { name: '@acme/queue-worker-capability', version: '2.1.0' } },
    ]);
    // AND --format github marks that writer's annotation
    expect(formatGithub(findings, { cwd: ROOT }).split('\n').map((l) => l.replace(/::CAP001 duplicate object: .*?(?= \(constructs)/, '::<message>'))).toEqual([
      `::error file=${HERE},line=${line + 1},col=7,title=CAP001 duplicate object::<message> (constructs: jobs/Routing/Settings, team/Routing/Settings) [newest: team/Routing/Settings]`,
      `::error file=${HERE},line=${line},col=7,title=CAP001 duplicate object::<message> (constructs: jobs/Routing/Settings, team/Routing/Settings) [also: jobs/Routing/Settings] [inside the installed package @acme/queue-worker-capability@2.1.0]`,
      '',
    ]);
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).addSchema(schema).compile({ $ref: `${schema.$id}#/$defs/finding` });
    expect({ valid: validate(findings[0]), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
  });
});
