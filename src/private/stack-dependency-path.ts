import type { Stack } from 'aws-cdk-lib';

/**
 * The stacks from `from` to `to` along the stack dependencies made so far
 * (`Stack.dependencies`: `from` depends on the next, and so on), both
 * included, found breadth first: a shortest path. Undefined when `from` does
 * not depend on `to`.
 */
export function stackDependencyPath(from: Stack, to: Stack): Stack[] | undefined {
  const previous = new Map<Stack, Stack | undefined>([[from, undefined]]);
  const queue = [from];
  for (let head = 0; head < queue.length && !previous.has(to); head++) {
    for (const next of queue[head].dependencies) {
      if (previous.has(next)) continue;
      previous.set(next, queue[head]);
      queue.push(next);
    }
  }
  if (!previous.has(to)) return undefined;
  const path: Stack[] = [];
  for (let at: Stack | undefined = to; at; at = previous.get(at)) path.unshift(at);
  return path;
}
