import { objectUnitId } from './lock';
import type { ObjectFact, RuntimeWriterFact } from '../collect/facts';
import { formatPath } from '../collect/ledger/field-path';
import { describeIdentity, groupKind } from '../collect/object-identity';

/** What a runtime writer writes: one object of the composition, or every object of a kind. */
export type RuntimeWriterTarget =
  | {
    /** The object's id in the lock, `object:<group>|<kind>|<namespace>|<name>`. */
    readonly object: string;
    /** How messages name it (`example.com/ApplicationDeployment apps/app1`). */
    readonly label: string;
  }
  | {
    /** The kind of every object it writes, `<group>/<Kind>` (`apps/Deployment`, `/ConfigMap` for the core group). */
    readonly groupKind: string;
  };

/**
 * A controller declared as a writer of the composition (`RuntimeWriter`), as the lock, `interface.json` and
 * `plan.json` record it: who it is in the cluster and which leaves of what it writes there.
 */
export interface RuntimeWriterRecord {
  /** Its construct path. */
  readonly writer: string;
  /** The object it writes, or the kind of every object it writes. */
  readonly target: RuntimeWriterTarget;
  /**
   * Its leaves, in the ledger's path syntax as the ledger prints them (`spec.domains`,
   * `spec.template.spec.containers[name=web].image`): a keyed element's keys in the schema's order, with
   * their defaults, so a leaf reads the same in every release.
   */
  readonly fields: readonly string[];
  /** The Kubernetes username it writes as (`request.userInfo.username`). */
  readonly identity: string;
  /**
   * The field manager it writes under: its `manager` prop, else the one derived from its construct path
   * (`cdk-capability-runtime:<construct path>`, see `runtimeFieldManager`).
   */
  readonly manager: string;
}

/**
 * The records of the composition's runtime writers, in creation order. A writer whose target is no object of
 * the composition is not among the facts (its construct reports it), so every record's target resolves.
 *
 * @param writers the runtime writers, as collect found them
 * @param objects the objects of the composition, by index (`RuntimeWriterFact.target.object` points here)
 * @param managerOf the field manager of a runtime writer (`runtimeFieldManager` of its path and prop)
 */
export function runtimeWriterRecords(
  writers: readonly RuntimeWriterFact[],
  objects: readonly ObjectFact[],
  managerOf: (writer: RuntimeWriterFact) => string,
): RuntimeWriterRecord[] {
  return writers.map((w): RuntimeWriterRecord => {
    const object = 'object' in w.target ? objects[w.target.object] : undefined;
    const target: RuntimeWriterTarget = object
      ? { object: objectUnitId(object.key), label: describeIdentity(object.identity) }
      : { groupKind: 'group' in w.target ? groupKind(w.target.group, w.target.kind) : '' };
    return { writer: w.path, target, fields: w.fields.map((f) => formatPath(f.path)), identity: w.identity, manager: managerOf(w) };
  });
}
