import { IConstruct } from 'constructs';
import type { CompositionModel } from '../model/composition-model';
import { violation, Violation, ViolationCode } from '../violation';
import { errorMessage } from './errors';

/** The code a crash in each synth phase is reported with: the code of what the phase establishes. */
const PHASE_CODES = {
  'collect': ViolationCode.INVALID_OBJECT,
  'ledger recording': ViolationCode.FIELD_CONFLICT,
  'deploy synthesis': ViolationCode.INVALID_OBJECT,
  'graph': ViolationCode.DEPENDENCY_CYCLE,
  'plan and render': ViolationCode.INVALID_OBJECT,
} as const;

/** A phase of `synthesize`. */
export type Phase = keyof typeof PHASE_CODES;

/**
 * Turns an exception escaping any phase of a synth into a coded violation
 * that names the phase and, when known, the construct it crashed on, so that
 * every failure of a synth is a `CompositionError`, never a stack trace.
 *
 * Usage: `guard.enter(phase)` before each phase, `guard.run(() => ...)` around
 * them all.
 */
export class PhaseGuard {
  private phase: Phase = 'collect';
  private model?: CompositionModel;

  /** @param root the root the synth runs on */
  constructor(private readonly root: IConstruct) {}

  /**
   * Marks the start of `phase`.
   *
   * @param model the collected model, once there is one (a crash then keeps its violations)
   */
  public enter(phase: Phase, model?: CompositionModel): void {
    this.phase = phase;
    this.model = model ?? this.model;
  }

  /**
   * Runs the phases; an exception becomes the only new violation of the result.
   *
   * @param phases the synth, calling `enter` as it goes
   * @param crashed builds the result of a crashed synth from the model and violations
   */
  public run<R>(phases: () => R, crashed: (model: CompositionModel, violations: Violation[]) => R): R {
    try {
      return phases();
    } catch (e) {
      const model = this.model ?? emptyModel(this.root);
      return crashed(model, [...model.violations, this.crashViolation(e, model)]);
    }
  }

  private crashViolation(e: unknown, model: CompositionModel): Violation {
    const path = constructPathOf(e, model);
    const on = path === undefined ? '' : ` on '${path}'`;
    return violation(
      PHASE_CODES[this.phase],
      `synth crashed: the '${this.phase}' phase failed${on}: ${printable(e)}. Please report it with the composition that triggers it.`,
      path === undefined ? [] : [path],
    );
  }
}

/**
 * The construct an error is about: the `constructPath` aws-cdk errors carry,
 * else the longest construct path of the model quoted in the message.
 */
function constructPathOf(e: unknown, model: CompositionModel): string | undefined {
  const carried = (e as { constructPath?: unknown } | undefined)?.constructPath;
  if (typeof carried === 'string' && carried) return carried;
  const message = printable(e);
  let found: string | undefined;
  for (const c of model.constructs) {
    const p = c.node.path;
    if (p && (found === undefined || p.length > found.length) && message.includes(`'${p}'`)) found = p;
  }
  return found;
}

/** The message of anything thrown, even a value that cannot be turned into a string (`Object.create(null)`). */
function printable(e: unknown): string {
  try {
    return errorMessage(e);
  } catch {
    return 'a value that cannot be printed';
  }
}

function emptyModel(root: IConstruct): CompositionModel {
  let constructs: IConstruct[] = [];
  try {
    constructs = root.node.findAll();
  } catch {
    // the tree itself is broken; report the crash without it
  }
  return { constructs, capabilities: [], stacks: [], charts: [], objects: [], contracts: [], violations: [] };
}
