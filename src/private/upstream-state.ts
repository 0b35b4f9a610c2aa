import { ApiObject, ApiObjectMetadataDefinition, App, ImplicitTokenResolver, JsonPatch, LazyResolver, NumberStringUnionResolver } from 'cdk8s';
import type { IConstruct, IValidation } from 'constructs';
import { appendAll } from './append';
import { awsCdk } from './aws-cdk';

/**
 * The one place that reads or writes the private state of cdk8s and aws-cdk.
 * Everything here depends on how those libraries are built inside, not on
 * their public API, so an upgrade can break it: each accessor checks the
 * shape it relies on and throws an `UpstreamShapeError` naming itself when
 * the shape has changed, and test/upstream-state.test.ts runs every accessor
 * against the versions package.json pins.
 */

/** A private shape of cdk8s or aws-cdk is not what this seam was written against. */
export class UpstreamShapeError extends Error {
  /**
   * @param seam the accessor, for example `jsonPatchesOf`
   * @param shape what it expected, for example `cdk8s ApiObject.patches to be an array`
   */
  public constructor(public readonly seam: string, shape: string) {
    super(`the upstream seam '${seam}' (src/private/upstream-state.ts) expected ${shape}; the installed version has changed it. Update the seam for it.`);
    this.name = 'UpstreamShapeError';
  }
}

/** One JSON patch operation as RFC 6902 writes it. */
export interface JsonPatchOperation {
  /** `add`, `remove`, `replace`, `move`, `copy` or `test`. */
  readonly op: string;
  /** The JSON pointer written. */
  readonly path: string;
  /** The pointer read by `move` and `copy`. */
  readonly from?: string;
  /** The value of `add`, `replace` and `test`. */
  readonly value?: unknown;
}

/** The `patches` array of a cdk8s object (`addJsonPatch` pushes to it; `toJson()` applies it). */
function patchArray(apiObject: ApiObject): JsonPatch[] {
  const patches = (apiObject as unknown as { patches?: unknown }).patches;
  if (!Array.isArray(patches)) throw new UpstreamShapeError('jsonPatchesOf', 'cdk8s ApiObject.patches to be an array');
  return patches as JsonPatch[];
}

/** The JSON patches added to a cdk8s object, in the order added. */
export function jsonPatchesOf(apiObject: ApiObject): JsonPatch[] {
  return [...patchArray(apiObject)];
}

/** True when `apiObject` has a JSON patch (`addJsonPatch`), without copying them. */
export function hasJsonPatches(apiObject: ApiObject): boolean {
  return patchArray(apiObject).length > 0;
}

/**
 * True when cdk8s' own `toJson()` renders `apiObject` as its declaration with every map's keys sorted: no JSON
 * patch (applied after sorting, as given), `CDK8S_DISABLE_SORT` unset, and the app's resolvers cdk8s' built-in
 * ones alone (which leave plain data as it is).
 */
export function rendersSortedAsDeclared(apiObject: ApiObject): boolean {
  return patchArray(apiObject).length === 0 && !process.env.CDK8S_DISABLE_SORT && builtInResolvers(apiObject);
}

/** The operation of one cdk8s `JsonPatch`. */
export function patchOperation(patch: JsonPatch): JsonPatchOperation {
  const toJson = (patch as unknown as { _toJson?: () => unknown })._toJson;
  const op = typeof toJson === 'function' ? toJson.call(patch) : undefined;
  if (!isOperation(op)) throw new UpstreamShapeError('patchOperation', 'cdk8s JsonPatch._toJson() to return an RFC 6902 operation');
  return op;
}

/** True when `x` is a cdk8s `JsonPatch` (of any cdk8s copy): it has the operation `patchOperation` reads. */
export function isJsonPatch(x: unknown): x is JsonPatch {
  return x !== null && typeof x === 'object' && typeof (x as { _toJson?: unknown })._toJson === 'function';
}

/** The template an aws-cdk `CfnInclude` read (its private `template`), as its file loader returned it; undefined without one. */
export function includedTemplateOf(cfnInclude: IConstruct): object | undefined {
  const template = (cfnInclude as unknown as { template?: unknown }).template;
  return template !== null && typeof template === 'object' ? template : undefined;
}

