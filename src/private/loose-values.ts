import { FieldHandleOrigin, fieldHandleOrigin } from './field-handle';
import { nonJsonKind } from './manifest-walk';
import { isPlainMap } from './maps';

/**
 * Reading a manifest the program wrote, before any check has refused it: a value may be anything a TypeScript
 * program can put there (a number where a list goes, a Symbol as a name), and reading it must not throw.
 */

/** `x` when it is a list, else no elements. */
export function asList(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}

/**
 * A list element's key as a field name shows it (`containers[name=web]`). A key the program gave as a Symbol,
 * which a template literal refuses to convert, reads as `Symbol(...)`: the object is refused for it later
 * (`CAP010`), not while it is read.
 */
export function keyText(v: unknown): string {
  return typeof v === 'symbol' ? v.toString() : String(v);
}

/**
 * True when `value` holds itself: a map or list that holds, at any depth, a map or list above it. No walk of such
 * a value ends; JSON and YAML have no form for it (cdk8s and aws-cdk refuse it when they resolve it). Only maps
 * and lists are walked into, as `nonJsonIn` walks them: a token or another class's instance is the resolvers'.
 */
export function holdsItself(value: unknown): boolean {
  return value !== null && typeof value === 'object' && firstLooseValue(value, true) !== undefined;
}

/**
 * The first value in `fields` that JSON has no form for (a function, a Symbol, a BigInt), that is a contract
 * field's handle, or that holds a map or list above it (`cycleTo`: the path of that map or list), with its path;
 * undefined when there is none. Only maps and lists are walked into: an instance of a class (a cdk8s `Lazy`, an
 * aws-cdk token, an `IntOrString`) is for the resolvers of cdk8s or aws-cdk to produce at synth.
 *
 * @param kindOf what a value is when it is one to find (`a BigInt`), else undefined: `nonJsonKind` unless a
 *   caller knows more values its renderer loses (aws-cdk's, a `Map`)
 */
export function nonJsonIn(fields: object, kindOf: (value: unknown) => string | undefined = nonJsonKind): LooseValue | undefined {
  return firstLooseValue(fields, false, kindOf);
}

/** What `nonJsonIn` finds, and where. */
export interface LooseValue {
  readonly path: string[];
  readonly kind: string;
  readonly handle?: FieldHandleOrigin;
  readonly cycleTo?: string[];
}

/** `nonJsonIn`'s walk; with `cyclesOnly`, values JSON has no form for are passed over and only a cycle is found. */
function firstLooseValue(fields: object, cyclesOnly: boolean, kindOf: (value: unknown) => string | undefined = nonJsonKind): LooseValue | undefined {
  // each map or list with the maps and lists above it: one that holds an object above it is a cycle, which no
  // walk (the merge, the renderers) would end
  const open: Array<{ value: object; path: string[]; above: object[] }> = [{ value: fields, path: [], above: [] }];
  const walked = new Set<object>();
  while (open.length > 0) {
    const { value, path, above } = open.pop()!;
    walked.add(value);
    const chain = [...above, value];
    // Array.from visits the holes of a sparse list (`[, 'b']`), which map skips
    const entries = Array.isArray(value) ? Array.from(value, (v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, child] of entries) {
      const at = [...path, key];
      if (!cyclesOnly) {
        const handle = fieldHandleOrigin(child);
        if (handle) return { path: at, kind: 'a handle', handle };
        const kind = kindOf(child);
        if (kind) return { path: at, kind };
      }
      if (!Array.isArray(child) && !isPlainMap(child)) continue;
      const cycle = chain.indexOf(child);
      if (cycle !== -1) return { path: at, kind: 'a cycle', cycleTo: path.slice(0, cycle) };
      // a map or list held twice (not in a cycle) has no other values the second time
      if (!walked.has(child)) open.push({ value: child, path: at, above: chain });
    }
  }
  return undefined;
}
