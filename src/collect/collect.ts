import * as path from 'path';
import type { Stack } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { clusterScopedKinds } from './cluster-scoped-kinds';
import type * as Contracts from './contracts';
import { declarerOf } from './declarer';
import { DeploySynthesis, noDeployment } from './deploy-result';
import type * as DeploySynthesisModule from './deploy-synthesis';
import type * as DeployTimeValues from './deploy-time-values';
import { droppedPatchValues } from './dropped-patch-values';
import type { ContradictionFact, ContributionFact, DroppedPatchValue, Facts, IncludedFile, ObjectFact, StackFact, StackRole, ValidationAuthor } from './facts';
import { buildCompositionGraph } from './graph/composition-graph';
import { exportImportDependencies } from './graph/export-imports';
import type * as CloudFormationWrites from './ledger/cloudformation-writes';
import { contradictionFacts } from './ledger/contradictions';
import { LedgerBuilder } from './ledger/field-ledger';
import type * as PhysicalNames from './ledger/physical-names';
import { ObjectDraft, recordRuntimeWrites } from './ledger/runtime-writes';
import type * as WriteCallbacks from './ledger/write-callbacks';
import { contributionWriter } from './ledger/writer';
import { LogicalIds } from './logical-ids';
import { appliedKey, describeIdentity, identityKey, identityOf, ObjectIdentity } from './object-identity';
import { collectExternalPods, collectExternals, collectReferences } from './references';
import { renderFailure } from './render-error';
import { withLaziesResolved } from './resolved-lazies';
import { collectRuntimeWriters, runtimeWritesByObject } from './runtime-writers';
import { templateValidationEnabled } from './template-validation-switch';
import { CrdTopologies } from './topology/crd-topology';
import type { Capability } from '../constructs/capability';
import { Contribution, contributionProblems, writeCallbackOf } from '../constructs/contribution';
import { Reference } from '../constructs/reference';
import { RuntimeCapability } from '../constructs/runtime-capability';
import type { FieldMap } from '../contract/field';
import type { InterfaceContract } from '../contract/interface-contract';
import { appendAll } from '../private/append';
import { awsCdkInUse, isCfnResource, isNestedStack, isStack, isStage, isUnresolvedToken } from '../private/aws-cdk';
import { hasBrand } from '../private/brand';
import { errorMessage } from '../private/errors';
import { inConstruct } from '../private/guard';
import { anyIncludedFile, includedFileOf } from '../private/included-files';
import { lazily } from '../private/lazy';
import { nonJsonPropertiesProblem } from '../private/non-json-values';
import { isOwnValidation } from '../private/own-validation';
import { hasJsonPatches, plainRenderer, validationsOf } from '../private/upstream-state';

/* eslint-disable @typescript-eslint/no-require-imports -- deliberately lazy: what a composition does not use it does not load (issue 23) */
/** The deploy side (aws-cdk-lib with it): loaded only for a composition that uses aws-cdk. */
const deploySide = lazily(() => ({
  ...(require('./deploy-synthesis') as typeof DeploySynthesisModule),
  ...(require('./deploy-time-values') as typeof DeployTimeValues),
  ...(require('./ledger/cloudformation-writes') as typeof CloudFormationWrites),
  ...(require('./ledger/physical-names') as typeof PhysicalNames),
}));
/** Interface contracts' facts: loaded only for a composition that declares one. */
const contractSide = lazily(() => require('./contracts') as typeof Contracts);
/** Write callbacks: loaded only for a composition with a Contribution that has one. */
const writeCallbacks = lazily(() => require('./ledger/write-callbacks') as typeof WriteCallbacks);
/* eslint-enable @typescript-eslint/no-require-imports */

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
 * @param walked `root.node.findAll()`, when the caller has just walked the tree (synth, to tell a short synth):
 *   not walked again
 */