/** The props a cdk8s object was declared with (its private `props`), as given: Lazies and all; undefined when it has none. */
export function declaredApiObjectProps(apiObject: ApiObject): unknown {
  return (apiObject as unknown as { props?: unknown }).props;
}

/** Renders a cdk8s object as its declaration alone: `toJson()` with its JSON patches left out for the call. */
export function renderWithoutPatches(apiObject: ApiObject): any {
  const patches = patchArray(apiObject);
  if (patches.length === 0) return apiObject.toJson();
  const saved = patches.splice(0, patches.length);
  try {
    return apiObject.toJson();
  } finally {
    appendAll(patches, saved);
  }
}

/**
 * What a plain cdk8s object's render is made of, when bookkeeping can follow
 * it: the metadata's label and annotation maps, which `addLabel` and
 * `addAnnotation` write and which render as they are (string values, keys
 * sorted, an empty map left out), and everything else the render reads, as
 * one text. Two states of one object with the same maps' contents and the
 * same `rest` render the same.
 */
export interface RecordableRender {
  /** The object's metadata, whose private `labels` and `annotations` are the maps below. */
  readonly metadata: ApiObjectMetadataDefinition;
  /** The metadata's label map (private `labels`), every value a string. */
  readonly labels: Record<string, string>;
  /** The metadata's annotation map (private `annotations`), every value a string. */
  readonly annotations: Record<string, string>;
  /** Everything else `toJson()` reads (props without metadata, the rest of the metadata) as a canonical text. */
  readonly rest: string;
}

/**
 * The state a cdk8s object renders from, when its render is a function of
 * plain data that bookkeeping can follow: the object renders with
 * `ApiObject.prototype.toJson` itself (a plain `ApiObject` or an `Include`d
 * one, not a generated `Kube*` class nor anything that overrides it), its
 * metadata with `ApiObjectMetadataDefinition.prototype.toJson`, its app
 * resolves with the built-in resolvers only, keys are sorted
 * (`CDK8S_DISABLE_SORT` unset), its props and metadata hold plain data only
 * (no `Lazy`, nothing with a `resolve` function, no class instance), and its
 * label and annotation maps are the metadata's own, not the caller's
 * `props.metadata` maps.
 *
 * @param known the state as last read, when the caller has followed every
 *   write into its maps since: the maps must still be the same objects, and
 *   their contents are not read again (so a call costs the size of the rest,
 *   not of the maps)
 * @returns undefined when the render cannot be followed by bookkeeping
 */
export function recordableRenderOf(apiObject: ApiObject, known?: RecordableRender): RecordableRender | undefined {
  if (apiObject.toJson !== ApiObject.prototype.toJson || process.env.CDK8S_DISABLE_SORT) return undefined;
  const metadata = apiObject.metadata;
  if (!(metadata instanceof ApiObjectMetadataDefinition) || metadata.toJson !== ApiObjectMetadataDefinition.prototype.toJson) return undefined;
  if (known && known.metadata !== metadata) return undefined;
  if (!builtInResolvers(apiObject)) return undefined;
  // a field gone is an upstream change; a field of another type is what a write callback made of it (not followed, never an upstream error)
  if (!('props' in apiObject)) throw new UpstreamShapeError('recordableRenderOf', 'cdk8s ApiObject to have its props');
  const fieldNames = ['labels', 'annotations', 'finalizers', 'ownerReferences', '_additionalAttributes'];
  if (!fieldNames.every((f) => f in metadata)) throw new UpstreamShapeError('recordableRenderOf', `cdk8s ApiObjectMetadataDefinition to have the fields ${fieldNames.join(', ')}`);
  const props = (apiObject as unknown as { props: unknown }).props;
  type Fields = { labels: unknown; annotations: unknown; finalizers: unknown; ownerReferences: unknown; _additionalAttributes: unknown };
  const { labels, annotations, finalizers, ownerReferences, _additionalAttributes: additional } = metadata as unknown as Fields;
  if (!isObject(props) || !isObject(labels) || !isObject(annotations) || !isObject(additional)) return undefined;
  if (!Array.isArray(finalizers) || !Array.isArray(ownerReferences)) return undefined;
  if (known) {
    if (known.labels !== labels || known.annotations !== annotations) return undefined;
  } else {
    const declared = (props as { metadata?: { labels?: unknown; annotations?: unknown } }).metadata;
    if (declared?.labels === labels || declared?.annotations === annotations) return undefined;
    if (!isStringMap(labels) || !isStringMap(annotations)) return undefined;
  }
  // what toJson() reads besides the two maps: the props under the metadata it renders, and the metadata's other fields over its additional attributes
  const { metadata: _metadata, ...rendered } = props as Record<string, unknown>;
  const metadataFields: Record<string, unknown> = { ...additional, name: metadata.name, namespace: metadata.namespace, finalizers, ownerReferences };
  const { labels: _labels, annotations: _annotations, ...others } = metadataFields;
  const propsText = plainText(rendered, []);
  const othersText = propsText === undefined ? undefined : plainText(others, []);
  if (othersText === undefined) return undefined;
  return { metadata, labels: labels as Record<string, string>, annotations: annotations as Record<string, string>, rest: `${propsText}\n${othersText}` };
}

