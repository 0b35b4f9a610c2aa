// The API server's CEL cost model, as an estimate of the most an expression can cost at run time on
// objects of given sizes. Ported, not copied, from:
// - google/cel-go interpreter/runtimecost.go and checker/cost.go at 14f6746a (the cost of each step:
//   an identifier or a select 1, a constant 0, a list literal 10, a map literal 30, a call 1 unless
//   it traverses: `==` ceil(0.1 x the smaller size), `in` a list its size, string `+` 0.1 x the
//   sizes; `&&`, `||` and `?:` nothing of their own; a comprehension its range's size times one
//   iteration), common/cost.go for the constants;
// - kubernetes/apiserver pkg/cel/environment/base.go and pkg/cel/library/cost.go at 24a394e51:
//   presence tests (`has`) cost nothing (PresenceTestHasCost(false)), `join` ceil(0.2 x its result's
//   size), programs built with OptOptimize (a list or map literal of constants is built once: free);
//   pkg/apis/cel/config.go for the limits below.
// The API server type-checks nothing of `object` (a dyn), so the cost of a step depends on what the
// value is at run time: here the kind's field topology says whether a path holds a map, a list or a
// scalar, and `sizes` bounds how long they are.
import { parse } from '@bufbuild/cel';
import { DEDUCED, FieldTopology, SCALAR } from '../../src/collect/topology/field-topology';

/** The most one expression may cost (celconfig.PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** The most one policy's expressions may cost together for one request (celconfig.RuntimeCELCostBudget). */
export const RUNTIME_COST_BUDGET = 10_000_000;

const STRING_TRAVERSAL = 0.1;
const LIST_CREATE = 10;
const MAP_CREATE = 30;

/** How large the values of the objects can be: the longest list, the largest map, the longest string. */
export interface SizeModel {
  readonly list: number;
  readonly map: number;
  readonly string: number;
}

/** What a value is, as far as cost goes. */
type Shape =
  | { readonly kind: 'data'; readonly node: FieldTopology }
  | { readonly kind: 'list'; readonly size: number; readonly element: Shape; readonly content?: number }
  | { readonly kind: 'map'; readonly size: number; readonly value: Shape }
  | { readonly kind: 'string'; readonly size: number }
  | { readonly kind: 'scalar' }
  | { readonly kind: 'variables' }
  | { readonly kind: 'request' };

/** An expression's most expensive run, and what it produces. */
export interface Estimate {
  readonly cost: number;
  readonly shape: Shape;
  /** True for a constant (a literal, or a literal built of constants). */
  readonly constant: boolean;
}

/** The inputs an estimate needs. */
export interface CostContext {
  /** The topology of the kind `object` and `oldObject` are. */
  readonly topology: FieldTopology;
  /** Bounds on the sizes of their values. */
  readonly sizes: SizeModel;
  /** The policy's variables estimated so far, by name (`variables.<name>` costs a select, its evaluation is counted once per policy). */
  readonly variables: ReadonlyMap<string, Estimate>;
}

const SCALAR_SHAPE: Shape = { kind: 'scalar' };

/** The estimate of an expression: its most expensive run on objects within `sizes`. */
export function estimate(expression: string, context: CostContext): Estimate {
  return new Estimator(context).estimate(parse(expression).expr, new Map());
}

class Estimator {
  public constructor(private readonly context: CostContext) {}

  public estimate(e: any, locals: ReadonlyMap<string, Shape>): Estimate {
    const { case: kind, value } = e.exprKind;
    switch (kind) {
      case 'constExpr':
        return { cost: 0, shape: constantShape(value), constant: true };
      case 'identExpr':
        return { cost: 1, shape: this.identShape(value.name, locals), constant: false };
      case 'selectExpr': {
        const operand = this.estimate(value.operand, locals);
        if (value.testOnly) return { cost: operand.cost, shape: SCALAR_SHAPE, constant: false };
        return { cost: operand.cost + 1, shape: this.field(operand.shape, value.field), constant: false };
      }
      case 'listExpr': {
        const elements = value.elements.map((x: any) => this.estimate(x, locals));
        const constant = elements.every((x: Estimate) => x.constant);
        const widen = (a: Shape | undefined, x: Estimate) => (a ? widest(a, x.shape, this.context.sizes) : x.shape);
        const element = elements.reduce(widen, undefined) ?? SCALAR_SHAPE;
        const content = elements.reduce((total: number, x: Estimate) => total + sizeOf(x.shape, this.context.sizes), 0);
        return { cost: constant ? 0 : sum(elements) + LIST_CREATE, shape: { kind: 'list', size: elements.length, element, content }, constant };
      }
      case 'structExpr': {
        const parts = value.entries.flatMap((entry: any) => [this.estimate(entry.keyKind.value, locals), this.estimate(entry.value, locals)]);
        const constant = parts.every((x: Estimate) => x.constant);
        const values = parts.filter((_: Estimate, i: number) => i % 2 === 1).map((x: Estimate) => x.shape);
        const shape: Shape = { kind: 'map', size: value.entries.length, value: values.reduce((a: Shape, s: Shape) => widest(a, s, this.context.sizes), values[0] ?? SCALAR_SHAPE) };
        return { cost: constant ? 0 : sum(parts) + MAP_CREATE, shape, constant };
      }
      case 'comprehensionExpr':
        return this.comprehension(value, locals);
      case 'callExpr':
        return this.call(value, locals);
      default:
        throw new Error(`cannot estimate a ${kind}`);
    }
  }

