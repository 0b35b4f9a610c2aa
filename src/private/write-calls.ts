import type { Aspects, CfnResource, IAspect, TagManager, Tags } from 'aws-cdk-lib';
import { ApiObject, JsonPatch } from 'cdk8s';
import { IConstruct, Node } from 'constructs';
import { awsCdk, awsCdkLoaded } from './aws-cdk';
import { InstalledPackage, programCallSite } from './creation-site';
import { refuseNonJsonOverride } from './non-json-values';
import { isOwnFile } from './package-root';
import { aspectsScopeOf, cfnPropertiesOf, HeldTag, heldTagsOf, UpstreamShapeError } from './upstream-state';

/**
 * Who the write calls made while a Contribution runs are attributed to: its
 * construct path and which of its props made them.
 */
export interface Attribution {
  /** The Contribution's construct path. */
  readonly path: string;
  /** Which of its props made the calls. */
  readonly kind: 'contribution-fields' | 'contribution-patches' | 'contribution-write';
}

/** One call of an escape hatch or of `Tags.of(scope)`: what it was, who made it, and where. */
export interface WriteCall {
  /** The API called: `addJsonPatch`, `addPropertyOverride`, `Tags.of().add`, ... */
  readonly api: string;
  /** The Contribution it was made in, if any. */
  readonly attribution?: Attribution;
  /** True when a library made it for its own construct (an aws-cdk L2 overriding its own L1), not the program. */
  readonly byLibrary: boolean;
  /** Where the program made it (`file:line`, relative to the working directory), formatted on first read; undefined when unknown. */
  readonly site: string | undefined;
  /**
   * The installed package (no construct library) whose code made the call, when the program did not make it itself:
   * `site` is then the program's line that called into the package. Read with `site`.
   */
  readonly package: InstalledPackage | undefined;
  /** The program's aspect (not a Tag) whose visit made it, if any. */
  readonly aspect?: IAspect;
}

/** An `Aspects.of(scope).add` call (or aws-cdk's `PermissionsBoundary.of(scope).apply`) the program made, by the aspect it added. */
export interface AspectCall {
  /** The scope the aspect was added to. */
  readonly scope: IConstruct;
  /** The call. */
  readonly call: WriteCall;
}

/** One visit of a program's aspect (not a Tag) that changed a CloudFormation resource's properties. */
export interface AspectRun {
  /** The aspect. */
  readonly aspect: IAspect;
  /** The resource's `cfnProperties` before the visit (plain maps and lists copied, tokens kept), its tags left out. */
  readonly before: Record<string, unknown>;
  /** The same after the visit. */
  readonly after: Record<string, unknown>;
}

/** The `cfnOptions` a template renders as resource attributes, by option name; `dependsOn` is ordering, not a field. */
export const ATTRIBUTE_OPTIONS = ['deletionPolicy', 'updateReplacePolicy', 'creationPolicy', 'updatePolicy', 'metadata', 'condition', 'version', 'description'] as const;

/** A resource's attribute options (`cfnOptions`) at one moment, plain maps and lists copied, and the removal policy aws-cdk's default gave it then. */
export interface AttributeOptions {
  /** The options set, by option name (`deletionPolicy`, `metadata`, `condition`, ...). */
  readonly options: Readonly<Record<string, unknown>>;
  /** The removal policy aws-cdk's default gave the resource then, if its last `applyRemovalPolicy` named none. */
  readonly removalDefault?: RemovalDefault;
}

/** One visit of a program's aspect (not a Tag) that changed a CloudFormation resource's attributes (`cfnOptions`). */
export interface AspectAttributesRun {
  /** The aspect. */
  readonly aspect: IAspect;
  /** The attribute options before the visit. */
  readonly before: AttributeOptions;
  /** The same after the visit. */
  readonly after: AttributeOptions;
}

/** One override call on a CloudFormation resource. */
export interface OverrideCall {
  /** The override path split on unescaped dots, `Properties` included. */
  readonly path: string[];
  /** The value written; `undefined` for a deletion override. */
  readonly value: unknown;
  /** The call. */
  readonly call: WriteCall;
}

/** A `Tags.of(scope).add` or `.remove` call, by the aspect it added. */
export interface TagCall {
  /** The scope the aspect was added to. */
  readonly scope: IConstruct;
  /** The call. */
  readonly call: WriteCall;
}