/**
 * What cdk8s' own `toJson()` returns for a plain object, made in one walk of its props and its metadata's fields;
 * undefined when the render is not a function of plain data (then call `toJson()`). Plain as `recordableRenderOf`
 * reads it: the object and its metadata render with `ApiObject.prototype.toJson` and
 * `ApiObjectMetadataDefinition.prototype.toJson`, its app has the built-in resolvers only (which leave plain data as
 * it is), keys are sorted (`CDK8S_DISABLE_SORT` unset), it has no JSON patch, and its props and metadata hold strings,
 * numbers, booleans, null, undefined, arrays and objects of the Object prototype only (no `Lazy`, nothing with a
 * `resolve` function, no class instance), not nested deeper than cdk8s' own recursion is certain to reach.
 *
 * Why: cdk8s resolves every value through a context object and its three resolvers, copies each key path, and then
 * copies the result again to sort and clean it (`sanitizeValue`); in a synth's one run, its code still cold, that is
 * most of rendering a thousand small objects. The result is the same: nulls and undefined values of a map left out, a
 * null or undefined list element as undefined, keys sorted, empty lists and maps of the metadata left out, then
 * `apiVersion`, `kind` and `metadata` first (test/upstream-state.test.ts compares the two on generated objects).
 */
export function plainRenderOf(apiObject: ApiObject): Record<string, unknown> | undefined {
  return plainRenderer()(apiObject);
}

/**
 * `plainRenderOf` for many objects: `CDK8S_DISABLE_SORT` read once, when made (reading `process.env` costs a
 * call into the runtime each time, as much as the rest of a small object's render).
 */
export function plainRenderer(): (apiObject: ApiObject) => Record<string, unknown> | undefined {
  if (process.env.CDK8S_DISABLE_SORT) return () => undefined;
  return plainRender;
}

/** The fields of cdk8s' metadata that `ApiObjectMetadataDefinition.toJson` reads. */
const METADATA_FIELDS = ['labels', 'annotations', 'finalizers', 'ownerReferences', '_additionalAttributes'];

