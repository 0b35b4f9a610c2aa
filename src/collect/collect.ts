import { CfnResource, NestedStack, Stack } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { collectContracts, routingsOf } from './contracts';
import { declarerOf } from './declarer';
import { synthesizeDeployment, templateValidationEnabled } from './deploy-synthesis';
import { collectArtifactDeployTimeValues, collectDeployTimeValues } from './deploy-time-values';
import type { ContradictionFact, ContributionFact, Facts, ObjectFact, StackFact, StackRole } from './facts';
import { buildCompositionGraph } from './graph/composition-graph';
import { declaredTags, recordCloudFormationWrites } from './ledger/cloudformation-writes';
import { contradictionFacts } from './ledger/contradictions';
import { LedgerBuilder } from './ledger/field-ledger';
import { collectPhysicalNames } from './ledger/physical-names';
import { ObjectDraft, recordRuntimeWrites } from './ledger/runtime-writes';
import { runWriteCallbacks } from './ledger/write-callbacks';
import { contributionWriter } from './ledger/writer';
import { apiGroup, appliedKey, describeIdentity, groupKind, identityKey, identityOf, ObjectIdentity } from './object-identity';
import { collectExternals, collectReferences } from './references';
import { collectRuntimeWriters, runtimeWritesByObject } from './runtime-writers';
import { CrdTopologies } from './topology/crd-topology';
import { Capability } from '../constructs/capability';
import { Contribution, contributionProblems } from '../constructs/contribution';
import { DeploymentAggregate } from '../constructs/deployment-aggregate';
import { Reference } from '../constructs/reference';
import { SharedBase } from '../constructs/shared-base';
import type { FieldMap } from '../contract/field';
import { InterfaceContract } from '../contract/interface-contract';
import { appendAll } from '../private/append';
import { errorMessage } from '../private/errors';
import { inConstruct } from '../private/guard';

/**
 * The collect stage: walks the construct tree once and returns its facts.
 *
 * The only stage that touches the construct tree or aws-cdk: it renders every
 * Kubernetes object, merges contributions, synthesizes the cloud assemblies,
 * fills the field ledger, resolves references and builds the dependency graph.
 * It judges nothing: what goes wrong on the way (an object that fails to
 * render, a failed validation) is recorded in `Facts.problems` for the rules.
 *
 * @param root the app (or any root construct)
 */
