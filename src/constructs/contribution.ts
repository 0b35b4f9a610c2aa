import type { CfnResource } from 'aws-cdk-lib';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { appendAll } from '../private/append';
import { isCfnResource } from '../private/aws-cdk';
import { brand, hasBrand } from '../private/brand';
import { closestPropertyName, CloudFormationPropertyNames, cloudFormationPropertyNames } from '../private/cloudformation-property-names';
import { refuseUnknownKeys, requireChildId } from '../private/invalid-input';
import { nonJsonIn } from '../private/loose-values';
import { isMap } from '../private/maps';
import { requireCapabilityApp } from '../private/misplaced';
import { keysOf } from '../private/near-miss';
import { declaredPropertiesOf, isJsonPatch, JsonPatchOperation, patchOperation } from '../private/upstream-state';
import { valueText } from '../private/value-text';
import { attributeTo, recordWriteCalls } from '../private/write-calls';

/**
 * Properties of a `Contribution`: the target, and at least one of `fields`,
 * `patches` and `write`.
 *
 * @typeParam T the target's type, which `write` receives
 */
export interface ContributionProps<T extends IConstruct = IConstruct> {
  /**
   * The object to write into: a cdk8s `ApiObject`, a construct that owns one as
   * its default child (a cdk8s-plus construct), or an aws-cdk `CfnResource`
   * (or an L2 construct whose default child is one).
   */
  readonly target: T;

  /**
   * The fields to write, as a partial manifest (Kubernetes: `{ spec: { timers: ... } }`)
   * or partial CloudFormation properties (`{ VersioningConfiguration: { Status: 'Enabled' } }`).
   *
   * Keyed lists merge by key (containers and env by `name`, ...), maps per key.
   * A CloudFormation list is one value: a tags property given here (`{ Tags: [...] }`)
   * is written whole and conflicts (`CAP002`) with every `Tags.of` tag of the
   * resource; add tags by key with `write: (t) => Tags.of(t).add(key, value)`.
   *
   * @default - no fields
   */
  readonly fields?: Record<string, unknown>;

  /**
   * JSON patches (RFC 6902) applied to a Kubernetes target's rendered
   * manifest, in order, as `ApiObject.addJsonPatch` applies them; every leaf
   * they add, replace, move or remove is the contribution's.
   *
   * @default - no patches
   */
  readonly patches?: JsonPatch[];

  /**
   * A callback that writes through the target's own typed API: cdk8s-plus
   * mutators (`t.containers[0].env.addVariable(...)`, `t.metadata.addLabel(...)`,
   * `t.podMetadata.addLabel(...)`, `t.addContainer(...)`), `ApiObject.of(t)`'s
   * `metadata` and `addJsonPatch`, aws-cdk L2 methods, L1 property setters,
   * `Tags.of(t).add(...)`. Every leaf it adds, changes or removes is the
   * contribution's.
   *
   * It runs once, when synth collects the composition, after every
   * construct's own code has run: it sees the target as its declarer left it.
   * Values the target renders lazily (cdk8s-plus renders at synth, `Lazy`
   * values, aspects that run later) stay the declarer's unless the callback
   * changed them.
   *
   * The target is rendered before and after the callback to tell what it
   * wrote, so a callback costs a render of its target: for many writes into
   * one large object, `fields` is the cheaper path.
   *
   * @default - no callback
   */
  readonly write?: (target: T) => void;

  /**
   * Takes the leaves this contribution writes from the writer that owns them
   * (the declarer, or another writer), as server-side apply's `force` does:
   * the output has this contribution's value, and `plan.json` records each
   * leaf handed over. It takes nothing from another writer with `force: true`:
   * two forced contributions of one leaf are refused with `CAP002`, even with
   * equal values.
   *
   * @default false
   */
  readonly force?: boolean;
}

/** The props of a Contribution as collect reads them, and what is wrong with them. */
interface Recorded {
  readonly target?: ApiObject | CfnResource;
  readonly construct?: IConstruct;
  readonly patches: readonly JsonPatch[];
  readonly write?: (target: any) => void;
  readonly problems: readonly string[];
}

const recorded = new WeakMap<Contribution<any>, Recorded>();