/** `plainRenderOf` with `CDK8S_DISABLE_SORT` unset. */
function plainRender(apiObject: ApiObject): Record<string, unknown> | undefined {
  if (apiObject.toJson !== ApiObject.prototype.toJson) return undefined;
  const metadata = apiObject.metadata;
  if (!(metadata instanceof ApiObjectMetadataDefinition) || metadata.toJson !== ApiObjectMetadataDefinition.prototype.toJson) return undefined;
  if (patchArray(apiObject).length > 0 || !builtInResolvers(apiObject)) return undefined;
  if (!('props' in apiObject)) throw new UpstreamShapeError('plainRenderOf', 'cdk8s ApiObject to have its props');
  for (let i = 0; i < METADATA_FIELDS.length; i++) {
    if (!(METADATA_FIELDS[i] in metadata)) throw new UpstreamShapeError('plainRenderOf', `cdk8s ApiObjectMetadataDefinition to have the fields ${METADATA_FIELDS.join(', ')}`);
  }
  type Fields = { labels: unknown; annotations: unknown; finalizers: unknown; ownerReferences: unknown; _additionalAttributes: unknown };
  const { labels, annotations, finalizers, ownerReferences, _additionalAttributes: additional } = metadata as unknown as Fields;
  const props = (apiObject as unknown as { props: unknown }).props;
  if (!isObject(props) || !isObject(additional)) return undefined;
  let json: unknown;
  try {
    // ApiObjectMetadataDefinition.toJson: these fields over the additional attributes, empty lists and maps left out
    // (laid over, not spread into a copy: cdk8s deletes a key of the attributes, which makes spreading them slow)
    const over = { name: metadata.name, namespace: metadata.namespace, annotations, finalizers, ownerReferences, labels };
    const renderedMetadata = sanitizedMap(additional, over, true, 0);
    if (renderedMetadata === NOT_PLAIN) return undefined;
    // ApiObject.toJson: the props with the rendered metadata, sorted and cleaned; no patch to apply
    json = sanitizedMap(props, { metadata: renderedMetadata }, false, 0);
  } catch {
    // a getter in the props that throws: cdk8s' render throws it in its own words
    return undefined;
  }
  if (json === NOT_PLAIN) return undefined;
  const sorted = json as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  const keys = ['apiVersion', 'kind', 'metadata', ...Object.keys(sorted)];
  for (let i = 0; i < keys.length; i++) if (keys[i] in sorted) result[keys[i]] = sorted[keys[i]];
  return result;
}

/** What `sanitizedPlain` returns for data it leaves to cdk8s. */
const NOT_PLAIN: unique symbol = Symbol('not plain');
/** How deep `sanitizedPlain` follows data: deeper (or a cycle) is left to cdk8s, which renders or refuses it. */
const PLAIN_DEPTH_MAX = 64;

/**
 * cdk8s' `sanitizeValue` of plain data as its resolvers leave it (`plainRenderOf`): a copy with each map's keys
 * sorted and its null and undefined values left out, a list's null or undefined elements as undefined, and with
 * `filterEmpty` (the metadata's `filterEmptyArrays` and `filterEmptyObjects`) empty lists and maps as undefined.
 * `NOT_PLAIN` for anything else, and for what cdk8s' resolvers would change or copy otherwise: a map with its own
 * `constructor` or `__proto__` key, a list with its own `value`, a list with holes.
 */
function sanitizedPlain(x: unknown, filterEmpty: boolean, depth: number): unknown {
  switch (typeof x) {
    case 'string':
    case 'number':
    case 'boolean':
      return x;
    case 'undefined':
      return undefined;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (x === null) return undefined;
  if (depth > PLAIN_DEPTH_MAX) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(x);
  if (proto === Array.prototype) {
    const list = x as unknown[];
    if (Object.hasOwn(list, 'value')) return NOT_PLAIN;
    if (filterEmpty && list.length === 0) return undefined;
    const copy: unknown[] = [];
    for (let i = 0; i < list.length; i++) {
      if (!(i in list)) return NOT_PLAIN;
      const v = sanitizedPlain(list[i], filterEmpty, depth + 1);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      copy.push(v);
    }
    return copy;
  }
  if (proto !== Object.prototype) return NOT_PLAIN;
  return sanitizedMap(x as Record<string, unknown>, undefined, filterEmpty, depth);
}

/**
 * `sanitizedPlain` of a map (of the Object prototype), or of `{ ...map, ...over }` without making that copy: the
 * keys of both, sorted, each value from `over` when it has the key.
 */
function sanitizedMap(map: Record<string, unknown>, over: Record<string, unknown> | undefined, filterEmpty: boolean, depth: number): unknown {
  const keys = Object.keys(map);
  if (over !== undefined) for (const key in over) if (!keys.includes(key)) keys.push(key);
  keys.sort();
  const copy: Record<string, unknown> = {};
  let kept = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'constructor' || key === '__proto__') return NOT_PLAIN;
    const v = sanitizedPlain(over !== undefined && Object.hasOwn(over, key) ? over[key] : map[key], filterEmpty, depth + 1);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    if (v !== undefined && v !== null) {
      copy[key] = v;
      kept++;
    }
  }
  return filterEmpty && kept === 0 ? undefined : copy;
}

