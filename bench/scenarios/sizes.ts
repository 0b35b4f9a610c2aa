/**
 * The shapes every scenario builds, shared by our side, the bare side and the
 * floor so all of them build the very same objects.
 */

/** Number of runtime charts in the `charts` scenario. */
export const CHART_COUNT = 10;

/** Number of chained charts in the `chained` scenario. */
export const CHAINED_CHARTS = 3;

/** Resources per tenant stack in the `stacks` scenario. */
export const PARAMETERS_PER_TENANT = 10;

/** Charts (one namespace each) in the `refs` scenario. */
export const REFS_CHARTS = 10;

/** Objects per referring group in the `refs` scenario: a Deployment and the ConfigMap, Secret and ServiceAccount it names. */
export const REFS_GROUP = 4;

/** Contributions per object in the `writers` scenario. */
export const WRITERS_PER_OBJECT = 10;

/** Objects per app in the `small` scenario: a ConfigMap, a ServiceAccount, a cdk8s-plus Deployment and its Service. */
export const SMALL_APP_GROUP = 4;

/** The namespace of the `tenants` and `small` runtime objects. */
export const APP_NAMESPACE = 'tenants';

/** The image every Deployment of the `tenants` and `small` scenarios runs. */
export const IMAGE = 'ghcr.io/example/web:1.4.2';

/** The container port of those Deployments. */
export const PORT = 8080;

/** The props of the `j`th ConfigMap of chart `c`: a distinct name and two data keys. */
export function configMapProps(c: number, j: number) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${c}-${j}`, namespace: 'bench' },
    data: { chart: String(c), index: String(j) },
  };
}

/** The props of the `r`th SSM parameter of tenant `t` (names are distinct across the app). */
export function parameterProps(t: string, r: number) {
  return { parameterName: `/bench/${t}/p${r}`, stringValue: `value-${t}-${r}` };
}
