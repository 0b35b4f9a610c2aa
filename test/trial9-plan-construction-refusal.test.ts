import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { capturingOutput, NODE_TS_COMMAND } from './util';
import { main } from '../src/cli/main';

// A refusal thrown while the program builds its tree (a duplicate construct id, CAP015, a contract's bad
// arguments) comes before app.synth(), so no synth writes the report `cdk-capability plan` reads. The plan
// used to say the app "ended without a report: it failed before synth, or its root is not a CapabilityApp",
// and printed nothing at all on stdout for --format json, sarif or github: a pull request got no annotation.

const PROGRAM = path.join(__dirname, 'fixtures', 'trial9', 'duplicate-id.ts');
const MESSAGE = "CAP010 invalid object: InterfaceContract 'shop/Orders': 'shop' already has a child of the id 'Orders' (the SharedBase 'shop/Orders'), and a construct's id is unique among its siblings. Give the InterfaceContract an id of its own";

function plan(...args: string[]): { code: number; stdout: string; stderr: string } {
  const { result, stdout, stderr } = capturingOutput(() => main(['plan', '--app', `${NODE_TS_COMMAND} ${JSON.stringify(PROGRAM)}`, ...args]));
  return { code: result, stdout, stderr };
}

describe('cdk-capability plan of a program refused before synth', () => {
  test('the text plan lists the coded violation as a refused synth does, and exits 1', () => {
    // WHEN the plan runs a program whose contract has the id of a stack beside it
    const run = plan();

    // THEN it prints the refusal with its code, not that the app left no report
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(MESSAGE);
    expect(run.stdout + run.stderr).not.toContain('without a report');
    expect(run.stdout + run.stderr).toContain('cdk-capability plan: the composition was refused with 1 violation; nothing to apply.');
  });

  test('--format json writes the refusal as a document on stdout, valid against docs/plan-output.schema.json', () => {
    const run = plan('--format', 'json');

    expect(run.code).toBe(1);
    const document = JSON.parse(run.stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);
    expect(validate.errors ?? (validate(document) ? [] : validate.errors)).toEqual([]);
    expect(document.accepted).toBe(false);
    expect(document.findings).toEqual([expect.objectContaining({ code: 'CAP010', message: MESSAGE.slice('CAP010 '.length), paths: ['shop/Orders'], rule: 'CAP010/invalid-object' })]);
  });

  test('--format github annotates the refusal', () => {
    const run = plan('--format', 'github');

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error .*title=CAP010 invalid object::CAP010 invalid object: InterfaceContract 'shop\/Orders'/m);
  });
});
