import { ApiObject, JsonPatch } from 'cdk8s';
import type { IConstruct } from 'constructs';
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
 */
export function declaredPropertiesOf(resource: IConstruct): Record<string, unknown> {
  const r = resource as unknown as { cfnProperties?: unknown; renderProperties?: (props: unknown) => unknown };
  if (typeof r.renderProperties !== 'function') throw new UpstreamShapeError('declaredPropertiesOf', 'aws-cdk CfnResource.renderProperties to be a method');
  const props = r.cfnProperties;
  if (props === null || typeof props !== 'object') throw new UpstreamShapeError('declaredPropertiesOf', 'aws-cdk CfnResource.cfnProperties to be an object');
  const rendered = r.renderProperties.call(resource, awsCdk().Stack.of(resource).resolve(props));
  return rendered !== null && typeof rendered === 'object' ? (rendered as Record<string, unknown>) : {};
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

function isOperation(x: unknown): x is JsonPatchOperation {
  return x !== null && typeof x === 'object' && typeof (x as JsonPatchOperation).op === 'string' && typeof (x as JsonPatchOperation).path === 'string';
}