  private identShape(name: string, locals: ReadonlyMap<string, Shape>): Shape {
    const local = locals.get(name);
    if (local) return local;
    if (name === 'object' || name === 'oldObject') return { kind: 'data', node: this.context.topology };
    if (name === 'variables') return { kind: 'variables' };
    if (name === 'request') return { kind: 'request' };
    throw new Error(`unknown identifier ${name}`);
  }

  private field(shape: Shape, name: string): Shape {
    switch (shape.kind) {
      case 'variables': {
        const variable = this.context.variables.get(name);
        if (!variable) throw new Error(`variables.${name} is not defined before it is used`);
        return variable.shape;
      }
      case 'request':
        return name === 'userInfo' || name === 'kind' || name === 'resource' ? { kind: 'request' } : { kind: 'string', size: 253 };
      case 'data':
        return { kind: 'data', node: shape.node.field(name) };
      case 'map':
        return shape.value;
      default:
        return SCALAR_SHAPE;
    }
  }

  /** A comprehension: the range, the accumulator's start, then each iteration's condition and step, then the result. */
  private comprehension(c: any, locals: ReadonlyMap<string, Shape>): Estimate {
    const range = this.estimate(c.iterRange, locals);
    const init = this.estimate(c.accuInit, locals);
    const count = sizeOf(range.shape, this.context.sizes);
    const inner = new Map(locals);
    inner.set(c.iterVar, elementOf(range.shape));
    // the accumulator of filter and map grows to the range's size
    inner.set(c.accuVar, init.shape.kind === 'list' ? { kind: 'list', size: count, element: SCALAR_SHAPE } : init.shape);
    const condition = this.estimate(c.loopCondition, inner);
    const step = this.estimate(c.loopStep, inner);
    const result = this.estimate(c.result, inner);
    const shape = init.shape.kind === 'list' ? { kind: 'list' as const, size: count, element: listElementOf(step.shape) } : result.shape;
    return { cost: range.cost + init.cost + count * (condition.cost + step.cost) + result.cost, shape, constant: false };
  }

  private call(call: any, locals: ReadonlyMap<string, Shape>): Estimate {
    const args: Estimate[] = [...(call.target ? [this.estimate(call.target, locals)] : []), ...call.args.map((a: any) => this.estimate(a, locals))];
    const sizes = this.context.sizes;
    const argCost = sum(args);
    const shape = (i: number) => args[i].shape;
    switch (call.function) {
      case '_&&_':
      case '_||_':
        return { cost: argCost, shape: SCALAR_SHAPE, constant: false };
      case '_?_:_':
        return { cost: args[0].cost + Math.max(args[1].cost, args[2].cost), shape: widest(shape(1), shape(2), sizes), constant: false };
      case '_==_':
      case '_!=_':
        const smaller = Math.min(sizeOf(shape(0), sizes), sizeOf(shape(1), sizes));
        return { cost: argCost + Math.max(1, Math.ceil(smaller * STRING_TRAVERSAL)), shape: SCALAR_SHAPE, constant: false };
      case '@in': {
        const container = shape(1);
        const isMap = container.kind === 'map' || (container.kind === 'data' && isMapNode(container.node));
        return { cost: argCost + (isMap ? 1 : sizeOf(container, sizes)), shape: SCALAR_SHAPE, constant: false };
      }
      case '_+_': {
        const [a, b] = [shape(0), shape(1)];
        if (a.kind === 'list' || b.kind === 'list') {
          return { cost: argCost + 1, shape: { kind: 'list', size: sizeOf(a, sizes) + sizeOf(b, sizes), element: widest(elementOf(a), elementOf(b), sizes) }, constant: false };
        }
        const size = sizeOf(a, sizes) + sizeOf(b, sizes);
        return { cost: argCost + Math.ceil(size * STRING_TRAVERSAL), shape: { kind: 'string', size }, constant: false };
      }
      case '_[_]':
        return { cost: argCost + 1, shape: elementOf(shape(0), true), constant: false };
      case 'join': {
        const list = shape(0);
        const separator = args[1] ? sizeOf(shape(1), sizes) : 0;
        const n = sizeOf(list, sizes);
        const content = list.kind === 'list' && list.content !== undefined ? list.content : n * sizeOf(elementOf(list), sizes);
        const size = content + Math.max(0, n - 1) * separator;
        return { cost: argCost + Math.ceil(size * 2 * STRING_TRAVERSAL), shape: { kind: 'string', size }, constant: false };
      }
      default:
        // size(), !_, @not_strictly_false, comparisons of scalars: O(1)
        return { cost: argCost + 1, shape: SCALAR_SHAPE, constant: false };
    }
  }
}

