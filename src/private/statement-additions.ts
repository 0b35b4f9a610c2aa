import type { IConstruct } from 'constructs';
import { awsCdk } from './aws-cdk';
import { attributionNow } from './write-calls';

/** One statement a write callback added to a policy document. */
export interface StatementAddition {
  /** The construct path of the Contribution whose write callback added it. */
  readonly writer: string;
  /** The statement: an aws-cdk `PolicyStatement`, read with `renderStatement` (a callback may change it after adding it). */
  readonly statement: object;
}

/**
 * The policy document an aws-cdk L1 resource renders its `PolicyDocument`
 * property from: the `iam.PolicyDocument` its L2 passed as `policyDocument`
 * (`iam.Policy`, `s3.BucketPolicy`, ...). Undefined when the property holds
 * plain JSON or nothing.
 */
export function policyDocumentOf(resource: IConstruct): object | undefined {
  const doc = (resource as { policyDocument?: unknown }).policyDocument;
  return isPolicyDocument(doc) ? doc : undefined;
}

/**
 * One statement as its policy document renders it, resolved in the stack of
 * `scope`: the statement's own JSON (`toStatementJson`), before what the
 * document does to all of its statements (dropping repeats, numbering `Sid`s).
 */
export function renderStatement(statement: object, scope: IConstruct): unknown {
  const s = statement as { toStatementJson?: () => unknown };
  if (typeof s.toStatementJson !== 'function') return undefined;
  return awsCdk().Stack.of(scope).resolve(s.toStatementJson());
}

type AddStatements = (this: object, ...statements: object[]) => unknown;

/**
 * Follows the statements added to some policy documents, and by whom: while
 * it follows them, `addStatements` of their prototype (the aws-cdk copy that
 * made them: `Policy.addStatements`, `Role.addToPrincipalPolicy` and every
 * `grant*` reach a document through it) notes each statement added to one of
 * them inside a write callback, with the callback's Contribution. `stop` puts
 * the method back; nothing else is wrapped, and nothing outside callbacks is noted.
 */
export class StatementAdditions {
  /** Starts following `documents` (the documents of the policies that exist before the callbacks run). */
  public static follow(documents: Iterable<object>): StatementAdditions {
    const additions = new StatementAdditions(new Set(documents));
    for (const proto of new Set([...additions.documents].map((d) => Object.getPrototypeOf(d) as Record<string, unknown>))) additions.wrap(proto);
    return additions;
  }

  private readonly added = new Map<object, StatementAddition[]>();
  private readonly restore: Array<() => void> = [];

  private constructor(private readonly documents: ReadonlySet<object>) {}

  /** The statements write callbacks added to `document`, in the order they were added. */
  public of(document: object): readonly StatementAddition[] {
    return this.added.get(document) ?? [];
  }

  /** Stops following: every wrapped method is put back. */
  public stop(): void {
    for (const restore of this.restore.splice(0)) restore();
  }

  private wrap(proto: Record<string, unknown>): void {
    const own = Object.getOwnPropertyDescriptor(proto, 'addStatements');
    if (!own || typeof own.value !== 'function' || !own.writable) return; // not the shape followed: what it adds is unattributed, and refused
    const original = own.value as AddStatements;
    const documents = this.documents;
    const added = this.added;
    proto.addStatements = function addStatements(this: object, ...statements: object[]) {
      const made = attributionNow();
      if (made?.kind === 'contribution-write' && documents.has(this)) {
        let list = added.get(this);
        if (!list) added.set(this, (list = []));
        for (const statement of statements) list.push({ writer: made.path, statement });
      }
      return original.apply(this, statements);
    };
    this.restore.push(() => Object.defineProperty(proto, 'addStatements', own));
  }
}

function isPolicyDocument(x: unknown): x is object {
  return x !== null && typeof x === 'object' && typeof (x as { addStatements?: unknown }).addStatements === 'function';
}