export function collect(root: IConstruct, walked?: readonly IConstruct[]): Facts {
  const all = walked ?? root.node.findAll();
  const withCallbacks = all.filter((c): c is Contribution => Contribution.isContribution(c) && writeCallbackOf(c) !== undefined);
  const callbacks = withCallbacks.length > 0
    ? writeCallbacks().runWriteCallbacks(withCallbacks, all)
    : { ranNow: false, runs: [], problems: [], grants: [] };
  const constructs = callbacks.ranNow ? root.node.findAll() : all; // a callback may have made constructs
  const capabilities: RuntimeCapability[] = [];
  const stacks: Array<{ stack: Stack; capability?: RuntimeCapability }> = [];
  const charts: Chart[] = [];
  const apiObjects: ApiObject[] = [];
  const contracts: InterfaceContract<FieldMap>[] = [];
  // the Reference constructs, for the three collectors of what they declare: one pass over the tree, not three
  const declaredReferences: Reference[] = [];
  const validationErrors: Array<{ path: string; error: string; by?: ValidationAuthor }> = [];

  // indexed loops over the constructs, not `for...of`: V8 optimizes `collect` in a synth's one run, and each iterator
  // protocol's implicit try/finally made that compile cost more than the loops
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    if (RuntimeCapability.isCapability(c)) capabilities.push(c);
    else if (isStack(c) && !isNestedStack(c)) stacks.push({ stack: c, capability: RuntimeCapability.tryOf(c) });
    else if (Chart.isChart(c)) charts.push(c);
    else if (ApiObject.isApiObject(c)) apiObjects.push(c);
    else if (hasBrand(c, 'InterfaceContract')) contracts.push(c as InterfaceContract<FieldMap>);
    else if (Reference.isReference(c)) declaredReferences.push(c);
    const errors = validationErrorsOf(c);
    for (let k = 0; k < errors.length; k++) validationErrors.push({ path: c.node.path, ...errors[k] });
    if (isCfnResource(c)) {
      // aws-cdk renders a raw resource's BigInt as {} without a word
      const error = nonJsonPropertiesProblem(c);
      if (error) validationErrors.push({ path: c.node.path, error });
    }
  }

  const { drafts, renderErrors, clusterScoped, declaredKinds, scopeProblems, dropped } = renderObjects(apiObjects, constructs);
  appendAll(validationErrors, scopeProblems);
  const indexOf = new Map(drafts.map((d, i) => [d.apiObject, i]));
  const ledger = new LedgerBuilder();
  const contributions = collectContributions(constructs, indexOf);
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    if (Contribution.isContribution(c) && c.force) ledger.force(contributionWriter(c.node.path));
  }
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

  const withAwsCdk = awsCdkInUse(constructs);
  const deploy = withAwsCdk ? collectDeployment(root, constructs, capabilities, stacks, ledger, callbacks) : noDeployment();
  // each resource's logical id resolved once, for its physical name and its declarer
  const logicalIds = new LogicalIds();
  const physicalNames = withAwsCdk ? deploySide().collectPhysicalNames(constructs, deploy.templates, logicalIds) : [];

  // a duplicate's declarations too: two instances of one construct below two capabilities generate one name
  const duplicated = new Set(drafts.flatMap((d) => (d.duplicateOf === undefined ? [] : [d.duplicateOf])));
  const objects: ObjectFact[] = drafts.map((d, i) => ({
    path: d.apiObject.node.path,
    declarer: d.declarer,
    chart: d.apiObject.chart.node.path,
    capability: RuntimeCapability.tryOf(d.apiObject)?.node.path,
    ...((!acceptedByEveryKind(d.manifest?.metadata?.name) || d.duplicateOf !== undefined || duplicated.has(i)) && generatedName(d.apiObject)
      ? { nameFrom: d.apiObject.node.path }
      : {}),
    identity: d.identity,
    key: d.key,
    manifest: d.manifest,
    ...(d.duplicateOf !== undefined ? { duplicateOf: d.duplicateOf } : {}),
  }));
  const { references, problems: referenceProblems } = collectReferences(objects, declaredReferences, indexOf, clusterScoped);
  appendAll(validationErrors, referenceProblems);
  const contractFacts = contracts.length > 0
    ? contractSide().collectContracts(contracts, objects, references, contractSide().routingsOf(charts), indexOf, constructs)
    : [];

  const graph = buildCompositionGraph({
    constructs,
    stacks: stacks.map((s) => ({ stack: s.stack, capability: s.capability?.node.path })),
    objects: drafts.map((d, i) => ({ apiObject: d.apiObject, fact: objects[i] })),
    stackDependencies: withAwsCdk
      ? [...deploy.stackDependencies, ...exportImportDependencies(stacks.map((s) => s.stack), deploy.templates, deploy.stackDependencies)]
      : deploy.stackDependencies,
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
      ...(isUnresolvedToken(stack.region) ? {} : { region: stack.region }),
      ...(isUnresolvedToken(stack.account) ? {} : { pinnedAccount: stack.account }),
    })),
    charts: charts.map((c) => ({ path: c.node.path, capability: RuntimeCapability.tryOf(c)?.node.path })),
    objects,
    ledger: ledger.facts(),
    contributions: contributionFacts,
    runtimeWriters,
    contradictions,
    physicalNames,
    references,
    externals: collectExternals(declaredReferences, clusterScoped),
    externalPods: collectExternalPods(declaredReferences),
    declaredKinds,
    // No aws-cdk-lib loaded and no aws-cdk construct: no aws-cdk token can exist.
    deployTimeValues: withAwsCdk ? deploySide().collectDeployTimeValues(root, objects, contributionFacts) : [],
    artifactDeployTimeValues: withAwsCdk ? deploySide().collectArtifactDeployTimeValues(root, capabilityFacts, contractFacts) : [],
    contracts: contractFacts,
    graph: graph.graph,
    problems: {
      validationErrors,
      renderErrors,
      synthesisErrors: deploy.synthesisErrors,
      wiringErrors: deploy.wiringErrors,
      stackCycles: deploy.stackCycles,
      selfDependencies: graph.selfDependencies,
      contributionErrors: [...contributionErrorsOf(constructs), ...callbacks.problems],
      ...(deploy.templateFindings ? { templateFindings: deploy.templateFindings } : {}),
      ...(dropped.length > 0 ? { droppedPatchValues: dropped } : {}),
      ...(deploy.annotations.length > 0 ? { annotations: deploy.annotations } : {}),
    },
    assembly: { dirs: deploy.assemblyDirs },
    resourceDeclarers: withAwsCdk ? resourceDeclarersOf(constructs, logicalIds) : {},
    ...(anyIncludedFile() ? { includedFrom: includedFilesOf(constructs) } : {}),
  };
}