export function collect(root: IConstruct): Facts {
  const all = root.node.findAll();
  const callbacks = runWriteCallbacks(all.filter(Contribution.isContribution));
  const constructs = callbacks.ranNow ? root.node.findAll() : all; // a callback may have made constructs
  const capabilities: Capability[] = [];
  const stacks: Array<{ stack: Stack; capability?: Capability }> = [];
  const charts: Chart[] = [];
  const apiObjects: ApiObject[] = [];
  const contracts: InterfaceContract<FieldMap>[] = [];
  const validationErrors: Array<{ path: string; error: string }> = [];

  for (const c of constructs) {
    if (Capability.isCapability(c)) capabilities.push(c);
    else if (Stack.isStack(c) && !NestedStack.isNestedStack(c)) stacks.push({ stack: c, capability: Capability.tryOf(c) });
    else if (Chart.isChart(c)) charts.push(c);
    else if (ApiObject.isApiObject(c)) apiObjects.push(c);
    else if (InterfaceContract.isInterfaceContract(c)) contracts.push(c);
    for (const error of validationErrorsOf(c)) validationErrors.push({ path: c.node.path, error });
  }

  const { drafts, renderErrors, clusterScoped } = renderObjects(apiObjects, declaredClusterScoped(constructs));
  const indexOf = new Map(drafts.map((d, i) => [d.apiObject, i]));
  const ledger = new LedgerBuilder();
  const contributions = collectContributions(constructs, indexOf);
  for (const c of constructs) if (Contribution.isContribution(c) && c.force) ledger.force(contributionWriter(c.node.path));
  const byTarget = groupBy(contributions, (c) => c.target);
  const callbacksByTarget = groupBy(callbacks.runs, (r) => (ApiObject.isApiObject(r.target) ? indexOf.get(r.target) : undefined));
  const crds = CrdTopologies.fromManifests(drafts.map((d) => d.manifest));
  const runtimeWriters = collectRuntimeWriters(constructs, indexOf, drafts.map((d) => d.manifest), crds);
  const runtimeWrites = runtimeWritesByObject(runtimeWriters, drafts);
  const contradictions: ContradictionFact[] = [];
  drafts.forEach((d, i) => {
    if (d.duplicateOf !== undefined) return;
    inConstruct(d.apiObject, () => {
      recordRuntimeWrites(d, byTarget.get(i) ?? [], ledger, crds, callbacksByTarget.get(i), runtimeWrites.get(i));
      appendAll(contradictions, contradictionFacts(d, ledger, crds));
    });
  });

  const tags = declaredTags(constructs);
  // The app's prop `builtinCloudFormationValidation`, read structurally: collect sits below the app layer.
  const validation = templateValidationEnabled((root as { builtinCloudFormationValidation?: boolean }).builtinCloudFormationValidation);
  const deploy = synthesizeDeployment(capabilities, stacks, validation);
  recordCloudFormationWrites(constructs, ledger, callbacks.runs, tags);
  const physicalNames = collectPhysicalNames(constructs, deploy.templates);

  const objects: ObjectFact[] = drafts.map((d) => ({
    path: d.apiObject.node.path,
    declarer: d.declarer,
    chart: d.apiObject.chart.node.path,
    capability: Capability.tryOf(d.apiObject)?.node.path,
    ...(generatedName(d.apiObject) ? { nameFrom: d.apiObject.node.path } : {}),
    identity: d.identity,
    key: d.key,
    manifest: d.manifest,
    ...(d.duplicateOf !== undefined ? { duplicateOf: d.duplicateOf } : {}),
  }));
  const references = collectReferences(objects, constructs, indexOf, clusterScoped);
  const contractFacts = collectContracts(contracts, objects, references, routingsOf(charts), indexOf, constructs);

  const graph = buildCompositionGraph({
    constructs,
    stacks: stacks.map((s) => ({ stack: s.stack, capability: s.capability?.node.path })),
    objects: drafts.map((d, i) => ({ apiObject: d.apiObject, fact: objects[i] })),
    stackDependencies: deploy.stackDependencies,
    contracts: contracts.map((c) => ({
      path: c.node.path,
      publishers: c.publications.map((p) => p.stack),
      consumers: c.consumptions.map((x) => x.chart.node.path),
    })),
    references,
  });

  const capabilityFacts = capabilities.map((c) => ({
    path: c.node.path,
    id: c.node.id,
    ...(c.description !== undefined ? { description: c.description } : {}),
  }));
  const contributionFacts = contributions.map(({ writer, target, fields }) => ({ writer, target, fields }));

  return {
    capabilities: capabilityFacts,
    stacks: stacks.map(({ stack, capability }): StackFact => ({
      path: stack.node.path,
      capability: capability?.node.path,
      role: roleOf(stack),
      stackName: stack.stackName,
      templateFile: deploy.templateFiles.get(stack),
      template: deploy.templates.get(stack),
      account: String(stack.account),
      environment: String(stack.environment),
    })),
    charts: charts.map((c) => ({ path: c.node.path, capability: Capability.tryOf(c)?.node.path })),
    objects,
    ledger: ledger.facts(),
    contributions: contributionFacts,
    runtimeWriters,
    contradictions,
    physicalNames,
    references,
    externals: collectExternals(constructs, clusterScoped),
    deployTimeValues: collectDeployTimeValues(root, objects, contributionFacts),
    artifactDeployTimeValues: collectArtifactDeployTimeValues(root, capabilityFacts, contractFacts),
    contracts: contractFacts,
    graph: graph.graph,
    problems: {
      validationErrors,
      renderErrors,
      synthesisErrors: deploy.synthesisErrors,
      wiringErrors: deploy.wiringErrors,
      selfDependencies: graph.selfDependencies,
      contributionErrors: [...contributionErrorsOf(constructs), ...callbacks.problems],
      ...(deploy.templateFindings ? { templateFindings: deploy.templateFindings } : {}),
    },
    assembly: { dirs: deploy.assemblyDirs },
    resourceDeclarers: resourceDeclarersOf(constructs),
  };
}

/** A construct's own validations (cdk8s and aws-cdk both register them); a validation that throws is one error. */
function validationErrorsOf(c: IConstruct): string[] {
  try {
    return c.node.validate();
  } catch (e) {
    return [errorMessage(e)];
  }
}

/** An object being collected, with its identity. */
type Draft = ObjectDraft & { readonly identity: ObjectIdentity };

/**
 * Renders every object; the first declaration of each identity, as the API
 * server stores it (`appliedKey`), owns it, a later one is marked its duplicate.
 *
 * @param declared group/kind keys declared cluster-scoped with `Reference.clusterScoped`
 */
