import * as path from 'path';
import { Chart, Include } from 'cdk8s';
import { Construct } from 'constructs';
import { invalidInput } from '../private/invalid-input';

/** The id of the chart, nested in a routing chart, that holds the CRDs it includes. */
export const CRDS_CHART_ID = 'Crds';

/**
 * Includes the CustomResourceDefinitions of a file the user supplies (this
 * library ships none) in a chart nested in `scope`, with no namespace, so they
 * form their own step of the plan and the composition graph orders them
 * before their custom resources.
 *
 * @param scope the routing chart
 * @param file a local path (relative to the working directory) or URL of a YAML file of CRDs
 * @returns the `Include` holding the CRDs
 * @throws CompositionError `CAP010` when the file holds anything other than CRDs
 */
export function includeCrds(scope: Construct, file: string): Include {
  const chart = (scope.node.tryFindChild(CRDS_CHART_ID) as Chart | undefined) ?? new Chart(scope, CRDS_CHART_ID);
  const base = path.basename(file).replace(/\.ya?ml$/i, '').replace(/[^A-Za-z0-9-]+/g, '-') || 'crds';
  let id = base;
  for (let n = 2; chart.node.tryFindChild(id); n++) id = `${base}-${n}`;
  const include = new Include(chart, id, { url: file });
  const others = include.apiObjects.filter((o) => o.kind !== 'CustomResourceDefinition' || !o.apiVersion.startsWith('apiextensions.k8s.io/'));
  if (others.length > 0) {
    const found = others.slice(0, 3).map((o) => `${o.kind} ${o.name}`).join(', ');
    throw invalidInput(
      `includeCrds '${scope.node.path}': ${JSON.stringify(file)} must hold only CustomResourceDefinitions, but holds ${found}${others.length > 3 ? ' and more' : ''}. Declare other objects with constructs, or include them with cdk8s Include`,
      scope.node.path,
    );
  }
  return include;
}
