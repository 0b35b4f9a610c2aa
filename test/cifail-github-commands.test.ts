import { appFolder, cli, readWorkflowCommand, RUN_TS } from './cifail-cli';
import { HANG_GUARD_MS, removeTempDirs } from './util';
import { workflowCommand } from '../src/cli/format-github';

// GitHub reads `--format github` as workflow commands: `::error file=...,line=...,col=...,title=...::message`, with
// `%`, CR and LF escaped in the message and, in properties, `:` and `,` too, as @actions/core writes them. The first
// block ports the cases of actions/toolkit's own test of that writer (packages/core/__tests__/command.test.ts at
// commit 4b9afa4c890de9d1a84c75bb617ee4d96207823a, 2026-06-08, MIT License) onto our `workflowCommand`, with `os.EOL`
// as "\n" (we write "\n" on every platform; the runner splits lines on it). The case "should handle issuing
// commands for non-string objects" is left out: our properties and messages are strings and numbers only.

jest.setTimeout(HANG_GUARD_MS);
afterAll(removeTempDirs);

describe('workflowCommand, the cases of @actions/core command.test.ts', () => {
  it('command only', () => {
    expect(workflowCommand('some-command', {}, '')).toBe('::some-command::\n');
  });

  it('command escapes message', () => {
    // Verify replaces each instance, not just first instance
    expect(workflowCommand('some-command', {}, 'percent % percent % cr \r cr \r lf \n lf \n'))
      .toBe('::some-command::percent %25 percent %25 cr %0D cr %0D lf %0A lf %0A\n');
    // Verify literal escape sequences
    expect(workflowCommand('some-command', {}, '%25 %25 %0D %0D %0A %0A')).toBe('::some-command::%2525 %2525 %250D %250D %250A %250A\n');
  });

  it('command escapes property', () => {
    // Verify replaces each instance, not just first instance
    expect(workflowCommand('some-command', { name: 'percent % percent % cr \r cr \r lf \n lf \n colon : colon : comma , comma ,' }, ''))
      .toBe('::some-command name=percent %25 percent %25 cr %0D cr %0D lf %0A lf %0A colon %3A colon %3A comma %2C comma %2C::\n');
    // Verify literal escape sequences
    expect(workflowCommand('some-command', {}, '%25 %25 %0D %0D %0A %0A %3A %3A %2C %2C'))
      .toBe('::some-command::%2525 %2525 %250D %250D %250A %250A %253A %253A %252C %252C\n');
  });

  it('command with message', () => {
    expect(workflowCommand('some-command', {}, 'some message')).toBe('::some-command::some message\n');
  });

  it('command with message and properties', () => {
    expect(workflowCommand('some-command', { prop1: 'value 1', prop2: 'value 2' }, 'some message')).toBe('::some-command prop1=value 1,prop2=value 2::some message\n');
  });

  it('command with one property', () => {
    expect(workflowCommand('some-command', { prop1: 'value 1' }, '')).toBe('::some-command prop1=value 1::\n');
  });

  it('command with two properties', () => {
    expect(workflowCommand('some-command', { prop1: 'value 1', prop2: 'value 2' }, '')).toBe('::some-command prop1=value 1,prop2=value 2::\n');
  });

  it('command with three properties', () => {
    expect(workflowCommand('some-command', { prop1: 'value 1', prop2: 'value 2', prop3: 'value 3' }, '')).toBe('::some-command prop1=value 1,prop2=value 2,prop3=value 3::\n');
  });
});

describe('the annotation of a failed program whose file and message hold every character GitHub escapes', () => {
  test('the real command line escapes them, and the runner reads back the file, line and message', () => {
    // GIVEN an app whose entry is in a folder named with a comma, a colon and a percent sign, and whose error's
    // message holds a percent sign, a comma, a colon, a CR and a LF
    const folder = 'svc,v2:100%';
    const dir = appFolder({ [`${folder}/main.ts`]: "\nthrow new Error('100% broken,\\r twice: \\n second line');\n" });

    // WHEN plan runs it with --format github
    const app = `${RUN_TS} '${folder}/main.ts'`;
    const run = cli(dir, ['plan', '--app', app, '--format', 'github']);

    // THEN one line, its properties and message escaped as @actions/core escapes them
    const error = 'Error: 100% broken,\r twice: \n second line';
    const summary = `the app '${app}' failed before synth (exit code 1): the program's own error, not a cdk-capability violation; its error: ${error}`;
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `::error file=svc%2Cv2%3A100%25/main.ts,line=2,col=7,title=the app's program failed (not a cdk-capability violation)::${
        summary.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`,
    );
    // AND the runner's reading of the line gives back the file and the message as they are
    expect(readWorkflowCommand(run.stdout.slice(0, -1))).toEqual({
      command: 'error',
      properties: { file: `${folder}/main.ts`, line: '2', col: '7', title: "the app's program failed (not a cdk-capability violation)" },
      message: summary,
    });
  });
});
