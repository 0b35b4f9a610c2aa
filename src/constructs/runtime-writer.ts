import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { apiObjectOf } from './api-object-of';
import type { KindReference } from './reference';
import { brand, hasBrand } from '../private/brand';
import { FIELD_MANAGER_MAX_BYTES, isFieldManagerName, isReservedFieldManager } from '../private/field-manager-name';
import { FieldPathSyntaxError, parseFieldPath } from '../private/field-path-syntax';
import { refuseUnknownKeys, requireChildId } from '../private/invalid-input';
import { usernameProblem } from '../private/kubernetes-username';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { valueText } from '../private/value-text';

/** Properties of a `RuntimeWriter`. */
export interface RuntimeWriterProps {
  /**
   * What the controller writes: one object (a cdk8s `ApiObject`, or a
   * construct that owns one as its default child), or every object of a kind
   * (`{ apiVersion: 'example.com/v1', kind: 'ApplicationDeployment' }`).
   */
  readonly target: IConstruct | KindReference;

  /**
   * The leaves the controller writes, in the ledger's own path syntax (the
   * one its messages print): `spec.domains`, `metadata.labels["app.kubernetes.io/name"]`,
   * `spec.template.spec.containers[name=web].image`, `metadata.finalizers[=example.com/protect]`.
   * Not the identity fields, not what the API server sets (`metadata.resourceVersion`, `metadata.uid`,
   * `metadata.managedFields`, `metadata.generation`, `metadata.creationTimestamp`, `metadata.selfLink`),
   * and nothing in `status` (written through the status subresource, which enforcement does not constrain).
   */
  readonly fields: readonly string[];

  /**
   * The Kubernetes username the controller writes as, as the API server sees
   * it in `request.userInfo.username`: `system:serviceaccount:<namespace>:<name>`
   * for a service account.
   */
  readonly identity: string;

  /**
   * The field manager the controller writes under (server-side apply's `fieldManager`, or the manager
   * its `Update`s are recorded under), as `metadata.managedFields` names it. The lock records it, and
   * `cdk-capability audit` takes the fields this manager owns as the controller's.
   *
   * @default - `cdk-capability-runtime:<construct path>` (shortened around a digest beyond 128 bytes):
   *   configure the controller to write under that name (client-go's `FieldManager` option,
   *   controller-runtime's `client.FieldOwner`)
   */
  readonly manager?: string;
}

/** The identity fields of every object, which nobody owns. */
const IDENTITY_FIELDS = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata.namespace']);
/**
 * The fields of `metadata` the API server sets and server-side apply strips from every request (k8s.io/apiserver
 * `fieldmanager` `stripSet`), so no field manager ever owns them.
 */
const SERVER_SET_METADATA = new Set(['creationTimestamp', 'generation', 'managedFields', 'resourceVersion', 'selfLink', 'uid']);
const EXAMPLES = '"spec.domains", \'metadata.labels["app.kubernetes.io/name"]\', "spec.template.spec.containers[name=web].image" or "metadata.finalizers[=example.com/protect]"';

/**
 * A controller that writes fields of an object (or of every object of a kind)
 * in the cluster, declared as a writer of the composition.
 *
 * The field ledger holds it like any other writer: a construct that writes one
 * of its leaves at deploy time is refused (`CAP002`, naming the controller),
 * and with `CapabilityApp` prop `enforce` the API server lets only this
 * identity change these leaves (and only the deployer change the deploy-time
 * ones). Bad props are `CAP010` at synth, each naming the prop.
 *
 * @example
 * // NetOp writes the domains of the ApplicationDeployment the pipeline declares
 * new RuntimeWriter(routing, 'NetOp', {
 *   target: appDeployment,
 *   fields: ['spec.domains', 'spec.routeTables'],
 *   identity: 'system:serviceaccount:netop-system:netop',
 *   manager: 'network-operator',
 * });
 */
export class RuntimeWriter extends Construct {
  /** True when `x` is a `RuntimeWriter`, also across duplicate installs of this package. */
  public static isRuntimeWriter(x: unknown): x is RuntimeWriter {
    return hasBrand(x, 'RuntimeWriter');
  }

  /** The object written, when the target is one object. */
  public readonly apiObject?: ApiObject;

  /** The kind written, when the target is every object of a kind. */
  public readonly kind?: KindReference;

  /** The leaves written, as given. */
  public readonly fields: readonly string[];

  /** The Kubernetes username the controller writes as. */
  public readonly identity: string;

  /** Its field manager, as declared; absent when the derived one applies (see `RuntimeWriterProps.manager`). */
  public readonly manager?: string;

