// The runtime-only entry point, `cdk-capability/runtime`: everything a composition of cdk8s charts alone uses,
// with types and modules that name nothing of aws-cdk-lib. Its `Capability` takes charts, not stacks; the
// `Capability` of `cdk-capability` takes both. Only re-exports.
export { CapabilityApp } from './app/capability-app';
export type { CapabilityAppProps } from './app/capability-app';
export { RuntimeCapability as Capability } from './constructs/runtime-capability';
export type { RuntimeCapabilityProps as CapabilityProps } from './constructs/runtime-capability';
export type { GeneratedNames } from './private/names';
export { Contribution } from './constructs/contribution';
export type { ContributionProps } from './constructs/contribution';
export { RuntimeWriter } from './constructs/runtime-writer';
export type { RuntimeWriterProps } from './constructs/runtime-writer';
export type { EnforceOptions, ValidationAction } from './render/enforcement/enforce-options';
export { Reference } from './constructs/reference';
export type { ExternalPodsOptions, KindReference, NameReferenceOptions, ObjectReference } from './constructs/reference';
export { RuntimeRouting } from './routing/runtime-routing';
export type { RuntimeRoutingProps } from './routing/runtime-routing';
export { RouteStyle } from './routing/tenant-route';
export type { GatewayReference, TenantRouteOptions } from './routing/tenant-route';
export type { Backend, BackendOptions, BackendVersionOptions, EnvValueLike, VersionedBackend, VersionedBackendOptions } from './routing/backend';
export { GitOps } from './render/gitops/gitops';
export type { FluxOptions, FluxSourceReference } from './render/gitops/flux';
export { CompositionError } from './check/composition-error';
export { ViolationCode } from './check/finding';
export type { Violation } from './check/finding';
export { CapabilityValidation } from './plugin/validation-plugin';
export type { Cdk8sConstructMetadata, Cdk8sValidationContext, CapabilityValidationProps } from './plugin/validation-plugin';
export { CapabilityTesting } from './testing';
export type { CapabilityTestResult } from './testing';
export type { Plan } from './render/writers/plan-json';
