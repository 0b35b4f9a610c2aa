// Validates emitted manifests against published schemas (kubernetes-models and its
// third-party packages), so tests check our output against something we did not write.
import { ClusterSecretStore, ExternalSecret } from '@kubernetes-models/external-secrets/external-secrets.io/v1beta1';
import { Kustomization } from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1';
import { Gateway, HTTPRoute } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1';
import { ReferenceGrant } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1beta1';
import { VirtualService } from '@kubernetes-models/istio/networking.istio.io/v1beta1';
import { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from 'kubernetes-models/admissionregistration.k8s.io/v1';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';

type Model = new (data: any) => { validate(): void };

/** The model that validates each `apiVersion kind`. */
const MODELS: Record<string, Model> = {
  'v1 Namespace': Namespace,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 ServiceAccount': ServiceAccount,
  'apps/v1 Deployment': Deployment,
  'apiextensions.k8s.io/v1 CustomResourceDefinition': CustomResourceDefinition,
  'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy': ValidatingAdmissionPolicy,
  'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding': ValidatingAdmissionPolicyBinding,
  'gateway.networking.k8s.io/v1 HTTPRoute': HTTPRoute,
  'gateway.networking.k8s.io/v1 Gateway': Gateway,
  'gateway.networking.k8s.io/v1beta1 ReferenceGrant': ReferenceGrant,
  'kustomize.toolkit.fluxcd.io/v1 Kustomization': Kustomization,
};

/**
 * Versions that no Node-20-compatible release of the model packages carries
 * (those releases stop one version earlier), validated against that earlier
 * version. Checked against the CRDs we import from: Istio's VirtualService `v1`
 * schema is byte-identical to `v1beta1`; External Secrets' `v1` only adds
 * fields and enum values to `v1beta1`, so what `v1beta1` accepts `v1` accepts
 * (the check is weaker there: a field only `v1` has is not type-checked).
 */
const SAME_SCHEMA_AS: Record<string, [string, Model]> = {
  'networking.istio.io/v1 VirtualService': ['networking.istio.io/v1beta1', VirtualService],
  'external-secrets.io/v1 ExternalSecret': ['external-secrets.io/v1beta1', ExternalSecret],
  'external-secrets.io/v1 ClusterSecretStore': ['external-secrets.io/v1beta1', ClusterSecretStore],
};

/**
 * Validates one manifest against its published schema.
 *
 * @throws when the manifest is invalid, or when no schema is known for its kind
 *   (so a new kind cannot slip through unvalidated)
 */
export function validateManifest(manifest: any): void {
  const key = `${manifest?.apiVersion} ${manifest?.kind}`;
  const model = MODELS[key];
  if (model) {
    new model(manifest).validate();
    return;
  }
  const same = SAME_SCHEMA_AS[key];
  if (same) {
    new same[1]({ ...manifest, apiVersion: same[0] }).validate();
    return;
  }
  throw new Error(`no published schema known for ${key} (${manifest?.metadata?.name}): add its model to test/k8s-schemas.ts`);
}

/** Validates every manifest; returns the problems as `kind name: message` lines (empty when all are valid). */
export function schemaProblems(manifests: readonly any[]): string[] {
  const problems: string[] = [];
  for (const m of manifests) {
    try {
      validateManifest(m);
    } catch (e) {
      problems.push(`${m?.kind} ${m?.metadata?.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return problems;
}
