// Runs CEL expressions in a conformant evaluator we did not write (@bufbuild/cel), with the string
// extension the API server has (ext.Strings, for `join`), on values built from JSON the way the API
// server hands objects to CEL: maps, lists, int64 integers (bigint here), doubles, strings, booleans, null.
import { celEnv, isCelError, isCelList, isCelMap, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

const ENV = celEnv({ funcs: strings });

/** A JSON value as CEL input: objects become `Map`s, integers `bigint`s. */
export function toCel(value: unknown): any {
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return value;
}

/** A CEL result as plain JSON-like data (maps to objects, lists to arrays, bigints to numbers). */
export function fromCel(value: unknown): any {
  if (isCelList(value)) return [...value].map(fromCel);
  if (isCelMap(value)) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), fromCel(v)]));
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** A compiled expression: evaluating returns the value or throws the evaluation error. */
export type Program = (bindings: Record<string, unknown>) => unknown;

/**
 * Parses and plans an expression.
 *
 * @throws when it does not parse
 */
export function compile(expression: string): Program {
  const run = plan(ENV, parse(expression));
  return (bindings) => {
    const result = run(bindings as any);
    if (isCelError(result)) throw new Error(`CEL evaluation error in ${expression.slice(0, 120)}: ${result.message}`);
    return result;
  };
}
