import type { Stack } from 'aws-cdk-lib';
import { CompositionGraph } from '../graph/composition-graph';
import { SortResult } from '../graph/dependency-graph';
import { FieldLedger } from '../ledger/field-ledger';
import { PhysicalNameClash } from '../ledger/physical-names';
import { DuplicateDeclaration, IdentityRewrite } from '../ledger/runtime-writes';
import { CompositionModel } from '../model/composition-model';
import { errorMessage } from '../private/errors';
import { Lock } from '../release/lock';
import { violation, Violation, ViolationCode } from '../violation';

/** What every check sees: the collected model and its ordered graph. */
export interface CheckContext {
  /** Everything collected from the construct tree. */
  readonly model: CompositionModel;
  /** The dependency graph over both lifecycles. */
  readonly graph: CompositionGraph;
  /** The graph, sorted (or its cycles). */
  readonly sorted: SortResult;
  /** Who writes what. */
  readonly writes: WriteRecord;
  /** The previous release, from the lock file; absent for a first release. */
  readonly previous?: Lock;
}

/** The field ledger and what was found while filling it. */
export interface WriteRecord {
  /** Every write to every object. */
  readonly ledger: FieldLedger;
  /** Object identities declared more than once. */
  readonly duplicates: DuplicateDeclaration[];
  /** Contributions that write an identity field of their target with another value. */
  readonly identityRewrites: IdentityRewrite[];
  /** Physical names claimed by more than one CloudFormation resource. */
  readonly physicalNames: PhysicalNameClash[];
  /** The synthesized CloudFormation template of each stack, as it will be written. */
  readonly templates?: ReadonlyMap<Stack, any>;
}

/**
 * A rule over the composition: a pure function from the context to the
 * violations it finds. It does not throw and does not know other checks.
 */
export interface Check {
  /** A short name, used when the check itself crashes. */
  readonly name: string;
  /** The code of the violations it returns. */
  readonly code: ViolationCode;
  /** Finds violations. */
  run(context: CheckContext): Violation[];
}

/**
 * Runs every check. A check that throws becomes a violation of its own code
 * that says which check crashed and why, never a stack trace.
 */
export function runChecks(checks: readonly Check[], context: CheckContext): Violation[] {
  const found: Violation[] = [];
  for (const check of checks) {
    try {
      found.push(...check.run(context));
    } catch (e) {
      found.push(
        violation(
          check.code,
          `check crashed: the '${check.name}' check failed on this composition: ${errorMessage(e)}. Please report it with the composition that triggers it.`,
          [],
        ),
      );
    }
  }
  return found;
}