function sum(estimates: readonly Estimate[]): number {
  return estimates.reduce((total, x) => total + x.cost, 0);
}

function constantShape(constant: any): Shape {
  const { case: kind, value } = constant.constantKind;
  return kind === 'stringValue' ? { kind: 'string', size: [...value].length } : SCALAR_SHAPE;
}

function isMapNode(node: FieldTopology): boolean {
  return node.type === 'map';
}

/** The size CEL's `size()` gives (a string's length, a list's or map's entries; 1 for anything else), at most. */
function sizeOf(shape: Shape, sizes: SizeModel): number {
  switch (shape.kind) {
    case 'list':
    case 'map':
    case 'string':
      return shape.size;
    case 'data':
      if (shape.node.type === 'list') return sizes.list;
      if (shape.node.type === 'map') return sizes.map;
      if (shape.node === SCALAR || shape.node.type === 'scalar') return sizes.string;
      return Math.max(sizes.list, sizes.map, sizes.string); // deduced: whatever is there
    default:
      return 1;
  }
}

/** What iterating over a value gives: list elements, or map keys. */
function elementOf(shape: Shape, index = false): Shape {
  switch (shape.kind) {
    case 'list':
      return shape.element;
    case 'map':
      return index ? shape.value : { kind: 'string', size: 253 };
    case 'data':
      if (shape.node.type === 'list') return { kind: 'data', node: shape.node.element() };
      if (shape.node.type === 'map') return index ? { kind: 'data', node: shape.node.field('') } : { kind: 'string', size: 253 };
      return { kind: 'data', node: DEDUCED };
    default:
      return SCALAR_SHAPE;
  }
}

/** The element a comprehension's step appends (`@result + [x]`), else a scalar. */
function listElementOf(step: Shape): Shape {
  return step.kind === 'list' ? step.element : SCALAR_SHAPE;
}

/** A shape at least as large as both. */
function widest(a: Shape, b: Shape, sizes: SizeModel): Shape {
  if (a.kind === b.kind && (a.kind === 'list' || a.kind === 'map' || a.kind === 'string')) {
    return sizeOf(a, sizes) >= sizeOf(b, sizes) ? a : b;
  }
  if (a.kind === 'scalar') return b;
  if (b.kind === 'scalar') return a;
  return sizeOf(a, sizes) >= sizeOf(b, sizes) ? a : b;
}

/** Per expression of a policy, in order: what it is and its estimate; variables first, each counted once. */
export interface PolicyCost {
  readonly expressions: Array<{ readonly what: string; readonly cost: number }>;
  /** The most one request can cost the policy: every variable once, every validation and message. */
  readonly total: number;
  /** The most any one expression costs, the variables it reads included. */
  readonly maxPerExpression: number;
}

/** The estimates of every expression of a policy for objects of the given topology and sizes. */
export function policyCost(policy: any, topology: FieldTopology, sizes: SizeModel): PolicyCost {
  const variables = new Map<string, Estimate>();
  const expressions: Array<{ what: string; cost: number }> = [];
  for (const v of policy.spec.variables ?? []) {
    const e = estimate(v.expression, { topology, sizes, variables });
    variables.set(v.name, e);
    expressions.push({ what: `variables.${v.name}`, cost: e.cost });
  }
  // a variable is evaluated once per request, when an expression first reads it; with the variables it reads in turn
  const reads = (expression: string) => new Set([...expression.matchAll(/variables\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
  const withReads = (expression: string, own: number): number => {
    const seen = new Set<string>();
    const visit = (e: string) => {
      for (const name of reads(e)) {
        if (seen.has(name)) continue;
        seen.add(name);
        visit((policy.spec.variables ?? []).find((x: any) => x.name === name)?.expression ?? '');
      }
    };
    visit(expression);
    return own + [...seen].reduce((total, name) => total + (variables.get(name)?.cost ?? 0), 0);
  };
  let maxPerExpression = 0;
  for (const v of policy.spec.variables ?? []) maxPerExpression = Math.max(maxPerExpression, withReads(v.expression, variables.get(v.name)!.cost));
  (policy.spec.validations ?? []).forEach((v: any, i: number) => {
    for (const [what, expression] of [[`validations[${i}]`, v.expression], [`validations[${i}].messageExpression`, v.messageExpression]] as const) {
      if (!expression) continue;
      const own = estimate(expression, { topology, sizes, variables }).cost;
      expressions.push({ what, cost: own });
      maxPerExpression = Math.max(maxPerExpression, withReads(expression, own));
    }
  });
  return { expressions, total: expressions.reduce((t, x) => t + x.cost, 0), maxPerExpression };
}
