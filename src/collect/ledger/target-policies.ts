import { CfnResource, Tokenization } from 'aws-cdk-lib';
import { cloudFormationDocOf, resourceAttributesOf } from './cloudformation-doc';
import type { FieldPath } from './field-path';
import { outsideWriteProblem, OutsideWriteProblem } from './outside-writes';
import { RenderChange, renderDelta } from './render-delta';
import { StatementGrant, statementsAdded, statementsOnlyAdded, withoutStatements } from './statement-grants';
import type { Contribution } from '../../constructs/contribution';
import { policyDocumentOf, renderStatement, StatementAddition, StatementAdditions } from '../../private/statement-additions';
import { statementsPathOf } from '../topology/cloudformation-topology';

/** Tokens are values, never walked into, in a resource's render. */
const OPAQUE_TOKENS = { isOpaque: (v: unknown) => Tokenization.isResolvable(v) };

/** A policy's render: its properties (`cloudFormationDocOf`), its attributes, and both as one text. */
interface PolicyRender {
  readonly props: unknown;
  readonly attributes: string;
  readonly text: string;
}

/** Where a watched policy was last seen: its render then, and how many statements had been added to it and callbacks had run by then. */
interface Boundary extends PolicyRender {
  readonly added: number;
  readonly ran: number;
}

interface Watched {
  readonly resource: CfnResource;
  readonly document: object;
  readonly statements: FieldPath;
  /** The properties before any callback ran: their statements are the declarer's. */
  readonly initial: unknown;
  boundary: Boundary;
}

/**
 * The policies that write callbacks target (an `iam.Policy`'s `CfnPolicy`, a
 * bucket's, queue's or topic's policy), watched while the callbacks run, so
 * that each statement added to one is its adder's.
 *
 * A callback on the policy writes it: each statement it adds through the
 * policy's document (`addStatements`, `addToPrincipalPolicy`, a `grant*`) is
 * its Contribution's, one value of the set of statements, as a grant into a
 * policy that is not the target is (`StatementGrant`); what else it changes is
 * read off the renders around it as before, the statements left out. A
 * callback that changes or removes a statement there writes the statements
 * whole, as before.
 *
 * Another callback, whose target is something else, may grant into the policy
 * too: the policy is rendered where the callbacks on it leave off and where
 * they take up again (and before and after all callbacks), and what changed
 * between is what the other callbacks that ran then wrote. Statements they
 * added are theirs; anything else they changed cannot be told from the
 * declarer's and is their problem (`CAP010`), as a change to a resource that
 * is no callback's target is.
 */
export class TargetPolicies {
  /** The policies `contributions` target whose statements their documents hold (`policyDocumentOf`), with the documents to follow. */
  public static targetsOf(contributions: readonly Contribution[]): Map<CfnResource, object> {
    const targets = new Map<CfnResource, object>();
    for (const c of contributions) {
      const resource = c.cfnResource;
      if (!resource || targets.has(resource) || !statementsPathOf(resource.cfnResourceType)) continue;
      const document = policyDocumentOf(resource);
      if (document) targets.set(resource, document);
    }
    return targets;
  }

  /**
   * Starts watching the policies `targets` (from `targetsOf`), each rendered
   * now, before any callback runs; one that cannot be rendered yet is not watched.
   *
   * @param additions follows what is added to the documents of `targets`
   */
  public static watch(targets: ReadonlyMap<CfnResource, object>, additions: StatementAdditions): TargetPolicies | undefined {
    const watched = new Map<CfnResource, Watched>();
    for (const [resource, document] of targets) {
      const render = renderPolicy(resource);
      if (!render) continue;
      const statements = statementsPathOf(resource.cfnResourceType)!;
      watched.set(resource, { resource, document, statements, initial: render.props, boundary: { ...render, added: 0, ran: 0 } });
    }
    return watched.size > 0 ? new TargetPolicies(watched, additions) : undefined;
  }

  private readonly ranNow: Contribution[] = [];
  private readonly grants: StatementGrant[] = [];
  private readonly problems: OutsideWriteProblem[] = [];