/**
 * Writes fields into an object declared by another construct, with the writer
 * recorded in the field ledger: the synth-time analogue of a server-side apply
 * field manager.
 *
 * Contributions of disjoint fields merge into the one emitted object; two
 * writers of one field (the declarer included) are refused with `CAP002`.
 * Props that cannot be used (nothing to write, `fields` not an object,
 * `patches` not JSON patches, a target that is no object) are refused with
 * `CAP010`, naming the contribution.
 *
 * @typeParam T the target's type, which `write` receives
 * @example
 * // the network team declares the object ...
 * const deployment = new ApiObject(chart, 'App', { apiVersion: 'example.com/v1', kind: 'ApplicationDeployment',
 *   metadata: { name: 'app1' }, spec: { applicationId: 'app1' } });
 * // ... and the deployment team contributes its own fields
 * new Contribution(deploymentTeam, 'Timers', { target: deployment, fields: { spec: { timers: { rollout: '5m' } } } });
 * // ... or writes through the typed API of a cdk8s-plus construct
 * new Contribution(observability, 'LogLevel', { target: web, write: (d) => d.containers[0].env.addVariable('LOG_LEVEL', EnvValue.fromValue('debug')) });
 */
export class Contribution<T extends IConstruct = IConstruct> extends Construct {
  /** True when `x` is a `Contribution`, also across duplicate installs of this package. */
  public static isContribution(x: unknown): x is Contribution {
    return hasBrand(x, 'Contribution');
  }

  /** The Kubernetes object written to, when the target is one. */
  public readonly apiObject?: ApiObject;

  /**
   * The CloudFormation resource written to, when the target is one.
   *
   * Internal, so that the types of `cdk-capability/runtime` name nothing of
   * aws-cdk-lib: the target as given is the program's own.
   *
   * @internal
   */
  public readonly cfnResource?: CfnResource;

  /** The fields written (`{}` when the contribution writes only through `patches` or `write`). */
  public readonly fields: Record<string, unknown>;

  /** True when the contribution takes its leaves from their owner (`force: true`). */
  public readonly force: boolean;

  /**
   * @param scope the writer: the contribution's path names it in the ledger; inside a `CapabilityApp`
   * @throws CompositionError `CAP015` when created outside a `CapabilityApp`, whose synth alone merges its writes
   * @param id the construct id
   * @param props the target and what to write
   */
  constructor(scope: Construct, id: string, props: ContributionProps<T>) {
    super(withKnownProps(requireChildId(requireCapabilityApp(scope, id, 'Contribution'), id, 'Contribution', 'Timeouts'), id, props), id);
    brand(this, 'Contribution');
    recordWriteCalls();
    const given = (props ?? {}) as Partial<ContributionProps<T>>;
    const problems = problemsOf(given);
    const fields = isMap(given.fields) ? given.fields : {};
    this.fields = fields;
    this.force = given.force === true;
    const target = Construct.isConstruct(given.target) ? resolveTarget(given.target) : undefined;
    if (given.target !== undefined && given.target !== null && !target) {
      const where = Construct.isConstruct(given.target) ? `'${given.target.node.path}'` : valueText(given.target);
      problems.push(`'target' (${where}) must be an ApiObject, a construct with one as its default child, or a CfnResource`);
    }
    if (target && target.node.root !== this.node.root) {
      problems.push(`'target' ('${target.node.path}') is in another app than the contribution, whose synth never renders it, so nothing would be written. `
        + 'Target an object of this app, or create the contribution in the app of the target');
    }
    if (target && isCfnResource(target) && Array.isArray(given.patches) && given.patches.length > 0) {
      problems.push("'patches' apply to Kubernetes objects only; write CloudFormation properties with 'fields' or 'write'");
    }
    if (target && isCfnResource(target)) appendAll(problems, cloudFormationNameProblems(target, fields));
    const patches = problems.length === 0 && Array.isArray(given.patches) ? given.patches : [];
    recorded.set(this, { target, construct: given.target, patches, write: problems.length === 0 ? given.write as any : undefined, problems });
    if (problems.length > 0 || !target) return;
    if (ApiObject.isApiObject(target)) {
      this.apiObject = target;
      if (patches.length > 0) attributeTo({ path: this.node.path, kind: 'contribution-patches' }, () => target.addJsonPatch(...patches));
    } else {
      this.cfnResource = target;
      attributeTo({ path: this.node.path, kind: 'contribution-fields' }, () => {
        for (const [key, value] of Object.entries(fields)) target.addPropertyOverride(key, value);
      });
    }
  }
}

