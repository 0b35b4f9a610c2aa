import { Stack } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import type { Capability } from '../constructs/capability';
import type { FieldMap } from '../contract/field';
import type { InterfaceContract } from '../contract/interface-contract';
import { Violation } from '../violation';
import { ObjectIdentity } from './object-identity';

/** A Kubernetes object of the composition, rendered. */
export interface RuntimeObject {
  /** The cdk8s object. */
  readonly apiObject: ApiObject;
  /** The construct that declares it: the cdk8s-plus construct owning a `Resource`, else the object itself. */
  readonly declarer: IConstruct;
  /** The closest chart. */
  readonly chart: Chart;
  /** The enclosing capability, if any. */
  readonly capability?: Capability;
  /** Identity (group, kind, namespace, name). */
  readonly identity: ObjectIdentity;
  /** The manifest as emitted: declaration, JSON patches and contributions merged. */
  manifest: any;
}

/** A deployment-time stack of the composition. */
export interface DeployStack {
  /** The aws-cdk stack. */
  readonly stack: Stack;
  /** The enclosing capability, if any. */
  readonly capability?: Capability;
}

/** Everything synth collected from the construct tree, before any check runs. */
export interface CompositionModel {
  /** Every construct of the app, in tree (creation) order. */
  readonly constructs: IConstruct[];
  /** Capabilities in creation order. */
  readonly capabilities: Capability[];
  /** Deployment-time stacks in creation order. */
  readonly stacks: DeployStack[];
  /** Charts in creation order. */
  readonly charts: Chart[];
  /** Kubernetes objects in creation order. */
  readonly objects: RuntimeObject[];
  /** Interface contracts in creation order. */
  readonly contracts: InterfaceContract<FieldMap>[];
  /** Problems found while collecting (objects that failed to render, construct validation errors). */
  readonly violations: Violation[];
}
