/**
 * The shapes every scenario builds, shared by our side and the bare side so
 * both build the very same objects.
 */

/** Number of runtime charts in the `charts` scenario. */
export const CHART_COUNT = 10;

/** Number of chained charts in the `chained` scenario. */
export const CHAINED_CHARTS = 3;

/** Resources per tenant stack in the `tenants` scenario. */
export const PARAMETERS_PER_TENANT = 10;

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