/**
 * The deploy side: synthesizes the cloud assemblies of the capabilities that
 * take stacks and records every CloudFormation write in the ledger.
 */
function collectDeployment(
  root: IConstruct,
  constructs: readonly IConstruct[],
  capabilities: readonly RuntimeCapability[],
  stacks: ReadonlyArray<{ stack: Stack; capability?: RuntimeCapability }>,
  ledger: LedgerBuilder,
  callbacks: Pick<ReturnType<typeof WriteCallbacks.runWriteCallbacks>, 'runs' | 'grants'>,
): DeploySynthesis {
  const side = deploySide();
  const tags = side.declaredTags(constructs);
  // The app's prop `builtinCloudFormationValidation`, read structurally: collect sits below the app layer.
  const validation = templateValidationEnabled((root as { builtinCloudFormationValidation?: boolean }).builtinCloudFormationValidation);
  // Only a capability that takes stacks (an aws-cdk Stage) has an assembly; a stack under a runtime-only one has none.
  const staged = capabilities.filter((c): c is Capability => isStage(c));
  const stageOf = (c: RuntimeCapability | undefined) => (c && isStage(c) ? (c as Capability) : undefined);
  const inStages = stacks.map((s) => ({ stack: s.stack, capability: stageOf(s.capability) }));
  const deploy = side.synthesizeDeployment(staged, inStages, validation);
  side.recordCloudFormationWrites(constructs, ledger, callbacks.runs, tags, callbacks.grants);
  return deploy;
}