  private constructor(private readonly watched: ReadonlyMap<CfnResource, Watched>, private readonly additions: StatementAdditions) {}

  /** Notes a callback about to run now. */
  public ran(c: Contribution): void {
    this.ranNow.push(c);
  }

  /**
   * A callback on `target` is about to run, and not right after another on
   * it: what the callbacks that ran since the last one on it (or since the
   * start) wrote there is theirs.
   */
  public resume(target: CfnResource): void {
    const w = this.watched.get(target);
    if (w) this.between(w);
  }

  /**
   * A callback on `target` ran, turning its properties `before` into `after`:
   * when it added statements to the policy and did nothing else to them, they
   * are its grants, and the changes it made are returned without them (the
   * rest of the properties, read off the renders); undefined when the target
   * is no policy watched, nothing was added, or the statements changed otherwise.
   */
  public ranOn(target: CfnResource, before: unknown, after: unknown): RenderChange[] | undefined {
    const w = this.watched.get(target);
    if (!w) return undefined;
    const additions = this.additions.of(w.document).slice(w.boundary.added);
    const now = renderPolicy(target);
    if (now) w.boundary = this.boundaryAt(w, now);
    if (additions.length === 0) return undefined;
    let declared: boolean[] | undefined;
    try {
      declared = statementsOnlyAdded(before, after, w.statements, additions.map((a) => renderStatement(a.statement, target)), w.initial);
    } catch {
      return undefined; // a statement that cannot be rendered: the statements are the callback's write, whole
    }
    if (!declared) return undefined;
    this.grant(target, additions, declared);
    return renderDelta(withoutStatements(before, w.statements), withoutStatements(after, w.statements), OPAQUE_TOKENS);
  }

  /**
   * Once every callback ran: what the callbacks since the last one on each
   * policy wrote there, and the statements all of them added that are theirs
   * (by `ranOn` and between the callbacks on the policy); the problems of those
   * that changed a policy they do not target otherwise.
   */
  public outcome(): { grants: StatementGrant[]; problems: OutsideWriteProblem[] } {
    for (const w of this.watched.values()) this.between(w);
    return { grants: this.grants, problems: this.problems };
  }

  /** What the callbacks that ran since `w` was last seen did to it: statements added are theirs, anything else a problem. */
  private between(w: Watched): void {
    const last = w.boundary;
    const ran = this.ranNow.slice(last.ran);
    if (ran.length === 0) return;
    const additions = this.additions.of(w.document).slice(last.added);
    const now = renderPolicy(w.resource);
    if (!now) return; // it cannot be rendered now: its callback is refused when it renders it (CAP010)
    w.boundary = this.boundaryAt(w, now);
    if (additions.length === 0 && now.text === last.text) return;
    let declared: boolean[] | undefined;
    try {
      const rendered = additions.map((a) => renderStatement(a.statement, w.resource));
      declared = now.attributes === last.attributes ? statementsAdded(last.props, now.props, w.statements, rendered, w.initial) : undefined;
    } catch {
      declared = undefined;
    }
    if (!declared) {
      this.problems.push(outsideWriteProblem(ran, [w.resource.node.path], true));
      return;
    }
    this.grant(w.resource, additions, declared);
  }

  private grant(resource: CfnResource, additions: readonly StatementAddition[], declared: readonly boolean[]): void {
    declared.forEach((d, i) => this.grants.push({ resource, writer: additions[i].writer, statement: additions[i].statement, declared: d }));
  }

  private boundaryAt(w: Watched, render: PolicyRender): Boundary {
    return { ...render, added: this.additions.of(w.document).length, ran: this.ranNow.length };
  }
}

/**
 * A policy's render now, a policy with no statement yet (an `iam.Policy` declared empty, which aws-cdk refuses to
 * render) without its document; undefined when it cannot be rendered.
 */
function renderPolicy(resource: CfnResource): PolicyRender | undefined {
  try {
    const props = cloudFormationDocOf(resource, undefined, true);
    const attributes = JSON.stringify(resourceAttributesOf(resource).doc);
    return { props, attributes, text: JSON.stringify([props, attributes]) };
  } catch {
    return undefined;
  }
}
