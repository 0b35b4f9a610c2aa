import { CfnResource } from 'aws-cdk-lib';
import { rawOverridesOf } from './upstream-state';

/** One `addOverride` call on a CloudFormation resource: its path and value (`undefined` deletes). */
export interface OverrideCall {
  /** The override path split on unescaped dots, `Properties` included. */
  readonly path: string[];
  /** The value written; `undefined` for a deletion override. */
  readonly value: unknown;
}

/** Who wrote the overrides of one resource. */
export interface OverrideRecord {
  /** Overrides made by the user (escape hatches), in call order. */
  readonly user: OverrideCall[];
  /** Overrides made by each contribution, by its construct path. */
  readonly contributions: Map<string, OverrideCall[]>;
}

const records = new WeakMap<CfnResource, OverrideRecord>();

/**
 * Starts attributing the overrides of a resource: those already present are
 * the user's; from now on each `addOverride` call is recorded as the user's,
 * unless it is made inside `asContribution`.
 */
export function trackOverrides(resource: CfnResource): OverrideRecord {
  const existing = records.get(resource);
  if (existing) return existing;
  const record: OverrideRecord = { user: existingOverrides(rawOverridesOf(resource)), contributions: new Map() };
  let writer: string | undefined;
  const original = resource.addOverride.bind(resource);
  resource.addOverride = (path: string, value: any) => {
    const call = { path: splitOverridePath(path), value };
    if (writer === undefined) record.user.push(call);
    else record.contributions.set(writer, [...(record.contributions.get(writer) ?? []), call]);
    original(path, value);
  };
  (record as any).as = (w: string, fn: () => void) => {
    writer = w;
    try {
      fn();
    } finally {
      writer = undefined;
    }
  };
  records.set(resource, record);
  return record;
}

/** Runs `fn`, attributing the overrides it makes on `resource` to the contribution `writer`. */
export function asContribution(resource: CfnResource, writer: string, fn: () => void): void {
  (trackOverrides(resource) as any).as(writer, fn);
}

/** The record of a resource, if it is tracked. */
export function overrideRecord(resource: CfnResource): OverrideRecord | undefined {
  return records.get(resource);
}

/**
 * The overrides already in `raw`, as calls: one per leaf, deletions (undefined)
 * included, in the order of the keys. Walked with a stack of its own, so no
 * size or depth of overrides can overflow the call stack.
 */
export function existingOverrides(raw: Record<string, unknown>, prefix: string[] = []): OverrideCall[] {
  const calls: OverrideCall[] = [];
  const path = [...prefix];
  const open: Array<{ readonly entries: Array<[string, unknown]>; next: number }> = [{ entries: Object.entries(raw), next: 0 }];
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next === top.entries.length) {
      open.pop();
      path.pop();
      continue;
    }
    const [k, v] = top.entries[top.next++];
    if (isPlainMap(v)) {
      path.push(k);
      open.push({ entries: Object.entries(v as Record<string, unknown>), next: 0 });
    } else {
      calls.push({ path: [...path, k], value: v });
    }
  }
  return calls;
}

/** Splits an aws-cdk override path on dots not escaped with a backslash. */
function splitOverridePath(path: string): string[] {
  return path.split(/(?<!\\)\./).map((p) => p.replace(/\\\./g, '.'));
}

/** A map as aws-cdk builds overrides: a plain or null-prototype object (not a token, not a list). */
function isPlainMap(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}