/** A tag a Tag aspect applied to one resource's tag manager, in the order aws-cdk applied them. */
export interface TagEvent {
  /** The aspect that applied it. */
  readonly aspect: IAspect;
  /** The tag key. */
  readonly key: string;
  /** The value set; undefined for a removal. */
  readonly value?: string;
  /** The tag priority it was applied with (a higher or equal priority replaces). */
  readonly priority: number;
}

/** The removal policy aws-cdk applied to a resource by default: `applyRemovalPolicy` called without a policy (an L2 given no `removalPolicy`). */
export interface RemovalDefault {
  /** The `cfnOptions.deletionPolicy` it set. */
  readonly deletionPolicy?: string;
  /** The `cfnOptions.updateReplacePolicy` it set. */
  readonly updateReplacePolicy?: string;
}

/** Frames kept per call: enough to climb out of aws-cdk's L2 methods into the program. */
const FRAMES = 20;

let attribution: Attribution | undefined;
const patchCalls = new WeakMap<JsonPatch, WriteCall>();
const overrideCalls = new WeakMap<CfnResource, OverrideCall[]>();
const tagCalls = new WeakMap<IAspect, TagCall>();
const tagEvents = new WeakMap<TagManager, TagEvent[]>();
const tagsBeforeTags = new WeakMap<TagManager, ReadonlyMap<string, HeldTag>>();
const tagScopes = new WeakMap<Tags, IConstruct>();
const removalDefaults = new WeakMap<CfnResource, RemovalDefault>();
const aspectCalls = new WeakMap<IAspect, AspectCall>();
const aspectRuns = new WeakMap<CfnResource, AspectRun[]>();
const aspectAttributesRuns = new WeakMap<CfnResource, AspectAttributesRun[]>();
let currentAspect: IAspect | undefined;
let installed = false;
let awsCdkInstalled = false;
let tagCallCount = 0;

/** Runs `fn`, attributing every write call it makes to `to`. */
export function attributeTo<T>(to: Attribution, fn: () => T): T {
  const outer = attribution;
  attribution = to;
  try {
    return fn();
  } finally {
    attribution = outer;
  }
}

/** The Contribution the write calls made now are attributed to, if any. */
export function attributionNow(): Attribution | undefined {
  return attribution;
}

/**
 * Starts recording the escape hatches and Tags of the cdk8s and aws-cdk
 * copies this package uses: each `ApiObject.addJsonPatch` call, each
 * `CfnResource.addOverride` (and `addPropertyOverride`, `addDeletionOverride`,
 * `addPropertyDeletionOverride`) call, each `Tags.of(scope).add` / `.remove`,
 * and the tags each Tag aspect applies. Each call keeps an unformatted stack
 * (`Error.captureStackTrace`, a few microseconds; formatted only when a
 * message reads its site). aws-cdk's only when aws-cdk-lib is loaded already:
 * a `Capability` that takes stacks records them itself. Idempotent.
 */
export function recordWriteCalls(): void {
  if (!installed) {
    installed = true;
    wrapPatches(ApiObject.prototype as unknown as Record<string, unknown>);
    wrapOtherCdk8sCopies();
  }
  if (awsCdkLoaded()) recordAwsCdkWriteCalls();
}

/** Starts recording aws-cdk's overrides and Tags (loads aws-cdk-lib). Idempotent. */
export function recordAwsCdkWriteCalls(): void {
  if (awsCdkInstalled) return;
  awsCdkInstalled = true;
  wrapOverrides();
  wrapRemovalPolicy();
  wrapTags();
  wrapAspects();
}

/**
 * The removal policy aws-cdk's default gave a resource, when its last
 * `applyRemovalPolicy` call named no policy; undefined when a call named one
 * (the program's, or an L2's from its `removalPolicy` prop) or none was recorded.
 */
export function removalDefaultOf(resource: CfnResource): RemovalDefault | undefined {
  return removalDefaults.get(resource);
}

/** The call that added a JSON patch, when it was recorded. */
export function jsonPatchCall(patch: JsonPatch): WriteCall | undefined {
  return patchCalls.get(patch);
}

/** The override calls made on a resource, in call order; undefined when none was recorded. */
export function overrideCallsOf(resource: CfnResource): readonly OverrideCall[] | undefined {
  return overrideCalls.get(resource);
}

/** The call that added a Tag or RemoveTag aspect. */
export function tagCallOf(aspect: IAspect): TagCall | undefined {
  return tagCalls.get(aspect);
}

