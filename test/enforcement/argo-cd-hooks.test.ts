// A hook Argo CD deletes and creates again at each sync, under the release's field-ownership policies: with the
// deployer set to Argo CD's application controller, the policies let Argo CD's own writes of the hook through
// (gitops-engine 5baed5604d2dd970619fc9b91e8d31724662ab3e: the hook applied with the finalizer
// argocd.argoproj.io/hook-finalizer, the finalizer removed by an update once it completed, the hook deleted by its
// delete policy), and still refuse another identity's change.
import { ApiObject } from 'cdk8s';
import { admit, Request } from './admission';
import { STRANGER } from './fixtures';
import { Capability, CapabilityTesting, GitOps, RuntimeRouting } from '../../src';

const ARGO_CD = 'system:serviceaccount:argocd:argocd-application-controller';

/** The release: a PreSync migration Job Argo CD deletes once the sync succeeded, its fields protected. */
function release() {
  const app = CapabilityTesting.app({ gitops: GitOps.argoCd(), enforce: { deployer: ARGO_CD } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Migrate', {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate', namespace: 'shop', annotations: { 'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/hook-delete-policy': 'HookSucceeded' } },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'ghcr.io/example/migrate:1' }] } } },
  });
  return CapabilityTesting.synth(app);
}

const result = release();
const policies = result.runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
const declared = result.runtimeObjects.find((o) => o.kind === 'Job');

/** The Job as gitops-engine applies it: the Argo CD copy (its sync wave) with the hook finalizer added (`getSyncTasks`). */
function applied(): any {
  const job = structuredClone(declared);
  job.metadata.annotations['argocd.argoproj.io/sync-wave'] = '0';
  job.metadata.finalizers = ['argocd.argoproj.io/hook-finalizer'];
  return job;
}

const request = (operation: Request['operation'], username: string, object?: any, oldObject?: any): Request => ({
  operation,
  username,
  group: 'batch',
  resource: 'jobs',
  kind: 'Job',
  namespace: 'shop',
  name: 'migrate',
  ...(object ? { object } : {}),
  ...(oldObject ? { oldObject } : {}),
});

test('the release is accepted and protects the hook Job with one policy and its binding', () => {
  expect(result.violations).toEqual([]);
  expect(policies.map((p) => `${p.kind} ${p.metadata.name}`)).toEqual([
    'ValidatingAdmissionPolicy shop.field-owners.jobs.batch',
    'ValidatingAdmissionPolicyBinding shop.field-owners.jobs.batch',
  ]);
});

describe("Argo CD's writes of the hook at each sync are allowed", () => {
  test('its creation again, after the last sync deleted it', () => {
    expect(admit(policies, request('CREATE', ARGO_CD, applied())).allowed).toBe(true);
  });

  test('the update that removes the hook finalizer once the hook completed', () => {
    const done = applied();
    done.metadata.finalizers = [];
    expect(admit(policies, request('UPDATE', ARGO_CD, done, applied())).allowed).toBe(true);
  });

  test('its deletion by its delete policy', () => {
    expect(admit(policies, request('DELETE', ARGO_CD, undefined, applied())).allowed).toBe(true);
  });
});

test('another identity creating the hook with another image is still denied', () => {
  const other = applied();
  other.spec.template.spec.containers[0].image = 'ghcr.io/example/migrate:evil';
  const decision = admit(policies, request('CREATE', STRANGER, other));
  expect(decision.allowed).toBe(false);
  expect(decision.message).toBe(
    "ValidatingAdmissionPolicy 'shop.field-owners.jobs.batch' with binding 'shop.field-owners.jobs.batch' denied request: metadata.annotations[\"argocd.argoproj.io/hook\"], metadata.annotations[\"argocd.argoproj.io/hook-delete-policy\"], "
    + 'spec.template.spec.containers[name=main].image, spec.template.spec.restartPolicy of batch/Job shop/migrate belong to the deployer (system:serviceaccount:argocd:argocd-application-controller): only that identity may change them, not system:serviceaccount:tools:fixer',
  );
});
