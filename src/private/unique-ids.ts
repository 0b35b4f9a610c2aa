import type { IConstruct } from 'constructs';
import { awsCdk } from './aws-cdk';

/**
 * Runs `fn` with aws-cdk's `Names.uniqueId` kept per construct, as it computes it. aws-cdk's `addStackDependency`
 * computes the target stack's unique id twice a call (an MD5 of its path, in JavaScript: about 40 µs), so making
 * N tenant aggregates depend on one shared base hashed the same path 2N times. A construct's unique id is made of
 * the ids of its scopes, which never change once it exists, so a kept one is the one aws-cdk would compute again;
 * a call that throws is not kept. `Names.uniqueId` is itself again when `fn` returns or throws.
 */
export function keepingUniqueIds<T>(fn: () => T): T {
  const names = awsCdk().Names as unknown as { uniqueId: (construct: IConstruct) => string };
  const compute = names.uniqueId;
  const kept = new WeakMap<IConstruct, string>();
  names.uniqueId = function uniqueId(construct: IConstruct): string {
    if (construct === null || typeof construct !== 'object') return compute.call(this, construct);
    let id = kept.get(construct);
    if (id === undefined) kept.set(construct, (id = compute.call(this, construct)));
    return id;
  };
  try {
    return fn();
  } finally {
    names.uniqueId = compute;
  }
}
