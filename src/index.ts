// The public API: what users build, configure, or assert on. Everything else is internal.
// First, so that a program without aws-cdk-lib installed is refused with a code before anything loads it.
import './private/aws-cdk-lib-required';
export { CapabilityApp } from './app/capability-app';
export type { CapabilityAppProps } from './app/capability-app';
export { Capability } from './constructs/capability';
export type { CapabilityProps } from './constructs/capability';
export { RuntimeCapability } from './constructs/runtime-capability';
export type { RuntimeCapabilityProps } from './constructs/runtime-capability';
export type { GeneratedNames } from './private/names';
export { CapabilityStack } from './constructs/capability-stack';
export { SharedBase } from './constructs/shared-base';
export type { SharedBaseProps } from './constructs/shared-base';
export { DeploymentAggregate } from './constructs/deployment-aggregate';
export type { DeploymentAggregateProps } from './constructs/deployment-aggregate';
export { Contribution } from './constructs/contribution';
export type { ContributionProps } from './constructs/contribution';
export { Reference } from './constructs/reference';
export { RuntimeWriter } from './constructs/runtime-writer';
export type { RuntimeWriterProps } from './constructs/runtime-writer';
export type { ExternalPodsOptions, KindReference, NameReferenceOptions, ObjectReference } from './constructs/reference';
export { RuntimeRouting } from './routing/runtime-routing';
export type { RuntimeRoutingProps } from './routing/runtime-routing';
export { RouteStyle } from './routing/tenant-route';
export type { GatewayReference, TenantRouteOptions } from './routing/tenant-route';
export type { Backend, BackendOptions, BackendVersionOptions, EnvValueLike, VersionedBackend, VersionedBackendOptions } from './routing/backend';
export { InterfaceContract } from './contract/interface-contract';
export type { ConsumeOptions, Consumption, ContractHandles, FieldHandle, InterfaceContractProps, Publication, PublishOptions } from './contract/interface-contract';
export { Field } from './contract/field';
export type { FieldMap, FieldOptions, FieldValue, PublishedValues } from './contract/field';
export { GitOps } from './render/gitops/gitops';
export type { EnforceOptions, ValidationAction } from './render/enforcement/enforce-options';
export type { FluxOptions, FluxSourceReference } from './render/gitops/flux';
export { CompositionError } from './check/composition-error';
export { ViolationCode } from './check/finding';
export type { Violation } from './check/finding';
export { CapabilityValidation } from './plugin/validation-plugin';
export type { Cdk8sConstructMetadata, Cdk8sValidationContext, CapabilityValidationProps } from './plugin/validation-plugin';
export { CapabilityTesting } from './testing';
export type { CapabilityTestResult } from './testing';
export type { Plan } from './render/writers/plan-json';
export type { OwnershipRecords, PlanHandover, PlanOverride } from './render/ownership-records';
export type { DroppedOrder, InStepOrder, PlanDependency, PlanStep } from './render/plan-steps';
export type { Rename } from './render/renames';
export type { UndeclaredNamespace } from './render/undeclared-namespaces';
export type { PlanObjectWriters } from './cluster/object-writers';
export type { RuntimeHandover } from './cluster/runtime-handover';
export type { LockedGitOps, LockedWriter } from './release/lock';
export type { GitOpsEngine, Teardown, TeardownStep, TeardownTiming } from './render/teardown';
export type {
  ContractChange,
  FieldChange,
  GitOpsChange,
  Handover,
  OwnershipMove,
  PublishedMajor,
  ReleaseDiff,
  RuntimeWriterChange,
  SensitiveNotCompared,
  TrafficChange,
  UnitChanges,
} from './release/release-diff';
export type { InterfaceChange } from './release/interface-compatibility';
export type { OrderChange } from './release/order-changes';
export type { InterfaceArtifact, InterfaceRecord } from './release/interface-record';
export type { RuntimeWriterRecord, RuntimeWriterTarget } from './release/runtime-writer-record';