/** The tags Tag aspects applied to a tag manager, in order. */
export function tagEventsOf(manager: TagManager): readonly TagEvent[] {
  return tagEvents.get(manager) ?? [];
}

/**
 * The tags a tag manager held when a Tag or RemoveTag aspect first applied a tag to it: what its resource or
 * stack declared, whatever synthesized the stage first (a `Template.fromStack` before the synth, say).
 * Undefined for a tag manager no Tag aspect has reached yet, whose tags are still the declared ones.
 */
export function tagsBeforeTagAspects(manager: TagManager): ReadonlyMap<string, HeldTag> | undefined {
  return tagsBeforeTags.get(manager);
}

/** The call that added a program's aspect (not a Tag): undefined for a Tag and for an aspect a library added to its own construct. */
export function aspectCallOf(aspect: IAspect): AspectCall | undefined {
  return aspectCalls.get(aspect);
}

/** The visits of the program's aspects that changed a resource's properties, in the order they ran. */
export function aspectRunsOf(resource: CfnResource): readonly AspectRun[] {
  return aspectRuns.get(resource) ?? [];
}

/** The visits of the program's aspects that changed a resource's attributes (`cfnOptions`), in the order they ran. */
export function aspectAttributesRunsOf(resource: CfnResource): readonly AspectAttributesRun[] {
  return aspectAttributesRuns.get(resource) ?? [];
}

/** True when some `Tags.of(scope)` call was recorded: otherwise no resource has tag events to read. */
export function anyTagCalls(): boolean {
  return tagCallCount > 0;
}

/** The `addJsonPatch` of each cdk8s copy's ApiObject, once wrapped: the wrappers and the prototypes they replaced it on. */
const patchWrappers = new WeakSet<Function>();
const patchProtos = new WeakSet<object>();

/** Records the `addJsonPatch` calls made on the ApiObjects of the cdk8s copy whose ApiObject prototype is `proto`. */
function wrapPatches(proto: Record<string, unknown>): void {
  if (patchProtos.has(proto)) return;
  patchProtos.add(proto);
  const original = proto.addJsonPatch as (...ops: JsonPatch[]) => void;
  proto.addJsonPatch = function addJsonPatch(this: ApiObject, ...ops: JsonPatch[]) {
    const call = capture('addJsonPatch', addJsonPatch);
    for (const op of ops) if (op !== null && typeof op === 'object') patchCalls.set(op, call);
    return original.apply(this, ops);
  };
  patchWrappers.add(proto.addJsonPatch as Function);
}

/**
 * Records the `addJsonPatch` calls of a second copy of cdk8s too (a capability package with its own
 * `node_modules/cdk8s`, whose ApiObjects the app renders as its own): when a construct whose `addJsonPatch` is not
 * recorded joins the tree (the `addChild` of the `constructs` copy this package uses, which the package's cdk8s
 * shares as a peer), its copy's ApiObject prototype is wrapped as this package's is. Without it, such a call keeps
 * no site, and messages number it (`addJsonPatch #1`) instead of naming the package that made it.
 */
function wrapOtherCdk8sCopies(): void {
  const proto = Node.prototype as unknown as { addChild: (this: Node, child: IConstruct, name: string) => void };
  const addChild = proto.addChild;
  proto.addChild = function (this: Node, child: IConstruct, name: string) {
    const patch = (child as { addJsonPatch?: unknown }).addJsonPatch;
    if (typeof patch === 'function' && !patchWrappers.has(patch)) {
      const owner = apiObjectPrototypeOf(child);
      if (owner) wrapPatches(owner);
    }
    return addChild.call(this, child, name);
  };
}

/** The ApiObject prototype of a cdk8s copy in `construct`'s prototype chain (the one that defines `addJsonPatch`), if any. */
function apiObjectPrototypeOf(construct: object): Record<string, unknown> | undefined {
  for (let proto = Object.getPrototypeOf(construct); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (!Object.prototype.hasOwnProperty.call(proto, 'addJsonPatch')) continue;
    const ctor = (proto as { constructor?: { isApiObject?: unknown } }).constructor;
    return typeof ctor?.isApiObject === 'function' ? proto : undefined;
  }
  return undefined;
}

