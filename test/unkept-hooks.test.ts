import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Include } from 'cdk8s';
import { Capability, CapabilityTesting, GitOps, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

const FIX_HELM = "Render the chart without its hooks (helmFlags: ['--no-hooks'] of cdk8s' Helm, or ['--skip-tests'] for its tests alone), "
  + 'or remove the annotation and order the object with addDependency; with GitOps.argoCd(), Argo CD runs the hooks it knows.';

/** A chart's rendered manifests, as `helm template` writes them: a Deployment, a pre-install Job, a test Pod, and a CRD of Helm 2's crd-install hook. */
const CHART_OUTPUT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: "nginx:1.27" }] } }
---
apiVersion: batch/v1
kind: Job
metadata:
  name: web-migrate
  annotations: { "helm.sh/hook": "pre-install,pre-upgrade", "helm.sh/hook-delete-policy": "hook-succeeded" }
spec:
  template: { spec: { restartPolicy: Never, containers: [{ name: migrate, image: "busybox:1.36" }] } }
---
apiVersion: v1
kind: Pod
metadata:
  name: web-test-connection
  annotations: { "helm.sh/hook": test }
spec:
  restartPolicy: Never
  containers: [{ name: wget, image: "busybox:1.36", command: [wget], args: ["web:80"] }]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
  annotations: { "helm.sh/hook": crd-install }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets, singular: widget, listKind: WidgetList }
  scope: Namespaced
  versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }]
`;

/** An app whose chart `shop/Routing` includes the chart's rendered manifests, for `gitops` when given. */
function withChartOutput(gitops?: GitOps) {
  const file = path.join(tempDir(), 'web.yaml');
  fs.writeFileSync(file, CHART_OUTPUT);
  const app = CapabilityTesting.app(gitops ? { gitops } : {});
  new Include(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Web', { url: file });
  return app;
}

const messages = (app: ReturnType<typeof withChartOutput>) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

describe('an object annotated as a hook, in output no applier of which runs hooks, is CAP010', () => {
  test("a chart's hooks, included, without GitOps output: each hook refused, naming it, its path, its delete policy and the fix; the crd-install CRD is no hook", () => {
    // GIVEN a chart's rendered manifests, included in a chart
    const app = withChartOutput();

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN the Job and the Pod, each once
    expect(result.violations.map((v) => [`${v.code} ${v.message}`, v.paths])).toEqual([
      [
        "CAP010 invalid object: Pod web-test-connection declared by 'shop/Routing/Web/web-test-connection-pod' has the annotation helm.sh/hook \"test\", "
          + "but kubectl (cdk-capability apply) runs no hooks: it would apply the object as an ordinary one, in the plan's order, at every apply. " + FIX_HELM,
        ['shop/Routing/Web/web-test-connection-pod'],
      ],
      [
        "CAP010 invalid object: batch/Job web-migrate declared by 'shop/Routing/Web/web-migrate-job' has the annotation helm.sh/hook \"pre-install,pre-upgrade\", "
          + "but kubectl (cdk-capability apply) runs no hooks: it would apply the object as an ordinary one, in the plan's order, at every apply, "
          + 'and ignore its helm.sh/hook-delete-policy "hook-succeeded". ' + FIX_HELM,
        ['shop/Routing/Web/web-migrate-job'],
      ],
    ]);
  });

  test('with GitOps.flux(): refused the same, Flux named as the applier', () => {
    // GIVEN the chart's rendered manifests, with the Flux output
    const app = withChartOutput(GitOps.flux({ sourceRef: { name: 'platform' } }));

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP010 invalid object: Pod web-test-connection declared by 'shop/Routing/Web/web-test-connection-pod' has the annotation helm.sh/hook \"test\", "
        + "but Flux (GitOps.flux({ sourceRef })) runs no hooks: it would apply the object as an ordinary one, in the plan's order, at every apply. " + FIX_HELM,
      "CAP010 invalid object: batch/Job web-migrate declared by 'shop/Routing/Web/web-migrate-job' has the annotation helm.sh/hook \"pre-install,pre-upgrade\", "
        + "but Flux (GitOps.flux({ sourceRef })) runs no hooks: it would apply the object as an ordinary one, in the plan's order, at every apply, "
        + 'and ignore its helm.sh/hook-delete-policy "hook-succeeded". ' + FIX_HELM,
    ]);
  });

  test('with GitOps.argoCd(): accepted, Argo CD running the hooks it knows in their phases (no dependency crosses a phase)', () => {
    // GIVEN the chart's rendered manifests, with the Argo CD output
    const app = withChartOutput(GitOps.argoCd());

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([]);
  });

  test('an Argo CD hook without GitOps.argoCd(): refused, the fix naming GitOps.argoCd()', () => {
    // GIVEN a ConfigMap annotated as an Argo CD PostSync hook with a delete policy, and no GitOps output
    const app = CapabilityTesting.app();
    new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Report', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'report', annotations: { 'argocd.argoproj.io/hook': 'PostSync', 'argocd.argoproj.io/hook-delete-policy': 'HookSucceeded' } },
    });

    // WHEN synthesized; THEN
    expect(messages(app)).toEqual([
      "CAP010 invalid object: ConfigMap report declared by 'shop/Routing/Report' has the annotation argocd.argoproj.io/hook \"PostSync\", "
        + "but kubectl (cdk-capability apply) runs no hooks: it would apply the object as an ordinary one, in the plan's order, at every apply, "
        + 'and ignore its argocd.argoproj.io/hook-delete-policy "HookSucceeded". '
        + 'Write the output for Argo CD (GitOps.argoCd()), or remove the annotation and order the object with addDependency.',
    ]);
  });
});