/**
 * Each key of `fields` that no property of the resource's type can have, judged by its first segment (the property
 * `addPropertyOverride` writes into: `VersioningConfiguration` of `VersioningConfiguration.Status`);
 * `addPropertyOverride` would write it into the template as it is, which CloudFormation refuses at deploy.
 *
 * A resource of a generated L1 (`CfnBucket`) takes the names that L1 renders (`cloudFormationPropertyNames`): a key
 * that is aws-cdk's prop name (`bucketName`, a small letter first) is named with the template's name of the same
 * letters, any other key the L1 does not render (`BucketNme`, `VersioningConfig`) with the name it most likely
 * misspells. An `AWS::` resource of no generated L1 (a plain `CfnResource`) takes any key with a capital first,
 * as CloudFormation names every property of those types; the name to give for a key with a small letter is the
 * resource's own rendering of that prop when it holds one, else the key with a capital first letter. Other types
 * (`Custom::`, a third party's) and `AWS::CloudFormation::CustomResource`, which passes any property to its
 * provider, may name their properties as they like, and are not judged.
 */
function cloudFormationNameProblems(resource: CfnResource, fields: Record<string, unknown>): string[] {
  const type = resource.cfnResourceType;
  const keys = Object.keys(fields);
  if (keys.length === 0 || type === 'AWS::CloudFormation::CustomResource') return [];
  const known = cloudFormationPropertyNames(resource);
  if (known) return keys.flatMap((key) => unknownNameProblems(resource, key, known));
  const lower = type.startsWith('AWS::') ? keys.filter((k) => /^[a-z]/.test(k)) : [];
  if (lower.length === 0) return [];
  let rendered: string[] = [];
  try {
    rendered = Object.keys(declaredPropertiesOf(resource, { partial: true }));
  } catch {
    // a resource whose properties do not render yet: the capitalized key is the name to give
  }
  return lower.map((key) => propNameProblem(resource, key, rendered.find((n) => n.toLowerCase() === key.toLowerCase()) ?? `${key[0].toUpperCase()}${key.slice(1)}`));
}

/** Why `key` of `fields` is refused, when its first segment is not a name its generated L1 renders ([] when it is one). */
function unknownNameProblems(resource: CfnResource, key: string, known: CloudFormationPropertyNames): string[] {
  const name = firstPropertySegment(key);
  if (known.names.has(name)) return [];
  const same = [...known.names].find((n) => n.toLowerCase() === name.toLowerCase());
  if (same !== undefined && /^[a-z]/.test(name) && name === key) return [propNameProblem(resource, key, same)];
  const meant = closestPropertyName(name, known.names);
  const which = name === key ? `'fields.${key}' is` : `'fields.${key}' writes into '${name}', which is`;
  const hint = meant !== undefined ? `did you mean '${meant}'?`
    : known.names.size === 0 ? 'the type has no properties' : `its properties are ${[...known.names].sort().map((n) => `'${n}'`).join(', ')}`;
  return [`${which} not a CloudFormation property of ${resource.cfnResourceType} ('${resource.node.path}') (${hint}): aws-cdk-lib's ${known.l1} renders no property `
    + 'of that name, and CloudFormation would refuse the template at deploy. Write the property as the template names it; for a property newer than '
    + "the installed aws-cdk-lib, upgrade it, or write the property with addPropertyOverride in a 'write' callback"];
}

/** The refusal of `key`, aws-cdk's prop name (a small letter first), where the template's name is `name`. */
function propNameProblem(resource: CfnResource, key: string, name: string): string {
  return `'fields.${key}' is not a CloudFormation property of ${resource.cfnResourceType} ('${resource.node.path}'): 'fields' takes the template's property names, `
    + `which start with a capital, not aws-cdk's prop names. Write '${name}'`;
}

/** The property a key of `fields` writes into: its first segment, as `addPropertyOverride` splits it (at a '.' that no backslash escapes). */
function firstPropertySegment(key: string): string {
  let name = '';
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '\\' && i + 1 < key.length) name += key[++i];
    else if (key[i] === '.') return name;
    else name += key[i];
  }
  return name;
}

/** What is wrong with a contribution's props (empty when nothing is), as collect reports it (`CAP010`). */
export function contributionProblems(c: Contribution): readonly string[] {
  return recorded.get(c)?.problems ?? [];
}

