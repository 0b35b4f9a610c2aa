import { NestedStack, Stack } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { Capability } from '../constructs/capability';
import { FieldMap } from '../contract/field';
import { InterfaceContract } from '../contract/interface-contract';
import { errorMessage } from '../private/errors';
import { violation, Violation, ViolationCode } from '../violation';
import { CompositionModel, DeployStack, RuntimeObject } from './composition-model';
import { declarerOf } from './declarer';
import { apiGroup, groupKind, identityOf } from './object-identity';

/**
 * Walks the construct tree once and renders every Kubernetes object.
 *
 * Never throws: an object that fails to render, or a construct whose own
 * validation fails, becomes a `CAP010` violation naming its path.
 */
export function collectModel(root: IConstruct): CompositionModel {
  const constructs = root.node.findAll();
  const capabilities: Capability[] = [];
  const stacks: DeployStack[] = [];
  const charts: Chart[] = [];
  const apiObjects: ApiObject[] = [];
  const contracts: InterfaceContract<FieldMap>[] = [];
  const violations: Violation[] = [];

  for (const c of constructs) {
    if (Capability.isCapability(c)) capabilities.push(c);
    else if (Stack.isStack(c) && !NestedStack.isNestedStack(c)) stacks.push({ stack: c, capability: Capability.tryOf(c) });
    else if (Chart.isChart(c)) charts.push(c);
    else if (ApiObject.isApiObject(c)) apiObjects.push(c);
    else if (InterfaceContract.isInterfaceContract(c)) contracts.push(c);
    violations.push(...validationViolations(c));
  }

  const rendered: Array<{ apiObject: ApiObject; manifest: any }> = [];
  for (const apiObject of apiObjects) {
    try {
      rendered.push({ apiObject, manifest: apiObject.toJson() });
    } catch (e) {
      violations.push(
        violation(
          ViolationCode.INVALID_OBJECT,
          `invalid object: '${apiObject.node.path}' could not be rendered: ${errorMessage(e)}. Fix the object's props.`,
          [apiObject.node.path],
        ),
      );
    }
  }

  const clusterScoped = clusterScopedCustomKinds(rendered.map((r) => r.manifest));
  const objects: RuntimeObject[] = rendered.map(({ apiObject, manifest }) => ({
    apiObject,
    declarer: declarerOf(apiObject),
    chart: apiObject.chart,
    capability: Capability.tryOf(apiObject),
    identity: identityOf(manifest, clusterScoped),
    manifest,
  }));

  return { constructs, capabilities, stacks, charts, objects, contracts, violations };
}

/** Runs a construct's own validations (cdk8s and aws-cdk both register them). */
function validationViolations(c: IConstruct): Violation[] {
  let errors: string[];
  try {
    errors = c.node.validate();
  } catch (e) {
    errors = [errorMessage(e)];
  }
  return errors.map((error) =>
    violation(ViolationCode.INVALID_OBJECT, `invalid object: '${c.node.path}' failed its own validation: ${error}`, [c.node.path]),
  );
}

/** `group/Kind` keys of the cluster-scoped kinds that CRDs in the composition define. */
function clusterScopedCustomKinds(manifests: any[]): Set<string> {
  const keys = new Set<string>();
  for (const m of manifests) {
    if (m?.kind === 'CustomResourceDefinition' && apiGroup(String(m.apiVersion)) === 'apiextensions.k8s.io' && m.spec?.scope === 'Cluster') {
      keys.add(groupKind(String(m.spec.group ?? ''), String(m.spec.names?.kind ?? '')));
    }
  }
  return keys;
}