function renderObjects(
  apiObjects: readonly ApiObject[],
  declared: ReadonlySet<string>,
): { drafts: Draft[]; renderErrors: Array<{ path: string; error: string }>; clusterScoped: ReadonlySet<string> } {
  const renderErrors: Array<{ path: string; error: string }> = [];
  const rendered: Array<{ apiObject: ApiObject; manifest: any }> = [];
  for (const apiObject of apiObjects) {
    try {
      rendered.push({ apiObject, manifest: apiObject.toJson() });
    } catch (e) {
      renderErrors.push({ path: apiObject.node.path, error: errorMessage(e) });
    }
  }
  const clusterScoped = new Set([...clusterScopedCustomKinds(rendered.map((r) => r.manifest)), ...declared]);
  const first = new Map<string, number>();
  const drafts = rendered.map(({ apiObject, manifest }, i): Draft => {
    const identity = identityOf(manifest, clusterScoped);
    const key = identityKey(identity);
    const applied = appliedKey(identity);
    const duplicateOf = first.get(applied);
    if (duplicateOf === undefined) first.set(applied, i);
    return { apiObject, declarer: declarerOf(apiObject).node.path, key, label: describeIdentity(identity), identity, manifest, duplicateOf };
  });
  return { drafts, renderErrors, clusterScoped };
}

/** `group/Kind` keys of the kinds declared cluster-scoped with `Reference.clusterScoped`. */
function declaredClusterScoped(constructs: readonly IConstruct[]): Set<string> {
  const keys = new Set<string>();
  for (const c of constructs) {
    if (Reference.isReference(c) && c.clusterScopedKind) keys.add(groupKind(apiGroup(c.clusterScopedKind.apiVersion), c.clusterScopedKind.kind));
  }
  return keys;
}

/** The contributions to Kubernetes objects, in creation order. */
function collectContributions(constructs: readonly IConstruct[], indexOf: ReadonlyMap<ApiObject, number>): ContributionFact[] {
  const found: ContributionFact[] = [];
  for (const c of constructs) {
    if (!Contribution.isContribution(c) || !c.apiObject || contributionProblems(c).length > 0) continue;
    const target = indexOf.get(c.apiObject);
    if (target !== undefined) found.push({ writer: c.node.path, target, fields: c.fields });
  }
  return found;
}

/** What is wrong with each Contribution's props, one entry per problem. */
function contributionErrorsOf(constructs: readonly IConstruct[]): Array<{ path: string; error: string }> {
  const found: Array<{ path: string; error: string }> = [];
  for (const c of constructs) {
    if (Contribution.isContribution(c)) for (const error of contributionProblems(c)) found.push({ path: c.node.path, error });
  }
  return found;
}

/** The items by key, each list in the order given; items whose key is undefined are left out. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** `group/Kind` keys of the cluster-scoped kinds that CRDs in the composition define. */
function clusterScopedCustomKinds(manifests: readonly any[]): Set<string> {
  const keys = new Set<string>();
  for (const m of manifests) {
    if (m?.kind === 'CustomResourceDefinition' && apiGroup(String(m.apiVersion)) === 'apiextensions.k8s.io' && m.spec?.scope === 'Cluster') {
      keys.add(groupKind(String(m.spec.group ?? ''), String(m.spec.names?.kind ?? '')));
    }
  }
  return keys;
}

function roleOf(stack: Stack): StackRole {
  if (SharedBase.isSharedBase(stack)) return 'base';
  return DeploymentAggregate.isDeploymentAggregate(stack) ? 'tenant' : 'other';
}

/** `<stack path>\0<logical id>` to the path of the construct that declares each CloudFormation resource. */
function resourceDeclarersOf(constructs: readonly IConstruct[]): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const c of constructs) {
    if (!CfnResource.isCfnResource(c)) continue;
    try {
      const stack = Stack.of(c);
      paths[`${stack.node.path}\u0000${stack.resolve(c.logicalId)}`] = declarerOf(c).node.path;
    } catch {
      // a resource outside a stack names no template; nothing to map
    }
  }
  return paths;
}

/**
 * True when cdk8s generated the object's name from its construct path (no
 * `metadata.name` was given): the name is what its chart generates for it.
 */
function generatedName(apiObject: ApiObject): boolean {
  try {
    return apiObject.name === apiObject.chart.generateObjectName(apiObject);
  } catch {
    return false;
  }
}
