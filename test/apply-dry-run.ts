/*
 * The commands `cdk-capability apply --dry-run` and `plan --teardown --json` print for an outdir, read as a replay
 * reads them: shared by the tests that play a release series command by command against a model cluster.
 */
import * as path from 'path';
import { capturingOutput } from './util';
import { main } from '../src/cli/main';

/** One command of the sequence: its line, and what it sends on stdin. */
export interface Command {
  readonly line: string;
  readonly input?: string;
}

/** The commands `apply --dry-run` prints, each with its here-document. */
export function dryRun(outdir: string): Command[] {
  const run = capturingOutput(() => main(['apply', '--outdir', outdir, '--dry-run']));
  expect(run.result).toBe(0);
  const commands: Command[] = [];
  const lines = run.stdout.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '' || line.startsWith('#')) continue;
    if (!line.endsWith("<<'EOF'")) {
      commands.push({ line });
      continue;
    }
    const end = lines.indexOf('EOF', i);
    commands.push({ line, input: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return commands;
}

/** The teardown's commands of the steps that run at `when`, as `plan --teardown --json` gives them. */
export function teardown(outdir: string, when: string): Command[] {
  const run = capturingOutput(() => main(['plan', '--plan', path.join(outdir, 'plan.json'), '--teardown', '--json']));
  const steps: any[] = JSON.parse(run.stdout).teardown.steps;
  return steps.filter((s) => s.when === when).flatMap((s) => s.commands.map((line: string) => ({ line })));
}
