import type { IConstruct } from 'constructs';
import { invalidInput, requireUnusedId } from './invalid-input';
import { requireConstructScope } from './misplaced';
import { valueText } from './value-text';

/** A capability id: letters, digits, `-`, `_` and `.`, starting with a letter (what aws-cdk requires of a `Stage`'s id). */
const CAPABILITY_ID = /^[a-z][a-z0-9\-_.]*$/i;

/**
 * Returns `scope` when `id` is a capability id; throws the `CAP010` refusal otherwise, before the capability
 * is added: `CAP010 invalid object: Capability 'a b' has the id "a b", ...`, naming the rule and an id that
 * keeps to it. A capability of either entry point keeps the rule, so one moves between them unchanged (the
 * `Capability` of `cdk-capability` is an aws-cdk `Stage`, which would throw an uncoded `InvalidStageName`).
 */
export function requireCapabilityId<T extends IConstruct>(scope: T, id: string): T {
  requireConstructScope(scope, id, 'Capability', `new Capability(app, '${typeof id === 'string' ? id : 'cdn'}')`);
  if (typeof id === 'string' && CAPABILITY_ID.test(id)) return requireUnusedId(scope, id, 'Capability', 'cdn');
  const path = scope.node.path ? `${scope.node.path}/${String(id)}` : String(id);
  const like = typeof id === 'string' ? id.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z]+/, '').replace(/-+$/, '') : '';
  const fix = like === '' ? 'Give it an id that starts with a letter, such as "cdn".' : `Give it an id such as ${JSON.stringify(like)}.`;
  throw invalidInput(
    `Capability '${path}' has the id ${valueText(id)}, which no capability may have: a capability id is letters, digits, '-', '_' and '.', `
      + `starting with a letter (the id aws-cdk takes for a Stage). ${fix}`,
    path,
  );
}