function wrapOverrides(): void {
  const { CfnResource } = awsCdk();
  const proto = CfnResource.prototype as unknown as Record<string, unknown>;
  let depth = 0;
  let outer: WriteCall | undefined;
  for (const api of ['addOverride', 'addDeletionOverride', 'addPropertyOverride', 'addPropertyDeletionOverride']) {
    const original = proto[api] as (this: CfnResource, ...args: unknown[]) => void;
    const wrapper = function (this: CfnResource, ...args: unknown[]) {
      if (depth === 0) outer = capture(api, wrapper);
      depth++;
      try {
        if (api === 'addOverride') {
          const list = overrideCalls.get(this) ?? [];
          overrideCalls.set(this, list);
          // aws-cdk keeps the value by reference and merges later overrides into it: record it as it is now
          list.push({ path: splitOverridePath(String(args[0])), value: snapshot(args[1]), call: outer! });
          refuseNonJsonOverride(this, outer!, String(args[0]), args[1]);
        }
        return original.apply(this, args);
      } finally {
        depth--;
      }
    };
    proto[api] = wrapper;
  }
}

/** Notes, per resource, whether its last `applyRemovalPolicy` call fell back to aws-cdk's default policy (a WeakMap write a call). */
function wrapRemovalPolicy(): void {
  const { CfnResource } = awsCdk();
  const proto = CfnResource.prototype as unknown as Record<string, unknown>;
  const original = proto.applyRemovalPolicy as (this: CfnResource, ...args: unknown[]) => void;
  proto.applyRemovalPolicy = function applyRemovalPolicy(this: CfnResource, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (args[0]) {
      removalDefaults.delete(this);
    } else {
      const { deletionPolicy, updateReplacePolicy } = this.cfnOptions;
      removalDefaults.set(this, { deletionPolicy, updateReplacePolicy });
    }
    return result;
  };
}

/**
 * A copy of an override's plain maps and lists as they are at the call (the
 * maps aws-cdk later merges other overrides into); tokens and other objects
 * are kept as they are. A map or list the value holds twice is copied once, so
 * a value that holds itself is copied as one that holds itself (aws-cdk's
 * resolve refuses it at synth: `CAP010`), not followed until the stack runs out
 * inside the program's `addPropertyOverride` call.
 */
function snapshot(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const list: unknown[] = new Array(value.length);
    copies.set(value, list);
    // forEach skips a sparse list's holes, which the copy keeps as holes
    value.forEach((v, i) => { list[i] = snapshot(v, copies); });
    return list;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype) return value;
  const copy: Record<string, unknown> = proto === null ? Object.create(null) : {};
  copies.set(value, copy);
  for (const [k, v] of Object.entries(value)) copy[k] = snapshot(v, copies);
  return copy;
}

function wrapTags(): void {
  const { Aspects, RemoveTag, Tag, TagManager, Tags } = awsCdk();
  const tags = Tags as unknown as { of: (scope: IConstruct) => Tags };
  const of = tags.of;
  tags.of = function (scope: IConstruct) {
    const t = of.call(Tags, scope);
    tagScopes.set(t, scope);
    return t;
  };
  const proto = Tags.prototype as unknown as Record<string, (...args: unknown[]) => void>;
  for (const [method, api] of [['add', 'Tags.of().add'], ['remove', 'Tags.of().remove']] as const) {
    const original = proto[method];
    const wrapper = function (this: Tags, ...args: unknown[]) {
      const call = capture(api, wrapper);
      const scope = tagScopes.get(this);
      const before = scope ? Aspects.of(scope).all.length : 0;
      const result = original.apply(this, args);
      if (scope) {
        for (const aspect of Aspects.of(scope).all.slice(before)) tagCalls.set(aspect, { scope, call });
        tagCallCount++;
      }
      return result;
    };
    proto[method] = wrapper;
  }
  const base = Object.getPrototypeOf(Tag.prototype) as { visit: (this: IAspect, c: IConstruct) => void };
  const visit = base.visit;
  let current: IAspect | undefined;
  base.visit = function (this: IAspect, c: IConstruct) {
    const outer = current;
    current = this;
    try {
      return visit.call(this, c);
    } finally {
      current = outer;
    }
  };
  const manager = TagManager.prototype as unknown as Record<string, (...args: any[]) => void>;
  const setTag = manager.setTag;
  manager.setTag = function (this: TagManager, key: string, value: string, priority = 0, ...rest: unknown[]) {
    if (current instanceof Tag) logTag(this, { aspect: current, key, value, priority });
    return setTag.call(this, key, value, priority, ...rest);
  };
  const removeTag = manager.removeTag;
  manager.removeTag = function (this: TagManager, key: string, priority: number) {
    if (current instanceof RemoveTag) logTag(this, { aspect: current, key, priority });
    return removeTag.call(this, key, priority);
  };
}