  /**
   * @param scope where the controller is declared (its path names it in messages)
   * @param id the construct id
   * @param props the target, the leaves, the identity and the field manager
   */
  constructor(scope: Construct, id: string, props: RuntimeWriterProps) {
    super(requireChildId(scope, id, 'RuntimeWriter', 'NetOp'), id);
    brand(this, 'RuntimeWriter');
    refuseUnknownKeys(`RuntimeWriter '${this.node.path}' props`, props, WRITER_PROPS, this.node.path);
    // from JavaScript, anything: props that are no object are one problem, not one per prop read from nothing
    if (props === null || typeof props !== 'object' || Array.isArray(props)) {
      this.fields = [];
      this.identity = '';
      const problem = `its props (${valueText(props)}) must be an object such as { target: appDeployment, fields: ['spec.domains'], identity: 'system:serviceaccount:netop-system:netop' }`;
      this.node.addValidation(ownValidation({ validate: () => [problem] }));
      return;
    }
    const problems: string[] = [];
    const target = (props as Partial<RuntimeWriterProps>).target;
    if (isKindReference(target)) {
      this.kind = { apiVersion: target.apiVersion, kind: target.kind };
    } else {
      this.apiObject = apiObjectOf(target);
      if (!this.apiObject) {problems.push(`'target' (${describeTarget(target)}) must be an ApiObject, a construct with one as its default child, or { apiVersion, kind } for every object of a kind`);} else if (this.apiObject.node.root !== this.node.root) {
        // an object of another construct tree (a second cdk8s App) is no object of the composition: nothing would protect or record it
        problems.push(`'target' (${describeTarget(target)}) is an object of another app, not of the composition this RuntimeWriter is in: nothing would record or protect it. `
          + 'Declare the object in this CapabilityApp, or give { apiVersion, kind } for every object of a kind');
      }
    }
    const fields: unknown = (props as Partial<RuntimeWriterProps>).fields;
    this.fields = Array.isArray(fields) ? [...fields] : [];
    checkFields(fields, problems);
    this.identity = String((props as Partial<RuntimeWriterProps>).identity ?? '');
    const identityProblem = usernameProblem((props as Partial<RuntimeWriterProps>).identity, "'identity'", 'the controller writes as', 'system:serviceaccount:netop-system:netop');
    if (identityProblem) problems.push(identityProblem);
    this.manager = props.manager;
    if (props.manager !== undefined && !isFieldManagerName(props.manager)) {
      problems.push(`'manager' (${JSON.stringify(props.manager)}) must be the field manager the controller writes under, as the API server accepts it: 1 to ${FIELD_MANAGER_MAX_BYTES} bytes of printable characters, such as "network-operator"`);
    } else if (props.manager !== undefined && isReservedFieldManager(props.manager)) {
      problems.push(`'manager' (${JSON.stringify(props.manager)}) is a field manager of cdk-capability's own (cdk-capability apply writes under "cdk-capability" and "cdk-capability:<writer>"; a RuntimeWriter without a manager is "cdk-capability-runtime:<its path>"): `
        + 'a release would take the controller\'s fields away. Give the manager the controller itself writes under, such as "network-operator", or leave it out');
    }
    if (problems.length > 0) this.node.addValidation(ownValidation({ validate: () => problems }));
  }
}

const WRITER_PROPS = keysOf<RuntimeWriterProps>({ target: true, fields: true, identity: true, manager: true });

function isKindReference(x: unknown): x is KindReference {
  if (x === null || typeof x !== 'object' || Construct.isConstruct(x)) return false;
  const k = x as Partial<KindReference>;
  return typeof k.apiVersion === 'string' && k.apiVersion !== '' && typeof k.kind === 'string' && k.kind !== '';
}

function describeTarget(target: unknown): string {
  if (Construct.isConstruct(target)) return `'${target.node.path}'`;
  const text = JSON.stringify(target);
  return text === undefined ? String(target) : text;
}

function checkFields(fields: unknown, problems: string[]): void {
  if (!Array.isArray(fields) || fields.length === 0) {
    problems.push(`'fields' (${JSON.stringify(fields) ?? String(fields)}) must list the leaves the controller writes, such as ['spec.domains']`);
    return;
  }
  const seen = new Set<string>();
  fields.forEach((text: unknown, i) => {
    const where = `'fields'[${i}] (${JSON.stringify(text) ?? String(text)})`;
    if (typeof text !== 'string') {
      problems.push(`${where} must be a string, a leaf such as ${EXAMPLES}`);
      return;
    }
    try {
      const steps = parseFieldPath(text);
      const [first, second] = steps.map((s) => ('field' in s ? s.field : undefined));
      if (IDENTITY_FIELDS.has(text)) {
        problems.push(`${where} is an identity field (apiVersion, kind, metadata.name, metadata.namespace), which nobody owns: leave it out`);
      } else if (first === 'metadata' && second !== undefined && SERVER_SET_METADATA.has(second)) {
        problems.push(`${where} is set by the API server (metadata.${second}), which strips it from every apply and update: no field manager owns it, so no controller can be its writer. Leave it out`);
      } else if (first === 'status') {
        problems.push(`${where} is in status, which controllers write through the status subresource: the admission policy does not constrain it, and the lock, plan.json and audit leave it out. Leave it out, and declare only the controller's fields outside status`);
      } else if (seen.has(text)) {
        problems.push(`${where} is listed twice: list each leaf once`);
      } else {
        seen.add(text);
      }
    } catch (e) {
      if (!(e instanceof FieldPathSyntaxError)) throw e;
      problems.push(`${where} is not a field path: expected ${e.expected} ${e.where}. Write leaves as plan and the lock name them, such as ${EXAMPLES}`);
    }
  });
}
