import { Finding, finding, placeAt, Severity, ViolationCode } from './finding';
import { FindingField, placeFinding } from './placement';
import type { Facts } from '../collect/facts';
import type { Lock } from '../release/lock';

/** An annotation an output format writes on every runtime object (Argo CD's sync wave): no construct may write it. */
export interface AnnotationClaim {
  /** The annotation key. */
  readonly annotation: string;
  /** Who writes it, as messages name it (`GitOps.argoCd()`). */
  readonly writer: string;
}

/** What every rule sees. */
export interface CheckContext {
  /** What collect found. */
  readonly facts: Facts;
  /** The previous release, from the lock file; absent for a first release. */
  readonly previous?: Lock;
  /** Why the lock file could not be read, one problem each (naming its JSON pointer), when it could not. */
  readonly lockProblems?: readonly string[];
  /** Annotations the output formats write. */
  readonly claims: readonly AnnotationClaim[];
  /**
   * The GitOps engine the output is written for (`CapabilityApp` prop `gitops`), which decides what applies the
   * runtime objects and so which annotations it honours (Argo CD's hook phases).
   *
   * @default - none: kubectl (`cdk-capability apply`) applies the runtime output
   */
  readonly gitops?: 'flux' | 'argocd';
  /**
   * Set when the output enforces the ownership map (`CapabilityApp` prop `enforce`): the identity that applies
   * the runtime output (`enforce.deployer`), and the resources the user gave for kinds (`enforce.resources`,
   * by `Kind.group`).
   */
  readonly enforce?: { readonly deployer?: string; readonly resources?: Readonly<Record<string, string>> };
}

/** What a rule's `run` returns: the message after the code's title, and the construct paths involved. */
export interface RuleFinding {
  /** What is wrong, where, and how to fix it; `finding` prefixes the code's title. */
  readonly message: string;
  /** The construct paths involved. */
  readonly paths: readonly string[];
  /**
   * What the message begins with, for a finding the code's title would misname
   * (a template validator's warning is no invalid object of ours).
   *
   * @default - the code's title (`CODE_TITLES`)
   */
  readonly title?: string;
  /**
   * The field of one object the finding is about (then, for a missing field, the field that asks for it): when
   * something other than the declarer's props wrote it (a JSON patch, an override, a Contribution, an aspect), the
   * finding is placed at that write (`placeFinding`), its message saying which write it was.
   *
   * @default - the finding is placed at the constructs of `paths`
   */
  readonly field?: FindingField;
}

/** A rule as `defineRule` takes it: metadata declared once, and a pure function. */
export interface RuleDefinition {
  /** The code of every finding it returns. */
  readonly code: ViolationCode;
  /** A short name, used in reports and when the rule itself crashes; the rule's id is the code and this title (`CAP003/status-writes`). */
  readonly title: string;
  /**
   * What the rule guards against and why it matters, in a sentence or two, as
   * a report (SARIF `rules[].help`) explains it beside each finding.
   */
  readonly explanation: string;
  /**
   * Whether its findings refuse the composition.
   *
   * @default 'error'
   */
  readonly severity?: Severity;
  /** Finds what is wrong. Pure: it reads the context and changes nothing. */
  run(context: CheckContext): RuleFinding[];
}

/** A rule, ready to run. */
export interface Rule {
  /** Its stable id, the code and the title: `CAP003/status-writes` (a SARIF `ruleId`). */
  readonly id: string;
  /** The code of its findings. */
  readonly code: ViolationCode;
  /** Its short name. */
  readonly title: string;
  /** What it guards against and why. */
  readonly explanation: string;
  /** Whether its findings refuse the composition. */
  readonly severity: Severity;
  /** Runs the rule: its findings, coded and titled. */
  run(context: CheckContext): Finding[];
}

/**
 * Declares a rule, as cdk-nag does: its code, title and severity once, and
 * detection and message together in `run`. The message prefix comes from the
 * code (`CAP002` findings begin `field conflict: `).
 *
 * @example
 * export const statusWrites = defineRule({
 *   code: ViolationCode.STATUS_WRITE,
 *   title: 'status writes',
 *   explanation: 'status belongs to the controllers that observe an object; a construct that writes it races them.',
 *   run: ({ facts }) => ...,
 * });
 */
export function defineRule(definition: RuleDefinition): Rule {
  const severity = definition.severity ?? 'error';
  const id = ruleId(definition.code, definition.title);
  return {
    id,
    code: definition.code,
    title: definition.title,
    explanation: definition.explanation,
    severity,
    run: (context) => definition.run(context).map((f) => placed(context, f, {
      ...finding(definition.code, f.message, f.paths, severity, f.title),
      rule: id,
    })),
  };
}

/**
 * A rule's finding placed where the field it is about was written, when something other than the declarer's props
 * wrote it: its message ends saying which write it was, unless the rule's message names the field's writers already.
 * A finding about no field, or about a field the declarer wrote, is returned as it is.
 */
function placed(context: CheckContext, f: RuleFinding, out: Finding): Finding {
  const write = f.field ? placeFinding(context.facts, f.field) : undefined;
  if (!write) return out;
  return placeAt(f.field!.writersNamed ? out : { ...out, message: `${out.message}${write.sentence}` }, write.placement);
}

/** A rule's id from its code and title: `CAP003`, `status writes` -> `CAP003/status-writes`. */
export function ruleId(code: ViolationCode, title: string): string {
  return `${code}/${title.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join('-')}`;
}