/** The label and annotation maps of a cdk8s object's metadata (its private `labels` and `annotations`). */
export function labelMapsOf(metadata: ApiObjectMetadataDefinition): { labels: unknown; annotations: unknown } {
  const m = metadata as unknown as { labels?: unknown; annotations?: unknown };
  return { labels: m.labels, annotations: m.annotations };
}

/** Sets the label and annotation maps of a cdk8s object's metadata (its private `labels` and `annotations`), which `addLabel`, `addAnnotation` and `toJson()` read. */
export function setLabelMaps(metadata: ApiObjectMetadataDefinition, maps: { labels: object; annotations: object }): void {
  const m = metadata as unknown as { labels: object; annotations: object };
  m.labels = maps.labels;
  m.annotations = maps.annotations;
}

/**
 * The overrides of a CloudFormation resource (an aws-cdk `CfnResource`) as aws-cdk keeps them (`addOverride` builds this
 * tree; `undefined` deletes). Typed structurally here, as the functions below, so no declaration names aws-cdk-lib.
 */
export function rawOverridesOf(resource: IConstruct): Record<string, unknown> {
  const raw = (resource as unknown as { rawOverrides?: unknown }).rawOverrides;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UpstreamShapeError('rawOverridesOf', 'aws-cdk CfnResource.rawOverrides to be an object');
  return raw as Record<string, unknown>;
}

/**
 * The properties of a CloudFormation resource as its declaration renders them
 * (L1 props and what its L2 sets, aspects applied so far), overrides left
 * out, resolved in its stack: `renderProperties(cfnProperties)`, the way
 * aws-cdk renders them into the template.
 *
 * With `partial`, a resource that lacks a required property still renders,
 * without it: aws-cdk's generated validation refuses such props ("required
 * but missing", an `iam.Policy` declared with no statement), so the absent
 * properties are rendered as a CloudFormation intrinsic, which every
 * generated validator and mapper passes through unchanged, and left out of
 * the result. What else the validation refuses still throws, as without it.
 *
 * With `props`, those properties (a copy of `cfnProperties` taken earlier, before an aspect ran) are rendered
 * in place of what the resource holds now.
 */
