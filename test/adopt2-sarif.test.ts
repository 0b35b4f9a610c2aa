import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { capturingOutput, NODE_TS_COMMAND } from './util';
import { main } from '../src/cli/main';

// A refusal thrown while the program builds its tree, before app.synth(), reached the SARIF log with its construct
// paths only: no physicalLocation, so GitHub code scanning annotated no line of the pull request, where a synth's
// findings carry the creation site of the constructs they name.

const ROOT = path.resolve(__dirname, '..');

function sarifOf(program: string): { code: number; log: any } {
  const env = { ...process.env };
  delete process.env.GITHUB_WORKSPACE;
  try {
    const { result, stdout } = capturingOutput(() => main(['plan', '--app', `${NODE_TS_COMMAND} ${JSON.stringify(program)}`, '--format', 'sarif']));
    return { code: result, log: JSON.parse(stdout) };
  } finally {
    if (env.GITHUB_WORKSPACE !== undefined) process.env.GITHUB_WORKSPACE = env.GITHUB_WORKSPACE;
  }
}

function sarifValidator() {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'vendor', 'sarif', 'sarif-schema-2.1.0.json'), 'utf-8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe.each([
  // a contract given the id of the stack beside it (CAP010): the line of new InterfaceContract(...)
  ['trial9/duplicate-id.ts', 'CAP010', 'shop/Orders', 8],
  // a RuntimeRouting under a plain cdk8s App (CAP015): the line of new RuntimeRouting(...)
  ['adopt2/misplaced.ts', 'CAP015', 'Routing', 7],
] as const)('cdk-capability plan --format sarif of %s, refused before synth', (fixture, code, construct, line) => {
  let run: { code: number; log: any };
  beforeAll(() => {
    run = sarifOf(path.join(__dirname, 'fixtures', fixture));
  });

  test('is valid against the OASIS SARIF 2.1.0 JSON Schema, and exits 1', () => {
    const validate = sarifValidator();
    expect(validate(run.log) ? [] : validate.errors).toEqual([]);
    expect(run.code).toBe(1);
  });

  test('its result is located at the program line that made the refusal, as a synth finding at a creation site', () => {
    const [result] = run.log.runs[0].results;
    expect(result.ruleId).toMatch(new RegExp(`^${code}/`));
    expect(result.locations).toEqual([{
      physicalLocation: {
        artifactLocation: { uri: `test/fixtures/${fixture}`, uriBaseId: 'SRCROOT' },
        region: { startLine: line, startColumn: 1 },
      },
      logicalLocations: [{ fullyQualifiedName: construct, kind: 'object' }],
    }]);
  });
});