/**
 * A construct's own validations (cdk8s and aws-cdk both register them, and so do the program and this package); a
 * validation that throws is one error. Each error of a validation that is not this package's own (`ownValidation`)
 * says whose it is (`validationAuthor`).
 */
function validationErrorsOf(c: IConstruct): Array<{ error: string; by?: ValidationAuthor }> {
  const validations = validationsOf(c);
  if (validations === undefined) return runValidation(c.node).map((error) => ({ error }));
  if (validations.length === 0) return [];
  const found: Array<{ error: string; by?: ValidationAuthor }> = [];
  for (const v of validations) {
    const errors = runValidation(v);
    if (errors.length === 0) continue;
    const by = isOwnValidation(v) ? undefined : validationAuthor(c);
    for (const error of errors) found.push(by ? { error, by } : { error });
  }
  return found;
}

/** A validation's errors; one that throws is one error, its message. */
function runValidation(v: { validate(): string[] }): string[] {
  try {
    return v.validate();
  } catch (e) {
    return [errorMessage(e)];
  }
}

/** Every jsii library's classes carry their name under this symbol (aws-cdk-lib, cdk8s, cdk8s-plus, constructs). */
const JSII_RTTI = Symbol.for('jsii.rtti');

/**
 * Whose a validation of `c` that is not this package's is: the program's when no class of a jsii construct
 * library stands between `c`'s class and `Construct` (a plain `Construct`, or a class of the program's); else that
 * library's class, by its jsii name.
 */
function validationAuthor(c: IConstruct): ValidationAuthor {
  for (let ctor: unknown = c.constructor; typeof ctor === 'function' && ctor !== Object; ctor = Object.getPrototypeOf(ctor)) {
    const fqn = (Object.getOwnPropertyDescriptor(ctor, JSII_RTTI)?.value as { fqn?: unknown } | undefined)?.fqn;
    if (typeof fqn === 'string') return fqn === 'constructs.Construct' ? { kind: 'program' } : { kind: 'library', fqn };
  }
  return { kind: 'program' };
}

/** An object being collected, with its identity. */
type Draft = ObjectDraft & { readonly identity: ObjectIdentity };

/** What went wrong, by construct path. */
type PathErrors = Array<{ path: string; error: string }>;

/**
 * Renders every object; the first declaration of each identity, as the API
 * server stores it (`appliedKey`), owns it, a later one is marked its duplicate.
 *
 * @param constructs every construct, for the kinds declared cluster-scoped with `Reference.clusterScoped`
 */
function renderObjects(
  apiObjects: readonly ApiObject[],
  constructs: readonly IConstruct[],
): {
    drafts: Draft[];
    renderErrors: PathErrors;
    clusterScoped: ReadonlySet<string>;
    declaredKinds: readonly string[];
    scopeProblems: Readonly<PathErrors>;
    dropped: DroppedPatchValue[];
  } {
  const renderErrors: PathErrors = [];
  const dropped: DroppedPatchValue[] = [];
  const rendered: Array<{ apiObject: ApiObject; manifest: any }> = [];
  // cdk8s' render of plain data made in one walk, the same as its own (`plainRenderOf`); else cdk8s renders it
  const plainRender = plainRenderer();
  for (const apiObject of apiObjects) {
    try {
      const manifest = plainRender(apiObject) ?? apiObject.toJson();
      rendered.push({ apiObject, manifest });
      // only an object with patches: a generated class serializes after them, and may lose what they write
      if (hasJsonPatches(apiObject)) appendAll(dropped, droppedPatchValues(apiObject, manifest));
    } catch (e) {
      renderErrors.push({ path: apiObject.node.path, error: renderFailure(apiObject, e) });
    }
  }
  const { keys: clusterScoped, problems: scopeProblems, declared: declaredKinds } = clusterScopedKinds(rendered.map((r) => r.manifest), constructs);
  const first = new Map<string, number>();
  const drafts = rendered.map(({ apiObject, manifest }, i): Draft => {
    const identity = identityOf(manifest, clusterScoped);
    const key = identityKey(identity);
    const applied = appliedKey(identity);
    const duplicateOf = first.get(applied);
    if (duplicateOf === undefined) first.set(applied, i);
    return { apiObject, declarer: declarerOf(apiObject).node.path, key, label: describeIdentity(identity), identity, manifest, duplicateOf };
  });
  return { drafts, renderErrors, clusterScoped, declaredKinds, scopeProblems, dropped };
}