function logTag(manager: TagManager, event: TagEvent): void {
  if (!tagsBeforeTags.has(manager)) tagsBeforeTags.set(manager, heldTagsOf(manager));
  const list = tagEvents.get(manager) ?? [];
  tagEvents.set(manager, list);
  list.push(event);
}

/**
 * aws-cdk's files whose `Aspects.of(scope).add` is the program's policy on a scope it names
 * (`PermissionsBoundary.of(scope).apply`), by the API the program called; an aspect any other
 * library file adds (an L2 on its own construct) is its declarer's.
 */
const POLICY_ASPECTS: ReadonlyArray<[RegExp, string]> = [
  [/[\\/]aws-iam[\\/]lib[\\/]permissions-boundary\.js$/, 'PermissionsBoundary.of().apply'],
  [/[\\/]core[\\/]lib[\\/]removal-policies\.js$/, 'RemovalPolicies.of().apply'],
  [/[\\/]custom-resources[\\/]lib[\\/]custom-resource-config[\\/]custom-resource-config\.js$/, 'CustomResourceConfig.of()'],
];

/**
 * Records each aspect the program adds (`Aspects.of(scope).add`, aws-cdk's policy aspects such as
 * `PermissionsBoundary.of(scope).apply`), Tags left out (`wrapTags` records them), and, for each visit
 * of such an aspect, the properties of each CloudFormation resource it could write before and after
 * it when the visit changed them, and its attribute options (`cfnOptions`) likewise. A visit of a
 * resource watches that resource; a visit of any other construct watches the resources under it, so
 * an aspect that checks for an L2 (`node instanceof s3.Bucket`) and writes its `defaultChild`, or
 * visits a stack and writes its resources, is the writer of what it changed, not the declarer. An
 * aspect's `visit` is wrapped on the aspect object itself (an own property, so its identity is kept);
 * a program with no such aspect pays one check per `add`.
 */
function wrapAspects(): void {
  const { Aspects, CfnResource, RemoveTag, Tag } = awsCdk();
  const proto = Aspects.prototype as unknown as Record<string, (...args: unknown[]) => void>;
  const add = proto.add;
  const wrapper = function (this: Aspects, aspect: IAspect, ...rest: unknown[]) {
    const result = add.call(this, aspect, ...rest);
    if (aspect === null || typeof aspect !== 'object' || aspect instanceof Tag || aspect instanceof RemoveTag || aspectCalls.has(aspect)) return result;
    // an L2 adds aspects to its own constructs (every iam.Role one): known from two frames, before a whole stack is taken
    const file = callerFile(wrapper);
    const byLibrary = file !== undefined && isLibraryFile(file);
    const policy = byLibrary ? POLICY_ASPECTS.find(([re]) => re.test(file)) : undefined;
    if (byLibrary && !policy) return result;
    const call = capture('Aspects.of().add', wrapper);
    const scope = aspectsScopeOf(this);
    if (typeof aspect.visit !== 'function' || !Object.isExtensible(aspect)) return result;
    aspectCalls.set(aspect, { scope, call: policy ? { ...callFields(call), api: policy[1] } : call });
    const visit = aspect.visit;
    Object.defineProperty(aspect, 'visit', {
      configurable: true,
      writable: true,
      enumerable: false,
      value: function (this: IAspect, node: IConstruct) {
        const outer = currentAspect;
        currentAspect = aspect;
        const watched = resourcesUnder(node, CfnResource.isCfnResource);
        const before = watched.map(propertiesOf);
        const attributesBefore = watched.map(attributeOptionsOf);
        try {
          return visit.call(this, node);
        } finally {
          currentAspect = outer;
          watched.forEach((resource, i) => {
            const props = before[i];
            if (props) {
              const after = propertiesOf(resource);
              if (after && !sameValue(props, after)) appendRun(aspectRuns, resource, { aspect, before: props, after });
            }
            const after = attributeOptionsOf(resource);
            const attributes = attributesBefore[i];
            if (!sameValue(attributes.options, after.options)) appendRun(aspectAttributesRuns, resource, { aspect, before: attributes, after });
          });
        }
      },
    });
    return result;
  };
  proto.add = wrapper as (...args: unknown[]) => void;
}

