import { parse } from 'yaml';
import { removeTempDirs, tempDir } from './util';
import { build } from '../examples/field-conflict/composition';
import { textOf } from '../src/render/file-content';

afterAll(removeTempDirs);

function inTempOutdir<T>(fn: () => T): T {
  const saved = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = `${tempDir('field-conflict-')}/dist`;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = saved;
  }
}

test('examples/field-conflict: two controllers declaring app1 are refused with CAP001 naming both', () => {
  // WHEN the refused version is synthesized
  const { violations } = inTempOutdir(() => build(false).synthesize());

  // THEN exactly the documented refusal
  expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP001 duplicate object: apps.example.com/ApplicationDeployment prod/app1 is declared by 'platform/Routing/NetworkController/App1' and 'platform/Routing/DeploymentController/App1'. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).",
  ]);
});

test('examples/field-conflict: the fix merges both controllers\' fields into the one emitted object', () => {
  // WHEN the fixed version is synthesized and written
  const app = inTempOutdir(() => build(true));
  app.synth();
  const files = app.synthesize().output!.files;

  // THEN one object carries the network controller's and the deployment controller's fields
  const docs = textOf(files.get('runtime/0001-platform-routing.yaml')!).split(/^---$/m).map((d) => parse(d));
  expect(docs).toEqual([
    {
      apiVersion: 'apps.example.com/v1',
      kind: 'ApplicationDeployment',
      metadata: { name: 'app1', namespace: 'prod' },
      spec: {
        applicationId: 'app1',
        timers: { rollout: '5m', healthCheck: '30s' },
        entityConfigurations: [{ entity: 'checkout', replicas: 3 }],
      },
    },
  ]);
});