/** The contributions to Kubernetes objects, in creation order. */
function collectContributions(constructs: readonly IConstruct[], indexOf: ReadonlyMap<ApiObject, number>): ContributionFact[] {
  const found: ContributionFact[] = [];
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    if (!Contribution.isContribution(c) || !c.apiObject || contributionProblems(c).length > 0) continue;
    const target = indexOf.get(c.apiObject);
    // a cdk8s Lazy in the fields is produced at synth, as in a declaration's own props
    if (target !== undefined) found.push({ writer: c.node.path, target, fields: withLaziesResolved(c.fields) });
  }
  return found;
}

/** What is wrong with each Contribution's props, one entry per problem. */
function contributionErrorsOf(constructs: readonly IConstruct[]): Array<{ path: string; error: string }> {
  const found: Array<{ path: string; error: string }> = [];
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    if (Contribution.isContribution(c)) for (const error of contributionProblems(c)) found.push({ path: c.node.path, error });
  }
  return found;
}

/** The items by key, each list in the order given; items whose key is undefined are left out. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const k = key(item);
    if (k === undefined) continue;
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function roleOf(stack: Stack): StackRole {
  if (hasBrand(stack, 'SharedBase')) return 'base';
  return hasBrand(stack, 'DeploymentAggregate') ? 'tenant' : 'other';
}

/**
 * The declarer's path of each object or resource an `Include` or `CfnInclude` read, to the file it read it from:
 * as the program gave it, an absolute path relative to the working directory (a message is the same in every
 * checkout).
 */
function includedFilesOf(constructs: readonly IConstruct[]): Record<string, IncludedFile> {
  const found: Record<string, IncludedFile> = {};
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    const given = includedFileOf(c);
    if (given === undefined) continue;
    const file = path.isAbsolute(given) ? path.relative(process.cwd(), given) : given;
    if (isCfnResource(c)) found[declarerOf(c).node.path] = { file, by: 'CfnInclude' };
    else found[c.node.path] = { file, by: 'Include' };
  }
  return found;
}

/** `<stack path>\0<logical id>` to the path of the construct that declares each CloudFormation resource. */
function resourceDeclarersOf(constructs: readonly IConstruct[], logicalIds: LogicalIds): Record<string, string> {
  const paths: Record<string, string> = {};
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    if (!isCfnResource(c)) continue;
    try {
      const { stack, logicalId } = logicalIds.of(c);
      paths[`${stack.node.path}\u0000${logicalId}`] = declarerOf(c).node.path;
    } catch {
      // a resource outside a stack names no template; nothing to map
    }
  }
  return paths;
}

/**
 * A name every kind accepts, whatever its naming rule (`object-validity`): a
 * DNS-1035 label (a Service's) of at most 52 characters (a CronJob's limit).
 */
const NAME_EVERY_KIND_ACCEPTS = /^[a-z]([-a-z0-9]{0,50}[a-z0-9])?$/;

/**
 * True when `name` is one no naming rule refuses: no message explains it, so
 * whether cdk8s generated it (`nameFrom`, asked of its chart, about a tenth of
 * a large synth) is not asked.
 */
function acceptedByEveryKind(name: unknown): boolean {
  return typeof name === 'string' && NAME_EVERY_KIND_ACCEPTS.test(name);
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