/**
 * The resources a visit of `node` is watched on: the node itself when it is a resource; none for a stage or a stack
 * (each of their resources is visited itself, and reading them all at every stack's visit would cost each resource
 * again per enclosing stage and stack); else every resource under it, its `defaultChild` among them.
 */
function resourcesUnder(node: IConstruct, isResource: (c: unknown) => c is CfnResource): CfnResource[] {
  if (isResource(node)) return [node];
  const { Stack, Stage } = awsCdk();
  if (Stack.isStack(node) || Stage.isStage(node) || node.node.scope === undefined) return [];
  return node.node.findAll().filter(isResource);
}

function appendRun<R>(runs: WeakMap<CfnResource, R[]>, resource: CfnResource, run: R): void {
  const list = runs.get(resource) ?? [];
  runs.set(resource, list);
  list.push(run);
}

/** A resource's attribute options as they are now, plain maps and lists copied (tokens and conditions kept), and its removal default. */
function attributeOptionsOf(resource: CfnResource): AttributeOptions {
  const now = resource.cfnOptions as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  for (const option of ATTRIBUTE_OPTIONS) if (now[option] !== undefined) options[option] = snapshot(now[option]);
  const removalDefault = removalDefaults.get(resource);
  return removalDefault ? { options, removalDefault } : { options };
}

/** A resource's `cfnProperties` as they are now, plain maps and lists copied, its tags left out; undefined when it has none. */
function propertiesOf(resource: CfnResource): Record<string, unknown> | undefined {
  let props: Record<string, unknown>;
  try {
    props = cfnPropertiesOf(resource);
  } catch (e) {
    if (e instanceof UpstreamShapeError) throw e;
    return undefined; // an L1 that cannot list its properties now: the visit is not recorded, the declarer keeps what it wrote
  }
  const copy = snapshot(props) as Record<string, unknown>;
  const tags = awsCdk().TagManager.of(resource)?.tagPropertyName;
  if (tags !== undefined) delete copy[tags];
  return copy;
}

/** Plain maps and lists compared by content, anything else (a token, a class instance) by identity. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

/** A call's fields read now (its getters evaluated), to derive another from it. */
function callFields(call: WriteCall): Omit<WriteCall, 'api'> {
  return { ...(call.attribution ? { attribution: call.attribution } : {}), byLibrary: call.byLibrary, site: call.site, package: call.package };
}

/** The file of the direct caller of `above`. */
function callerFile(above: Function): string | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 2;
  Error.captureStackTrace(holder, above);
  Error.stackTraceLimit = limit;
  return directCaller(holder.stack);
}

/** A call of `api`, made now: the current attribution and an unformatted stack, read lazily. */
function capture(api: string, above: Function): WriteCall {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = FRAMES;
  Error.captureStackTrace(holder, above);
  Error.stackTraceLimit = limit;
  const made = attribution;
  const aspect = made ? undefined : currentAspect;
  let caller: string | null | undefined;
  const site = programCallSite(holder);
  return {
    api,
    ...(made ? { attribution: made } : {}),
    ...(aspect ? { aspect } : {}),
    get byLibrary() {
      caller ??= directCaller(holder.stack) ?? null;
      return caller !== null && isLibraryFile(caller);
    },
    get site() {
      return site()?.site;
    },
    get package() {
      return site()?.package;
    },
  };
}

/** The file of the first frame of a stack (the direct caller of the wrapped method). */
function directCaller(stack: string | undefined): string | undefined {
  const line = stack?.split('\n')[1];
  const m = line === undefined ? null : /^\s*at (?:.*\()?(.+?):\d+:\d+\)?$/.exec(line);
  return m?.[1];
}

/** aws-cdk-lib's and cdk8s-plus's own files: a call from there is the library writing its own construct. */
function isLibraryFile(file: string): boolean {
  return /[\\/]node_modules[\\/](aws-cdk-lib|cdk8s-plus-\d+)[\\/]/.test(file) && !isOwnFile(file);
}

/**
 * Splits an aws-cdk override path as aws-cdk's `addOverride` does: on dots,
 * where a backslash escapes the character after it (`a\.b` is one key `a.b`,
 * `a\\.b` the keys `a\` and `b`, `a\b` the key `ab`) and a last backslash is kept.
 */
function splitOverridePath(p: string): string[] {
  const parts = [''];
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\' && i + 1 < p.length) parts[parts.length - 1] += p[++i];
    else if (p[i] === '.') parts.push('');
    else parts[parts.length - 1] += p[i];
  }
  return parts;
}
