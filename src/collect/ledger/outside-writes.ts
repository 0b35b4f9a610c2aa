import { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { cloudFormationDocOf, resourceAttributesOf } from './cloudformation-doc';
import { StatementGrant, statementsAdded } from './statement-grants';
import type { CallbackProblem } from './write-callbacks';
import type { Contribution } from '../../constructs/contribution';
import { appendAll } from '../../private/append';
import { policyDocumentOf, renderStatement, StatementAdditions } from '../../private/statement-additions';
import { statementsPathOf } from '../topology/cloudformation-topology';

/**
 * The CloudFormation resources that write callbacks must leave alone: every
 * resource that exists before they run and is no callback's target, rendered
 * once before the callbacks and once after them (not around each, which would
 * cost the resources times the callbacks). A resource a callback creates is
 * its own, not watched. A resource that lacks a required property (an
 * `iam.Policy` declared with no statement) is rendered without it
 * (`resourceText`), so a grant that fills it is its adder's too.
 *
 * One write into such a resource is a callback's own: a statement it adds to
 * a policy (`StatementAdditions` follows, by callback, what is added to the
 * documents of the policies watched). A policy whose only change is such
 * statements is no problem; the statements are the callbacks' grants.
 */
export class OutsideWrites {
  /** Watches the resources among `constructs` that no callback of `contributions` targets; undefined, and free, when there is none. */
  public static watch(constructs: readonly IConstruct[], contributions: readonly Contribution[]): OutsideWrites | undefined {
    const targets = new Set<unknown>(contributions.map((c) => c.apiObject ?? c.cfnResource));
    const before = new Map<CfnResource, string>();
    const documents = new Map<CfnResource, object>();
    for (const c of constructs) {
      if (!CfnResource.isCfnResource(c) || targets.has(c)) continue;
      const text = resourceText(c);
      if (text === undefined) continue;
      before.set(c, text);
      const document = statementsPathOf(c.cfnResourceType) ? policyDocumentOf(c) : undefined;
      if (document) documents.set(c, document);
    }
    if (before.size === 0) return undefined;
    return new OutsideWrites(before, documents);
  }

  private readonly ranNow: Contribution[] = [];

  private constructor(
    private readonly before: ReadonlyMap<CfnResource, string>,
    private readonly documents: ReadonlyMap<CfnResource, object>,
  ) {}

  /** The policy documents of the resources watched, whose added statements are to be followed (`StatementAdditions`). */
  public get policyDocuments(): Iterable<object> {
    return this.documents.values();
  }

  /** Notes a callback that ran now. */
  public ran(c: Contribution): void {
    this.ranNow.push(c);
  }

  /**
   * What the callbacks that ran did to the resources watched: the statements
   * they added to policies, and the problem of the callbacks when a resource
   * renders otherwise after them in any other way (what was written there
   * cannot be attributed: the declarer would be taken to have written it).
   * The problem is named by the callback when one ran, else by all that ran.
   *
   * @param additions what callbacks added to the documents of the policies watched, when followed
   */
  public outcome(additions: StatementAdditions | undefined): { problem?: OutsideWriteProblem; grants: StatementGrant[] } {
    const changed: string[] = [];
    const grants: StatementGrant[] = [];
    let policies = true;
    for (const [resource, text] of this.before) {
      const same = resourceText(resource) === text;
      const added = this.grantsInto(resource, text, additions);
      if (added) {
        appendAll(grants, added);
        continue;
      }
      if (same) continue;
      changed.push(resource.node.path);
      policies &&= statementsPathOf(resource.cfnResourceType) !== undefined;
    }
    if (changed.length === 0 || this.ranNow.length === 0) return { grants };
    return { grants, problem: outsideWriteProblem(this.ranNow, changed, policies) };
  }

  /**
   * The statements callbacks added to a watched policy, when that is all they
   * did to it (`statementsAdded`); undefined when they added none, or did more.
   */
  private grantsInto(resource: CfnResource, text: string, following: StatementAdditions | undefined): StatementGrant[] | undefined {
    const document = this.documents.get(resource);
    const additions = document ? following?.of(document) ?? [] : [];
    if (additions.length === 0) return undefined;
    const [properties, attributes] = JSON.parse(text) as [unknown, unknown];
    let declared: boolean[] | undefined;
    try {
      if (JSON.stringify(resourceAttributesOf(resource).doc) !== JSON.stringify(attributes)) return undefined;
      const rendered = additions.map((a) => renderStatement(a.statement, resource));
      declared = statementsAdded(properties, cloudFormationDocOf(resource, undefined, true), statementsPathOf(resource.cfnResourceType)!, rendered);
    } catch {
      return undefined; // it cannot be rendered now: a change, refused
    }
    return declared?.map((d, i) => ({ resource, writer: additions[i].writer, statement: additions[i].statement, declared: d }));
  }
}

/** The problem of write callbacks that changed resources that are not their targets, and the first of them (whose run a second synth reuses). */
export interface OutsideWriteProblem {
  /** The problem, named by the first callback, with the others. */
  readonly problem: CallbackProblem;
  /** The first callback. */
  readonly first: Contribution;
}

/**
 * The problem of the write callbacks `ran` (at least one) that changed the
 * resources at the paths `changed`, none of which is their target: named by
 * the first, with the others.
 *
 * @param policies true when every resource changed is a policy (the fix says that adding statements is fine)
 */
export function outsideWriteProblem(ran: readonly Contribution[], changed: readonly string[], policies: boolean): OutsideWriteProblem {
  const fix = policies
    ? 'A callback may add statements to a policy that exists (a grant): each is its own write; it may not change or remove the statements already there, or the policy\'s other properties. '
      + 'Make only the grant in the callback, or write the policy where it is declared'
    : 'Write another resource with a Contribution whose target is that resource (a grant is fine: a resource a callback creates is its own, and so is a statement it adds to a policy that exists)';
  const [first, ...others] = ran.map((c) => c.node.path);
  const which = others.length === 0 ? 'its write callback' : `one of the write callbacks of it and ${others.map((w) => `'${w}'`).join(', ')}`;
  const resources = changed.map((p) => `'${p}'`).join(', ');
  return {
    first: ran[0],
    problem: {
      path: first,
      ...(others.length > 0 ? { others } : {}),
      error:
        `${which} changed ${changed.length === 1 ? 'the resource' : 'the resources'} ${resources}, which ${changed.length === 1 ? 'is' : 'are'} not its target, ` +
        'so what it wrote there would be taken for its declarer\'s and could replace a value the declarer set without a conflict. ' + fix,
    },
  };
}

/**
 * A resource's properties and attributes as one text, to tell whether it changed; undefined when it cannot be
 * rendered. A resource that lacks a required property (an `iam.Policy` declared with no statement, which a
 * callback's grant fills) renders without it, before the callbacks and after them alike (`declaredPropertiesOf`).
 */
export function resourceText(resource: CfnResource): string | undefined {
  try {
    return JSON.stringify([cloudFormationDocOf(resource, undefined, true), resourceAttributesOf(resource).doc]);
  } catch {
    return undefined;
  }
}
