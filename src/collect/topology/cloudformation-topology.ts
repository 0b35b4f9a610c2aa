import { DEDUCED, FieldTopology, UNTYPED_ATOMIC } from './field-topology';
import type { FieldPath } from '../ledger/field-path';

/**
 * Where each CloudFormation resource type that holds one IAM policy document
 * keeps its statements. aws-cdk renders every one of them from a
 * `PolicyDocument` (`iam.Policy`, `iam.ManagedPolicy`, `s3.BucketPolicy`,
 * `sqs.QueuePolicy`, `sns.TopicPolicy`), whose `addStatements` is how a grant
 * lands in a policy that exists. (`AWS::IAM::Role`'s inline `Policies` list
 * holds several documents, each in a list element without a key: not modelled.)
 */
export const POLICY_STATEMENTS: Readonly<Record<string, FieldPath>> = Object.freeze({
  'AWS::IAM::Policy': ['PolicyDocument', 'Statement'],
  'AWS::IAM::ManagedPolicy': ['PolicyDocument', 'Statement'],
  'AWS::S3::BucketPolicy': ['PolicyDocument', 'Statement'],
  'AWS::SQS::QueuePolicy': ['PolicyDocument', 'Statement'],
  'AWS::SNS::TopicPolicy': ['PolicyDocument', 'Statement'],
});

/** The path of a resource type's policy statements (`PolicyDocument.Statement`), or undefined when it holds no policy document. */
export function statementsPathOf(resourceType: string): FieldPath | undefined {
  return Object.hasOwn(POLICY_STATEMENTS, resourceType) ? POLICY_STATEMENTS[resourceType] : undefined;
}

/**
 * The topology of a policy-holding resource's properties, for the writes that
 * add statements to its policy: its statements are a set, one value per
 * statement (a statement is written whole), keyed by the statement's JSON as
 * aws-cdk renders it, which is the text aws-cdk itself compares to drop a
 * repeated statement; everything else deduced, as every CloudFormation
 * property is (maps per key, lists whole). Undefined for a type that holds no
 * policy document.
 *
 * Overrides keep the deduced topology: an override of the statements
 * replaces the list whole, so it writes the list, not values of a set.
 *
 * @param resourceType the CloudFormation type (`AWS::IAM::Policy`)
 */
export function policyTopologyOf(resourceType: string): FieldTopology | undefined {
  const path = statementsPathOf(resourceType);
  return path ? new SetAt(path, 0) : undefined;
}

/** A deduced map whose descendant at `path` (from `depth` on) is a set of atomic values. */
class SetAt implements FieldTopology {
  public readonly type = 'map';
  public readonly atomic = false;

  public constructor(private readonly path: FieldPath, private readonly depth: number) {}

  public field(name: string): FieldTopology {
    if (name !== this.path[this.depth]) return DEDUCED;
    return this.depth + 1 === this.path.length ? STATEMENT_SET : new SetAt(this.path, this.depth + 1);
  }

  public element(): FieldTopology {
    return DEDUCED;
  }
}

/** A set whose values are whole documents (statements): each value is one leaf. */
class AtomicValueSet implements FieldTopology {
  public readonly type = 'list';
  public readonly atomic = false;
  public readonly listType = 'set';

  public field(): FieldTopology {
    return DEDUCED;
  }

  public element(): FieldTopology {
    return UNTYPED_ATOMIC;
  }
}

const STATEMENT_SET: FieldTopology = new AtomicValueSet();