export function declaredPropertiesOf(
  resource: IConstruct,
  { partial = false, props: given }: { readonly partial?: boolean; readonly props?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const r = resource as unknown as { cfnProperties?: unknown; renderProperties?: (props: unknown) => unknown };
  if (typeof r.renderProperties !== 'function') throw new UpstreamShapeError('declaredPropertiesOf', 'aws-cdk CfnResource.renderProperties to be a method');
  const props = given ?? r.cfnProperties;
  if (props === null || typeof props !== 'object') throw new UpstreamShapeError('declaredPropertiesOf', 'aws-cdk CfnResource.cfnProperties to be an object');
  const resolved = awsCdk().Stack.of(resource).resolve(props) as unknown;
  const render = (p: unknown) => {
    const rendered = r.renderProperties!.call(resource, p);
    return rendered !== null && typeof rendered === 'object' ? (rendered as Record<string, unknown>) : {};
  };
  try {
    return render(resolved);
  } catch (e) {
    const absent = partial && resolved !== null && typeof resolved === 'object' && !Array.isArray(resolved)
      ? Object.keys(props).filter((k) => (resolved as Record<string, unknown>)[k] == null)
      : [];
    if (absent.length === 0) throw e;
    return renderedWithout(render, resolved as Record<string, unknown>, absent, e);
  }
}

/**
 * Properties rendered with each of the properties `absent` stood in for by
 * one `Ref` (an intrinsic: aws-cdk's generated code neither validates nor
 * maps one), which the result then leaves out; `error` is thrown again when
 * that rendering fails too, or the stand-in is found anywhere but at the top.
 */
function renderedWithout(
  render: (props: unknown) => Record<string, unknown>, resolved: Record<string, unknown>, absent: readonly string[], error: unknown,
): Record<string, unknown> {
  const standIn = { Ref: 'cdk-capability:absent-property' };
  let rendered: Record<string, unknown>;
  try {
    rendered = render({ ...resolved, ...Object.fromEntries(absent.map((k) => [k, standIn])) });
  } catch {
    throw error;
  }
  const out = Object.fromEntries(Object.entries(rendered).filter(([, v]) => v !== standIn));
  if (holds(out, standIn)) throw error;
  return out;
}

/** Whether `value` holds `x` itself at any depth. */
function holds(value: unknown, x: object): boolean {
  if (value === x) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some((v) => holds(v, x));
}

/**
 * The template fragment of a CloudFormation element (a resource, output,
 * parameter), tokens unresolved: `_toCloudFormation()`, what aws-cdk resolves
 * to find the cross-stack references an element makes.
 */
export function elementTemplateOf(element: IConstruct): unknown {
  const e = element as unknown as { _toCloudFormation?: () => unknown };
  if (typeof e._toCloudFormation !== 'function') throw new UpstreamShapeError('elementTemplateOf', 'aws-cdk CfnElement._toCloudFormation to be a method');
  return e._toCloudFormation.call(element);
}

/**
 * Follows the writes into a CloudFormation resource's `cfnOptions` (its
 * resource attributes: `applyRemovalPolicy` and `addMetadata` write there, as
 * does a program that sets `cfnOptions.deletionPolicy`) until the returned
 * function is called: the object is swapped for a proxy of itself that tells
 * `onWrite` the name of each option set or deleted, even to the value it held.
 *
 * @returns the function that puts the options object back
 */
export function watchCfnOptions(resource: IConstruct, onWrite: (option: string) => void): () => void {
  const r = resource as unknown as { cfnOptions?: unknown };
  const options = r.cfnOptions;
  const own = Object.getOwnPropertyDescriptor(resource, 'cfnOptions');
  if (options === null || typeof options !== 'object' || !own?.writable) {
    throw new UpstreamShapeError('watchCfnOptions', 'aws-cdk CfnResource.cfnOptions to be an own, writable object property');
  }
  const proxy = new Proxy(options, {
    set: (target, key, value) => {
      if (typeof key === 'string') onWrite(key);
      return Reflect.set(target, key, value);
    },
    deleteProperty: (target, key) => {
      if (typeof key === 'string') onWrite(key);
      return Reflect.deleteProperty(target, key);
    },
  });
  r.cfnOptions = proxy;
  return () => {
    if (r.cfnOptions === proxy) r.cfnOptions = options;
  };
}

/** A tag a resource's tag manager holds: its value and the priority it was set with. */
export interface HeldTag {
  /** The value. */
  readonly value: string;
  /** The priority (50 for tags from the resource's props, a Tag aspect's priority, 0 for `setTag` without one). */
  readonly priority: number;
}

/** The tags an aws-cdk `TagManager` holds now, by key, with their priorities (its private `tags` and `priorities`). */
export function heldTagsOf(manager: object): Map<string, HeldTag> {
  const m = manager as unknown as { tags?: unknown; priorities?: unknown };
  if (!(m.tags instanceof Map) || !(m.priorities instanceof Map)) throw new UpstreamShapeError('heldTagsOf', 'aws-cdk TagManager.tags and TagManager.priorities to be Maps');
  const held = new Map<string, HeldTag>();
  for (const [key, tag] of m.tags as Map<string, { value?: unknown }>) {
    held.set(key, { value: String(tag?.value), priority: Number((m.priorities as Map<string, number>).get(key) ?? 0) });
  }
  return held;
}

/**
 * The scope an aws-cdk `Aspects` instance belongs to (`Aspects.of(scope)`,
 * its private `_scope`): the scope an `add` on it adds an aspect to.
 */
export function aspectsScopeOf(aspects: object): IConstruct {
  const scope = (aspects as { _scope?: unknown })._scope;
  if (scope === null || typeof scope !== 'object' || !('node' in scope)) throw new UpstreamShapeError('aspectsScopeOf', 'aws-cdk Aspects._scope to be a construct');
  return scope as IConstruct;
}

/**
 * The properties a CloudFormation resource's L1 holds now, unrendered and
 * unresolved (aws-cdk's protected `cfnProperties`, a new object on every
 * read for a generated L1): what an aspect changes when it sets an L1 property.
 */
export function cfnPropertiesOf(resource: IConstruct): Record<string, unknown> {
  const props = (resource as { cfnProperties?: unknown }).cfnProperties;
  if (props === null || typeof props !== 'object') throw new UpstreamShapeError('cfnPropertiesOf', 'aws-cdk CfnResource.cfnProperties to be an object');
  return props as Record<string, unknown>;
}

/** One application of an aspect to a scope, as aws-cdk's `AspectApplication` holds it. */
export interface HeldAspectApplication {
  /** The aspect. */
  readonly aspect: object;
  /** Its priority: a lower one runs first. */
  readonly priority: number;
}

/**
 * The list of aspect applications aws-cdk keeps for `scope` (the private
 * `_appliedAspects` of `Aspects.of(scope)`, which `add` appends to and
 * synthesis reads through `applied`): the list itself, to change in place.
 */
export function aspectApplicationList(scope: IConstruct): HeldAspectApplication[] {
  const list = (awsCdk().Aspects.of(scope) as unknown as { _appliedAspects?: unknown })._appliedAspects;
  if (!Array.isArray(list)) throw new UpstreamShapeError('aspectApplicationList', 'aws-cdk Aspects._appliedAspects to be an array');
  return list as HeldAspectApplication[];
}

function isOperation(x: unknown): x is JsonPatchOperation {
  return x !== null && typeof x === 'object' && typeof (x as JsonPatchOperation).op === 'string' && typeof (x as JsonPatchOperation).path === 'string';
}

/** True when the app of `apiObject` resolves with cdk8s' built-in resolvers alone, in their order, which leave plain data as it is. */
function builtInResolvers(apiObject: ApiObject): boolean {
  let resolvers: readonly unknown[];
  try {
    resolvers = App.of(apiObject).resolvers;
  } catch {
    return false;
  }
  const builtIn = [LazyResolver, ImplicitTokenResolver, NumberStringUnionResolver];
  const isBuiltIn = (r: unknown, i: number) => r instanceof builtIn[i] && (r as { resolve?: unknown }).resolve === builtIn[i].prototype.resolve;
  return resolvers.length === builtIn.length && resolvers.every(isBuiltIn);
}

function isObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype;
}

