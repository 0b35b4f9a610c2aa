import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { applyCommands } from '../src/cli/apply-commands';
import { main } from '../src/cli/main';
import { readPlanFile } from '../src/cli/plan-file';
import { readRuntimeFiles } from '../src/cli/runtime-files';

afterAll(removeTempDirs);

const SECRET = 'hunter2-sekrit';

/** A release of one Secret (stringData and data) and one ConfigMap, synthesized to a fresh outdir. */
function synthSecret(): string {
  const outdir = path.join(tempDir(), 'dist');
  const app = new CapabilityApp({ outdir });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Db', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'shop' },
    stringData: { password: SECRET },
    data: { token: Buffer.from(SECRET).toString('base64') },
  });
  new ApiObject(routing, 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { mode: 'plain' } });
  app.synth();
  return outdir;
}

describe('cdk-capability apply --dry-run masks secrets', () => {
  test('a Secret\'s data and stringData values are printed masked, the secret nowhere in stdout or stderr', () => {
    // GIVEN a release with a Secret holding a distinctive value
    const outdir = synthSecret();

    // WHEN apply runs dry
    const { result: code, stdout, stderr } = capturingOutput(() => main(['apply', '--outdir', outdir, '--dry-run']));

    // THEN the writer's here-document shows the keys with (sensitive), the header says so, and the value is nowhere
    expect(code).toBe(0);
    expect(stdout).not.toContain(SECRET);
    expect(stderr).not.toContain(SECRET);
    expect(stdout).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(stdout.split('\n')[0]).toBe(
      `# values of Secrets' data and stringData and values shaped like a secret are shown masked, (sensitive), as the lock and the plan show them; apply sends the real bytes, from the runtime files in ${outdir}`,
    );
    expect(stdout).toContain([
      "kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/Db -f - <<'EOF'",
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: db',
      '  namespace: shop',
      'data:',
      '  token: (sensitive)',
      'stringData:',
      '  password: (sensitive)',
      'EOF',
      "kubectl apply --server-side --field-manager=cdk-capability:shop/Routing/Cfg -f - <<'EOF'",
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: cfg',
      '  namespace: shop',
      'data:',
      '  mode: plain',
      'EOF',
    ].join('\n'));
  });

  test('the commands apply really runs are unchanged: the real bytes go on stdin', () => {
    // GIVEN the same release
    const outdir = synthSecret();
    const read = readPlanFile(path.join(outdir, 'plan.json'));
    if ('problems' in read) throw new Error(read.problems.join('; '));
    const files = readRuntimeFiles(read.plan, outdir, 1);
    if ('problems' in files) throw new Error(files.problems.join('; '));

    // WHEN the commands are made
    const commands = applyCommands(read.plan, outdir, { documents: (f) => files.documents.get(f) ?? [] });

    // THEN the Secret's writer sends the value as the runtime file holds it; only what is printed is masked
    const db = commands.find((c) => c.args.includes('--field-manager=cdk-capability:shop/Routing/Db'));
    expect(db?.input).toContain(`password: ${SECRET}`);
    expect(db?.shown).toContain('password: (sensitive)');
    expect(commands.find((c) => c.args.includes('--field-manager=cdk-capability:shop/Routing/Cfg'))?.shown).toBeUndefined();
    const file = fs.readdirSync(path.join(outdir, 'runtime')).map((f) => fs.readFileSync(path.join(outdir, 'runtime', f), 'utf-8')).join('');
    expect(file).toContain(SECRET);
  });

  test('--help says values are masked and where the real bytes are', () => {
    const { stdout } = capturingOutput(() => main(['apply', '--help']));
    expect(stdout).toContain("a secret, are printed masked, (sensitive), as the lock\n                    masks them; the real bytes are in <outdir>'s runtime files");
  });
});
