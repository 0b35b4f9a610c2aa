import type { CfnResource } from 'aws-cdk-lib';
import { awsCdk } from './aws-cdk';
import { hasBrand } from './brand';
import { nonJsonIn } from './loose-values';
import { nonJsonKind } from './manifest-walk';
import { isPlainMap } from './maps';
import { ownValidation } from './own-validation';
import { cfnPropertiesOf } from './upstream-state';

/** How a program wrote a value: the API and, when known, where (`file:line`). */
export interface ValueCall {
  /** The API called: `addPropertyOverride`, `addOverride`, ... */
  readonly api: string;
  /** Where the program made the call, if known. */
  readonly site: string | undefined;
}

/**
 * Makes `resource` fail its own validation (`CAP010` at synth) when an override gives it a value aws-cdk loses
 * (`lostKind`): a BigInt, a Symbol, a function, NaN or an infinity, which JSON has no form for, or a `Map`, a
 * `Set`, a `RegExp`, a `Date` or a Buffer, which aws-cdk leaves out of the template without a word.
 */
export function refuseNonJsonOverride(resource: CfnResource, call: ValueCall, path: string, value: unknown): void {
  const found = nonJsonValue(value, 'override');
  if (!found) return;
  // addPropertyOverride('Value') is addOverride('Properties.Value'): named as the program wrote it
  const written = call.api === 'addPropertyOverride' && path.startsWith('Properties.') ? path.slice('Properties.'.length) : path;
  const at = [written, ...found.path].join('.');
  resource.node.addValidation(ownValidation({
    // the recording wraps aws-cdk for its whole process: an app that is no CapabilityApp keeps aws-cdk's behaviour
    validate: () => (hasBrand(resource.node.root, 'CapabilityApp')
      ? [`${call.api}${call.site ? ` at ${call.site}` : ''} gives '${at}' ${found.kind}${lossOf(found.kind, 'override')}`]
      : []),
  }));
}

/**
 * The problem of a raw `CfnResource` (`new CfnResource(scope, id, { type, properties })`, and the one a
 * `CustomResource` declares) whose properties hold a value aws-cdk loses (`lostKind`), as a failed validation of
 * its own says it (`CAP010`): aws-cdk renders a BigInt, a Symbol, a `Map` as `{}` without a word. Undefined for
 * any other resource: a generated L1 (`CfnParameter`, ...) validates its properties itself and refuses such a
 * value.
 */
export function nonJsonPropertiesProblem(resource: CfnResource): string | undefined {
  const raw = awsCdk().CfnResource.prototype as unknown as { renderProperties: unknown };
  // a generated L1 renders (and validates) its properties with its own renderProperties
  if ((resource as unknown as { renderProperties: unknown }).renderProperties !== raw.renderProperties) return undefined;
  const found = nonJsonValue(cfnPropertiesOf(resource), 'properties');
  if (!found) return undefined;
  return `its properties give '${found.path.join('.')}' ${found.kind}${lossOf(found.kind, 'properties')}`;
}

/**
 * What a value in a CloudFormation resource's properties or override is when aws-cdk loses it without a word,
 * as messages name it: JSON has no form for a BigInt, a Symbol, a function, NaN or an infinity (aws-cdk writes
 * `null` for the last two); a `Map`, a `Set` or a `RegExp` resolves to `{}` and an override drops it; a Buffer
 * or typed array resolves to a map of its bytes by index. `where` says where: a `Date` in properties is written as
 * its ISO text, in an override dropped. A token (an object with `resolve`), a plain map, a list and an instance
 * of another class (which aws-cdk renders by its own fields) are undefined.
 */
function lostKind(value: unknown, where: 'properties' | 'override'): string | undefined {
  const kind = nonJsonKind(value);
  if (kind) return kind;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : String(value);
  if (value === null || typeof value !== 'object') return undefined;
  if (value instanceof Map) return 'a Map';
  if (value instanceof Set) return 'a Set';
  if (value instanceof RegExp) return 'a RegExp';
  if (ArrayBuffer.isView(value)) return `a ${Buffer.isBuffer(value) ? 'Buffer' : value.constructor.name}`;
  if (value instanceof Date && where === 'override') return 'a Date';
  return undefined;
}

/** What aws-cdk does with a value of `kind` (`lostKind`) given `where`, and the fix: the message after the kind. */
function lossOf(kind: string, where: 'properties' | 'override'): string {
  const dropped = where === 'override' ? 'aws-cdk would leave it out of the template without a word' : 'aws-cdk would render it as {} in the template without a word';
  switch (kind) {
    case 'a BigInt':
    case 'a Symbol':
    case 'a function':
      // the override's words since it was first refused; a raw resource's say which
      return where === 'override'
        ? ', which JSON has no form for: aws-cdk would leave it out of the template or fail to render it. Give it as a string or a number.'
        : `, which JSON has no form for: ${kind === 'a function' ? 'aws-cdk fails to resolve it' : dropped}. Give it as a string or a number.`;
    case 'NaN':
    case 'Infinity':
    case '-Infinity':
      return ', which JSON has no form for: aws-cdk would write null in the template. Give it as a finite number, or as a string.';
    case 'a Map':
      return `: ${dropped}. Give it as a plain object, such as Object.fromEntries(map).`;
    case 'a Set':
      return `: ${dropped}. Give it as a list, such as [...set].`;
    case 'a RegExp':
      return `: ${dropped}. Give it as a string, such as its source.`;
    case 'a Date':
      return `: ${dropped}. Give it as a string, such as date.toISOString().`;
    default:
      // a Buffer or typed array
      return ": aws-cdk would write a map of its bytes by index in the template. Give it as a string, such as buffer.toString('base64'), or a list of numbers.";
  }
}

/** The first value aws-cdk loses (`lostKind`) in a value: itself, or inside its maps and lists. */
function nonJsonValue(value: unknown, where: 'properties' | 'override'): { path: readonly string[]; kind: string } | undefined {
  const kindOf = (v: unknown) => lostKind(v, where);
  const kind = kindOf(value);
  if (kind) return { path: [], kind };
  // a token (`resource.getAtt('Arn')`, which holds a Map of its own) or another class's instance is the resolver's
  if (value === null || typeof value !== 'object' || (!Array.isArray(value) && !isPlainMap(value))) return undefined;
  const found = nonJsonIn(value, kindOf);
  // a handle or a value that holds itself: aws-cdk's resolve refuses those itself
  return found && !found.handle && !found.cycleTo ? found : undefined;
}
