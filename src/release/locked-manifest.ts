import { KNOWN_AFTER_DEPLOY, SENSITIVE } from './lock';

/** One step of a path of `LockedUnit.values`: a map key or a list index. */
type Step = string | number;

/**
 * The steps of a path of `LockedUnit.values` (`spec.template.spec.containers[0].image`,
 * `metadata.labels["app.kubernetes.io/name"]`): a key as itself after `.` (or first), a key that is no
 * identifier as a JSON string in brackets, a list index as digits in brackets.
 *
 * @returns the steps, or undefined for a path not of that form
 */
export function valuePathSteps(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '[') {
      const index = /^\[(\d+)\]/.exec(path.slice(i));
      if (index) {
        steps.push(Number(index[1]));
        i += index[0].length;
        continue;
      }
      const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(path.slice(i));
      if (!quoted) return undefined;
      steps.push(JSON.parse(quoted[1]) as string);
      i += quoted[0].length;
      continue;
    }
    if (path[i] === '.') {
      if (steps.length === 0) return undefined;
      i++;
    } else if (steps.length > 0) {
      return undefined;
    }
    const name = /^[A-Za-z_$][\w$-]*/.exec(path.slice(i));
    if (!name) return undefined;
    steps.push(name[0]);
    i += name[0].length;
  }
  return steps.length > 0 ? steps : undefined;
}

/**
 * The manifest a locked object's leaves describe (`LockedUnit.values`, the inverse of how the lock records
 * them): what the previous release applied, with `(sensitive)` and `(known after deploy)` where the lock
 * holds no value. A path not of the lock's form is left out.
 *
 * @param values the leaves by path, as the lock records them
 */
export function lockedManifest(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const steps = valuePathSteps(path);
    if (!steps) continue;
    let node: any = root;
    steps.forEach((step, i) => {
      if (i === steps.length - 1) {
        node[step] = structuredClone(value);
        return;
      }
      if (node[step] === undefined || node[step] === null || typeof node[step] !== 'object') node[step] = typeof steps[i + 1] === 'number' ? [] : {};
      node = node[step];
    });
  }
  return root;
}

/** True when the lock holds no value for a leaf, only what stands for one (`(sensitive)`, `(known after deploy)`). */
export function isMaskedValue(value: unknown): boolean {
  return value === SENSITIVE || value === KNOWN_AFTER_DEPLOY;
}
