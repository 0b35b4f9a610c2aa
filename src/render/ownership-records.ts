import { maskedValue } from './lock-values';
import type { Facts } from '../collect/facts';
import { formatPath } from '../collect/ledger/field-path';
import { writerName } from '../collect/ledger/writer';
import { describeIdentity } from '../collect/object-identity';
import { compareText } from '../private/compare';
import { isSecretEnvPath } from '../release/sensitive-env';
import { SECRET_PROPERTIES } from '../release/sensitive-properties';

/**
 * A plain escape hatch over what its own object's declaration rendered, as the
 * plan shows it: accepted, the declarer's own (`field: rendered -> patched`).
 */
export interface PlanOverride {
  /** The object, as the plan names it (`apps/Deployment prod/web`, `AWS::S3::Bucket cdn/Base/Bucket/Resource`). */
  readonly object: string;
  /** The leaf, as the field ledger prints it (`spec.replicas`). */
  readonly field: string;
  /** The call that overrides it, with its site (`cdn/Routing/Web/Resource (addJsonPatch at main.ts:12)`). */
  readonly by: string;
  /** The earlier escape hatch of the same object whose value a deletion removes; absent when the value is the declaration's. */
  readonly over?: string;
  /** The value before the override (the declaration's, or `over`'s), masked; absent when there was none at this leaf. */
  readonly rendered?: unknown;
  /** The value emitted, masked; absent when the override removes the leaf. */
  readonly patched?: unknown;
}

/** A leaf one writer takes from another in this release, as the plan shows it. */
export interface PlanHandover {
  /** The object, as the plan names it. */
  readonly object: string;
  /** The leaf. */
  readonly field: string;
  /** The writer it is taken from. */
  readonly from: string;
  /** The writer that takes it; the output has its value. */
  readonly to: string;
  /** `force` (a Contribution with `force: true`), `tag-priority` or `nearer-scope` (aws-cdk's tag layering), `aspect-priority` (an aspect aws-cdk runs later, at a higher priority). */
  readonly reason: 'force' | 'tag-priority' | 'nearer-scope' | 'aspect-priority';
}

/** Who took which leaves inside this release: the declarers' escape hatches, and the handovers. */
export interface OwnershipRecords {
  /** Escape hatches over their own object's rendered values, by object and field. */
  readonly overrides: PlanOverride[];
  /** Leaves handed over, by object and field. */
  readonly handovers: PlanHandover[];
}

/** The overrides and handovers the field ledger recorded, sorted, values masked as the lock masks them. */
export function ownershipRecords(facts: Facts): OwnershipRecords {
  const secrets = new Set(facts.objects.filter((o) => o.identity.group === '' && o.identity.kind === 'Secret').map((o) => describeIdentity(o.identity)));
  const overrides = facts.ledger.overrides.map((o): PlanOverride => {
    const sensitive = o.kind === 'k8s'
      ? (secrets.has(o.object) && (o.path[0] === 'data' || o.path[0] === 'stringData')) || isSecretEnvPath(o.path)
      : takesSecret(o.object.split(' ')[0], o.path);
    return {
      object: o.object,
      field: formatPath(o.path),
      by: writerName(o.writer),
      ...(o.replaces ? { over: writerName(o.replaces) } : {}),
      ...('rendered' in o ? { rendered: maskedValue(o.rendered, sensitive) } : {}),
      ...('patched' in o ? { patched: maskedValue(o.patched, sensitive) } : {}),
    };
  });
  const handovers = facts.ledger.handovers.map((h): PlanHandover => ({
    object: h.object,
    field: formatPath(h.path),
    from: writerName(h.from),
    to: writerName(h.to),
    reason: h.reason,
  }));
  type Place = { object: string; field: string };
  const byPlace = (a: Place, b: Place) => compareText(a.object, b.object) || compareText(a.field, b.field);
  return { overrides: overrides.sort(byPlace), handovers: handovers.sort(byPlace) };
}

/** True when a property path of a resource type holds, or lies inside, a property that takes a secret (`SECRET_PROPERTIES`). */
function takesSecret(type: string, path: readonly string[]): boolean {
  const same = (k: string, segment: string) => k === segment || (k === '*' && /^\d+$/.test(segment));
  // one is a prefix of the other: the shorter of the two, compared with the start of the longer
  return (SECRET_PROPERTIES[type] ?? []).some((p) => p.slice(0, path.length).every((k, i) => same(k, path[i])));
}
