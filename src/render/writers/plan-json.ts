import { legacyFieldManager } from '../../cluster/field-manager';
import { PlanObjectWriters, planWriters } from '../../cluster/object-writers';
import { jsonPieces } from '../../private/json-pieces';
import type { ReleaseDiff } from '../../release/release-diff';
import type { RuntimeWriterRecord } from '../../release/runtime-writer-record';
import { piecewise, PIECEWISE_FROM_OBJECTS } from '../file-content';
import type { OutputWriter } from '../output-writer';
import { OwnershipRecords, ownershipRecords } from '../ownership-records';
import { droppedOrders, DroppedOrder, PlanStep } from '../plan-steps';
import { Rename, renamesAgainst } from '../renames';
import type { RenderContext } from '../render-context';
import type { Teardown } from '../teardown';
import { undeclaredNamespaces, UndeclaredNamespace } from '../undeclared-namespaces';

/** The plan written to `plan.json`. */
export interface Plan {
  /** Format version of this file. */
  readonly version: 1;
  /** The capabilities of the app. */
  readonly capabilities: Array<{
    /** The capability's construct path. */
    readonly name: string;
    /** Its description, if it has one. */
    readonly description?: string;
  }>;
  /** What this release changes against the lock. */
  readonly changes: ReleaseDiff;
  /**
   * Field ownership inside this release: each escape hatch over what its own
   * object's declaration rendered (the declarer's override, accepted), and
   * each leaf handed from one writer to another (`force: true`, aws-cdk's tag layering);
   * absent when there is neither.
   */
  readonly ownership?: OwnershipRecords;
  /** Every step of both lifecycles, in apply order. */
  readonly steps: readonly PlanStep[];
  /**
   * The inferred, ordering-only edges (a reference nothing needs resolved) left
   * out because they would close a cycle with an explicit dependency; absent when none was.
   */
  readonly droppedOrder?: readonly DroppedOrder[];
  /**
   * Objects the release removes and adds again under another name with the same
   * declaring construct below the capability, each with the fix; absent when none.
   */
  readonly renames?: readonly Rename[];
  /** How to delete what this release removes against the lock, in deletion order, with the commands. */
  readonly teardown: Teardown;
  /**
   * The namespaces objects of the release are in that the composition neither declares (a `Namespace`
   * object) nor says exist (`Reference.external`), other than those every cluster has: applying fails in a
   * cluster without them. Each with its objects' count, the first of them and the fix; absent when none.
   */
  readonly undeclaredNamespaces?: readonly UndeclaredNamespace[];
  /**
   * Who writes each runtime object, under which field manager, and which managers must release it:
   * `cdk-capability apply` applies each writer's leaves under its own manager (docs/cluster.md).
   */
  readonly writers: readonly PlanObjectWriters[];
  /**
   * The controllers declared as writers (`RuntimeWriter`), as the lock and `interface.json` record them:
   * target, leaves, identity and field manager. Absent when the composition declares none.
   */
  readonly runtimeWriters?: readonly RuntimeWriterRecord[];
}

/** Plans already computed, by context: `plan.json` and the synthesis result share one (it is as large as the manifests). */
const plans = new WeakMap<RenderContext, Plan>();

/** The plan of a release, as `plan.json` holds it; computed once per render context. */
export function planOf(context: RenderContext): Plan {
  let plan = plans.get(context);
  if (!plan) {
    plan = computePlan(context);
    plans.set(context, plan);
  }
  return plan;
}

function computePlan(context: RenderContext): Plan {
  const capabilities = new Map(context.facts.objects.map((o) => [`object:${o.key}`, o.capability]));
  return {
    version: 1,
    capabilities: context.facts.capabilities.map((c) => ({ name: c.path, description: c.description })),
    changes: context.changes,
    ...ownershipOf(context),
    steps: context.steps,
    ...optional(droppedOrders(context.facts)),
    ...renamesOf(context),
    teardown: context.teardown,
    ...namespacesOf(context),
    writers: planWriters(context.lock, context.previous, (unit) => legacyFieldManager(capabilities.get(unit.id))),
    ...(context.lock.runtimeWriters ? { runtimeWriters: context.lock.runtimeWriters } : {}),
  };
}

/** The ownership records of a release, as a property of the plan only when there are any. */
function ownershipOf(context: RenderContext): { ownership?: OwnershipRecords } {
  const ownership = ownershipRecords(context.facts);
  return ownership.overrides.length + ownership.handovers.length > 0 ? { ownership } : {};
}

/** `plan.json`: every step of both lifecycles in apply order, why each edge exists, and the changes against the lock. */
export const planJson: OutputWriter = {
  name: 'plan.json',
  write: (context, out) => {
    const plan = planOf(context);
    // a large plan is written piece by piece: it holds every object's writers, several times the manifests' size
    out.files.set('plan.json', plan.writers.length < PIECEWISE_FROM_OBJECTS ? `${JSON.stringify(plan, undefined, 2)}\n` : piecewise(function* () {
      yield* jsonPieces(plan);
      yield '\n';
    }));
  },
};

function optional(dropped: DroppedOrder[]): { droppedOrder?: DroppedOrder[] } {
  return dropped.length > 0 ? { droppedOrder: dropped } : {};
}

function namespacesOf(context: RenderContext): { undeclaredNamespaces?: UndeclaredNamespace[] } {
  const namespaces = undeclaredNamespaces(context.facts);
  return namespaces.length > 0 ? { undeclaredNamespaces: namespaces } : {};
}

function renamesOf(context: RenderContext): { renames?: Rename[] } {
  const renames = renamesAgainst(context.previous, context.lock);
  return renames.length > 0 ? { renames } : {};
}
