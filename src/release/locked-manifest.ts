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
  const steps = namedSteps(path);
  return steps && onlyIndexSteps(steps) ? steps : undefined;
}

const onlyIndexSteps = (steps: readonly NamedStep[]): steps is Step[] => steps.every((step) => typeof step !== 'object');

/** How the lock writes a map key after `.` in an index path (`LockedUnit.values` of format 1); else quoted in brackets. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** One step of a lock path that may name list elements by their keys: a map key, an index, or an element's segment. */
export type NamedStep = string | number | { readonly element: string };

/**
 * The steps of a path of `LockedUnit.values` as a lock of format 2 writes it, keyed list elements by their keys
 * (`spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value`), set values by themselves
 * (`metadata.finalizers[=example.com/protect]`): an element's segment is the text in brackets, up to the `]`
 * followed by `.`, `[` or the end, and is kept whole (it only has to tell the list's elements apart).
 */
export function namedSteps(path: string): NamedStep[] | undefined {
  const steps: NamedStep[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '[') {
      const rest = path.slice(i);
      const index = /^\[(\d+)\]/.exec(rest);
      const quoted = index ? undefined : /^\[("(?:[^"\\]|\\.)*")\](?=$|[.[])/.exec(rest);
      if (index || quoted) {
        steps.push(index ? Number(index[1]) : (JSON.parse(quoted![1]) as string));
        i += (index ?? quoted)![0].length;
        continue;
      }
      const element = /^\[.*?\](?=$|[.[])/.exec(rest);
      if (!element) return undefined;
      steps.push({ element: element[0] });
      i += element[0].length;
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
 * The steps of the paths of `LockedUnit.values`, each path parsed once (`valuePathSteps`, and with keyed elements).
 * Reading one object's leaves parses each path several times, and a lock's objects of one shape share their paths
 * (`LeafPaths`): one per lock (`buildLock`) or per call, so nothing outlives a synth. The steps it returns are shared:
 * read them, never change them.
 */
export class LockPathSteps {
  private readonly parsed = new Map<string, readonly NamedStep[] | undefined>();

  /** The steps of a path, a keyed element's segment as `{ element }`; undefined for a path not of the lock's form. */
  public named(path: string): readonly NamedStep[] | undefined {
    let steps = this.parsed.get(path);
    if (steps === undefined && !this.parsed.has(path)) {
      steps = namedSteps(path);
      this.parsed.set(path, steps);
    }
    return steps;
  }

  /** The steps of an index path (`valuePathSteps`): undefined for a path with a keyed element, or not of the lock's form. */
  public indexed(path: string): readonly Step[] | undefined {
    const steps = this.named(path);
    return steps && onlyIndexSteps(steps) ? steps : undefined;
  }
}

/**
 * The leaves of a locked object by index path, as a lock of format 1 records them
 * (`spec.template.spec.containers[1].env[0].value`), whichever format the lock has: a leaf of format 2 in a keyed
 * element (`containers[name=web]`) gets that element's place in its list, the elements of one list numbered in the
 * order their leaves come (the manifest's order, which the lock keeps). A path of neither form is kept as it is.
 *
 * @param values the leaves by path, as the lock records them
 * @returns each leaf's index path, with the path the lock records it by, in the lock's order
 */
export function indexedLeaves(
  values: Readonly<Record<string, unknown>>,
  paths: LockPathSteps = new LockPathSteps(),
): Array<{ readonly path: string; readonly source: string }> {
  const places = new Map<string, Map<string, number>>();
  return Object.keys(values).map((source) => {
    const steps = paths.named(source);
    if (!steps || !steps.some((s) => typeof s === 'object')) return { path: source, source };
    let path = '';
    for (const step of steps) {
      if (typeof step === 'number') {
        path += `[${step}]`;
      } else if (typeof step === 'string') {
        path += PLAIN_KEY.test(step) ? `${path === '' ? '' : '.'}${step}` : `[${JSON.stringify(step)}]`;
      } else {
        let list = places.get(path);
        if (!list) places.set(path, (list = new Map()));
        let place = list.get(step.element);
        if (place === undefined) list.set(step.element, (place = list.size));
        path += `[${place}]`;
      }
    }
    return { path, source };
  });
}

/**
 * The leaves of a locked object by index path (`indexedLeaves`), with their values: what a reader of the manifest
 * the lock describes reads, whichever format the lock has.
 */
export function indexedValues(values: Readonly<Record<string, unknown>>, paths: LockPathSteps = new LockPathSteps()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { path, source } of indexedLeaves(values, paths)) out[path] = values[source];
  return out;
}

/**
 * The manifest a locked object's leaves describe (`LockedUnit.values`, the inverse of how the lock records
 * them): what the previous release applied, with `(sensitive)` and `(known after deploy)` where the lock
 * holds no value. Keyed elements (a lock of format 2) take their places in their lists (`indexedValues`). A path
 * not of the lock's form is left out.
 *
 * @param values the leaves by path, as the lock records them
 */
export function lockedManifest(values: Readonly<Record<string, unknown>>, paths: LockPathSteps = new LockPathSteps()): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(indexedValues(values, paths))) {
    const steps = paths.indexed(path);
    if (!steps) continue;
    let node: any = root;
    steps.forEach((step, i) => {
      if (i === steps.length - 1) {
        node[step] = copyOf(value);
        return;
      }
      if (node[step] === undefined || node[step] === null || typeof node[step] !== 'object') node[step] = typeof steps[i + 1] === 'number' ? [] : {};
      node = node[step];
    });
  }
  return root;
}

/** A leaf's value to place in a manifest: a copy of a map or list (`{}`, `[]`), a string, number, boolean or null as it is. */
function copyOf(value: unknown): unknown {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : structuredClone(value);
}

/** True when the lock holds no value for a leaf, only what stands for one (`(sensitive)`, `(known after deploy)`). */
export function isMaskedValue(value: unknown): boolean {
  return value === SENSITIVE || value === KNOWN_AFTER_DEPLOY;
}