/** The target construct as given (for `write`) and its callback, when the contribution has a usable one. */
export function writeCallbackOf(c: Contribution): { construct: IConstruct; write: (target: any) => void } | undefined {
  const r = recorded.get(c);
  return r?.write && r.construct ? { construct: r.construct, write: r.write } : undefined;
}

/** The props a `Contribution` takes: another key would be dropped without a word (a misspelt `force`). */
const CONTRIBUTION_PROPS = keysOf<ContributionProps>({ target: true, fields: true, patches: true, write: true, force: true });

/** `scope`; or, before the contribution is added, the `CAP010` refusal of each prop it does not take, with the one it most likely misspells. */
function withKnownProps(scope: Construct, id: string, props: unknown): Construct {
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  refuseUnknownKeys(`Contribution '${path}' props`, props, CONTRIBUTION_PROPS, path);
  return scope;
}

function problemsOf(props: Partial<ContributionProps<any>>): string[] {
  const problems: string[] = [];
  if (props.target === undefined || props.target === null) problems.push("'target' is missing: give it the object to write into");
  const { fields, patches, write } = props;
  if (fields === undefined && patches === undefined && write === undefined) {
    problems.push("it has nothing to write: give it 'fields', 'patches' or 'write'");
  }
  if (fields !== undefined && !isMap(fields)) {problems.push(`'fields' (${describe(fields)}) must be an object, such as { spec: { replicas: 3 } }`);} else if (fields !== undefined) {
    // a value JSON has no form for would crash the merge (a function cannot be cloned), or be written as it is
    const found = nonJsonIn(fields);
    if (found?.handle) {
      const { contract, field } = found.handle;
      problems.push(`'fields.${found.path.join('.')}' is the handle of field '${field}' of '${contract}', not a value: a consumed field reaches a pod only as a container env entry `
        + `that reads it from the Secret the contract binds. Write that entry into a container's env instead, such as values.${field}.envVar()`);
    } else if (found?.cycleTo) {
      const holder = found.cycleTo.length === 0 ? "'fields'" : `'fields.${found.cycleTo.join('.')}'`;
      problems.push(`'fields.${found.path.join('.')}' is ${holder} itself, which holds it: a value that holds itself has no form in JSON or YAML, and no walk of it ends. `
        + 'Give a copy of the value there, or leave that field out');
    } else if (found) {
      problems.push(`'fields.${found.path.join('.')}' is ${found.kind}, which JSON and YAML have no form for. Give it as a string or a number`);
    }
  }
  if (patches !== undefined) {
    if (!Array.isArray(patches)) {problems.push(`'patches' (${describe(patches)}) must be a list of JsonPatch, such as [JsonPatch.add('/spec/replicas', 3)]`);} else {
      patches.forEach((p, i) => {
        if (!isJsonPatch(p)) problems.push(`'patches'[${i}] (${describe(p)}) must be a JsonPatch, made with JsonPatch.add, replace, remove, move, copy or test`);
        else appendAll(problems, pointerProblems(patchOperation(p), i));
      });
    }
  }
  if (write !== undefined && typeof write !== 'function') problems.push(`'write' (${describe(write)}) must be a function of the target`);
  if (props.force !== undefined && typeof props.force !== 'boolean') problems.push(`'force' (${describe(props.force)}) must be true or false`);
  return problems;
}

/**
 * Why a patch's `path` or `from` is no JSON pointer (RFC 6901: empty, or starting with '/'): cdk8s applies such a
 * patch without a word, and it changes nothing.
 */
function pointerProblems(operation: JsonPatchOperation, index: number): string[] {
  return (['path', 'from'] as const).flatMap((key) => {
    const pointer = operation[key];
    if (pointer === undefined || pointer === '' || pointer.startsWith('/')) return [];
    const meant = `/${pointer.includes('/') ? pointer : pointer.split('.').join('/')}`;
    return [`'patches'[${index}] (${operation.op}) has the ${key} ${JSON.stringify(pointer)}, which is no JSON pointer, so the patch would change nothing: a pointer starts with '/', such as ${JSON.stringify(meant)}`];
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value !== 'object') return `${typeof value} ${String(value)}`;
  const name = value.constructor?.name;
  return !name || name === 'Object' ? 'an object' : `a ${name}`;
}

function resolveTarget(target: IConstruct): ApiObject | CfnResource | undefined {
  for (let c: IConstruct | undefined = target; c; c = c.node.defaultChild) {
    if (ApiObject.isApiObject(c) || isCfnResource(c)) return c;
  }
  return undefined;
}
