/*
 * What the tests that play a release series command by command against a model cluster share: the shop whose
 * tenants' Deployments change shape between releases, and the commands `cdk-capability apply --dry-run` and
 * `plan --teardown --json` print for an outdir, read as a replay reads them.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput } from './util';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { main } from '../src/cli/main';

/** The identity that applies the shop's output. */
export const DEPLOYER = 'system:serviceaccount:ci:deployer';
/** The autoscaler's identity, the runtime writer of an autoscaled tenant's replicas. */
export const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';
/** The autoscaler's field manager. */
export const KCM = 'kube-controller-manager';

/** A tenant's Deployment in a release: declared replicas, replicas owned by an autoscaler, or not there. */
export type Shape = 'declared' | 'autoscaled' | 'absent';

/**
 * One release of the shop, synthesized into `outdir` with the series' lock (written): a Deployment `web-<tenant>` in
 * namespace `web` per tenant of the shape given, under `enforce` for `DEPLOYER`.
 */
export function buildShop(series: ReleaseSeries, outdir: string, tenants: readonly string[], shapes: readonly Shape[]): string {
  const app = new CapabilityApp({ outdir, lockFile: series.lockFile, enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  tenants.forEach((tenant, t) => {
    if (shapes[t] === 'absent') return;
    const web = new ApiObject(routing, `Web-${tenant}`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `web-${tenant}`, namespace: 'web' },
      spec: {
        ...(shapes[t] === 'autoscaled' ? {} : { replicas: 2 }),
        selector: { matchLabels: { app: `web-${tenant}` } },
        template: { metadata: { labels: { app: `web-${tenant}` } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      },
    });
    if (shapes[t] === 'autoscaled') new RuntimeWriter(routing, `Autoscaler-${tenant}`, { target: web, fields: ['spec.replicas'], identity: HPA, manager: KCM });
  });
  const synth = capturingOutput(() => withUpdateLock('1', () => app.synth()));
  expect(synth.stderr).toMatch(/^cdk-capability: wrote the lock of this release to /);
  return outdir;
}

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
