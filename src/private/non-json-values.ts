import type { CfnResource } from 'aws-cdk-lib';
import { awsCdk } from './aws-cdk';
import { nonJsonIn } from './loose-values';
import { nonJsonKind } from './manifest-walk';
import { cfnPropertiesOf } from './upstream-state';

/** How a program wrote a value: the API and, when known, where (`file:line`). */
export interface ValueCall {
  /** The API called: `addPropertyOverride`, `addOverride`, ... */
  readonly api: string;
  /** Where the program made the call, if known. */
  readonly site: string | undefined;
}

/**
 * Makes `resource` fail its own validation (`CAP010` at synth) when an override gives it a value JSON has no
 * form for (a BigInt, a Symbol, a function): aws-cdk would leave a BigInt or Symbol out of the template without a
 * word, or fail to render it.
 */
export function refuseNonJsonOverride(resource: CfnResource, call: ValueCall, path: string, value: unknown): void {
  const found = nonJsonValue(value);
  if (!found) return;
  // addPropertyOverride('Value') is addOverride('Properties.Value'): named as the program wrote it
  const written = call.api === 'addPropertyOverride' && path.startsWith('Properties.') ? path.slice('Properties.'.length) : path;
  const at = [written, ...found.path].join('.');
  resource.node.addValidation({
    validate: () => [
      `${call.api}${call.site ? ` at ${call.site}` : ''} gives '${at}' ${found.kind}, which JSON has no form for: aws-cdk would leave it out of the template or fail to render it. Give it as a string or a number.`,
    ],
  });
}

/**
 * The problem of a raw `CfnResource` (`new CfnResource(scope, id, { type, properties })`, and the one a
 * `CustomResource` declares) whose properties hold a value JSON has no form for (a BigInt, a Symbol, a function),
 * as a failed validation of its own says it (`CAP010`): aws-cdk renders a BigInt or a Symbol as `{}` without a
 * word. Undefined for any other resource: a generated L1 (`CfnParameter`, ...) validates its properties itself
 * and refuses such a value.
 */
export function nonJsonPropertiesProblem(resource: CfnResource): string | undefined {
  const raw = awsCdk().CfnResource.prototype as unknown as { renderProperties: unknown };
  // a generated L1 renders (and validates) its properties with its own renderProperties
  if ((resource as unknown as { renderProperties: unknown }).renderProperties !== raw.renderProperties) return undefined;
  const found = nonJsonValue(cfnPropertiesOf(resource));
  if (!found) return undefined;
  const effect = found.kind === 'a function' ? 'aws-cdk fails to resolve it' : 'aws-cdk would render it as {} in the template without a word';
  return `its properties give '${found.path.join('.')}' ${found.kind}, which JSON has no form for: ${effect}. Give it as a string or a number.`;
}

/** The first value JSON has no form for in a value (itself, or inside its maps and lists). */
function nonJsonValue(value: unknown): { path: readonly string[]; kind: string } | undefined {
  const kind = nonJsonKind(value);
  if (kind) return { path: [], kind };
  if (value === null || typeof value !== 'object') return undefined;
  const found = nonJsonIn(value);
  // a handle or a value that holds itself: aws-cdk's resolve refuses those itself
  return found && !found.handle && !found.cycleTo ? found : undefined;
}