function isStringMap(x: Record<string, unknown>): boolean {
  for (const k of Object.keys(x)) if (typeof x[k] !== 'string') return false;
  return true;
}

/**
 * A canonical text of plain data (strings, finite or not numbers, booleans,
 * null, undefined, arrays, objects of the Object prototype), keys in their
 * order: equal texts are equal data. Undefined for anything else (a token, a
 * class instance, a function) and for a cycle.
 */
function plainText(x: unknown, ancestors: object[]): string | undefined {
  switch (typeof x) {
    case 'string': return JSON.stringify(x);
    case 'number': return Object.is(x, -0) ? '-0' : String(x);
    case 'boolean': return String(x);
    case 'undefined': return 'undefined';
    case 'object': break;
    default: return undefined;
  }
  if (x === null) return 'null';
  if (ancestors.includes(x)) return undefined;
  const isArray = Array.isArray(x) && Object.getPrototypeOf(x) === Array.prototype;
  if (!isArray && !isObject(x)) return undefined;
  ancestors.push(x);
  const parts: string[] = [];
  try {
    if (isArray) {
      for (const item of x as unknown[]) {
        const text = plainText(item, ancestors);
        if (text === undefined) return undefined;
        parts.push(text);
      }
      return `[${parts.join(',')}]`;
    }
    for (const [k, v] of Object.entries(x)) {
      const text = plainText(v, ancestors);
      if (text === undefined) return undefined;
      parts.push(`${JSON.stringify(k)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    ancestors.pop();
  }
}

/**
 * A construct's validations, each on its own (what `node.validate()` calls one after the other): read from
 * constructs' private `_validations`; undefined when its shape is not the one
 * known (constructs 10), so that the caller falls back to `node.validate()`.
 */
export function validationsOf(c: IConstruct): readonly IValidation[] | undefined {
  const node = c.node as unknown as { _validations?: unknown };
  // a field of every Node (constructs 10 declares it), undefined until the first addValidation
  if (!('_validations' in node)) return undefined;
  const validations = node._validations;
  if (validations === undefined) return [];
  return Array.isArray(validations) && validations.every((v) => typeof v?.validate === 'function') ? validations : undefined;
}
