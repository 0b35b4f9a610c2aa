import type { DependencyGraph } from './graph/dependency-graph';
import type { Contradiction } from './ledger/contradiction';
import type { FieldPath } from './ledger/field-path';
import type { Writer } from './ledger/writer';
import type { ObjectIdentity } from './object-identity';
import type { InstalledPackage } from '../private/creation-site';
import type { ValueShape } from '../private/field-value';

/**
 * Everything synth knows about a composition, collected in one walk of the
 * construct tree: plain, read-only data. The check and render stages read only
 * this; nothing in it refers back to a construct, and nothing changes it later.
 *
 * Construct paths stand for constructs; indexes into `objects` and `stacks`
 * stand for objects and stacks (in creation order).
 */
export interface Facts {
  /** Capabilities, in creation order. */
  readonly capabilities: readonly CapabilityFact[];
  /** Deployment-time stacks, in creation order. */
  readonly stacks: readonly StackFact[];
  /** cdk8s charts, in creation order. */
  readonly charts: readonly ChartFact[];
  /** Every declaration of a Kubernetes object, in creation order; a second declaration of an identity is kept too. */
  readonly objects: readonly ObjectFact[];
  /** Who writes which field of which object (Kubernetes and CloudFormation). */
  readonly ledger: FieldLedgerFacts;
  /** Each `Contribution`, as written. */
  readonly contributions: readonly ContributionFact[];
  /** The controllers declared as writers of fields in the cluster (`RuntimeWriter`), in creation order. */
  readonly runtimeWriters: readonly RuntimeWriterFact[];
  /** What the merged objects hold that the API server refuses (duplicate list keys, `value` beside `valueFrom`). */
  readonly contradictions: readonly ContradictionFact[];
  /** CloudFormation resources that claim a physical name. */
  readonly physicalNames: readonly PhysicalNameFact[];
  /** Every by-name reference from one object to another, as the Kubernetes API defines them or `Reference.byName` declares them. */
  readonly references: readonly ReferenceFact[];
  /** Objects declared to exist outside the composition (`Reference.external`). */
  readonly externals: readonly ExternalFact[];
  /** Pods declared to be made outside the composition (`Reference.externalPods`), for Services' selectors. */
  readonly externalPods: readonly ExternalPodsFact[];
  /**
   * The `group/Kind` keys of the kinds declared with `Reference.clusterScoped`: kinds whose CRD is outside the
   * composition, sorted.
   * @default - none
   */
  readonly declaredKinds?: readonly string[];
  /** Every aws-cdk token found in a runtime manifest. */
  readonly deployTimeValues: readonly DeployTimeValueFact[];
  /** Every aws-cdk token found in text synth writes to `plan.json` or `interface.json`. */
  readonly artifactDeployTimeValues: readonly ArtifactDeployTimeValueFact[];
  /** Interface contracts, in creation order. */
  readonly contracts: readonly ContractFact[];
  /** The dependency graph over both lifecycles: one node per stack and per first declaration of an object. */
  readonly graph: DependencyGraph<GraphUnit | undefined>;
  /** What went wrong while collecting; judged by the rules of the check stage. */
  readonly problems: CollectionProblems;
  /** The synthesized cloud assemblies, for the deploy output. */
  readonly assembly: AssemblyFacts;
  /** The construct that declares each CloudFormation resource, by `<stack path>\u0000<logical id>`. */
  readonly resourceDeclarers: Readonly<Record<string, string>>;
  /**
   * The file each object or resource that cdk8s' `Include` or aws-cdk's `CfnInclude` read came from (the `url`
   * or `templateFile` as the program gave it), by its declarer's path: what a message tells the user to edit.
   * @default - nothing was included
   */
  readonly includedFrom?: Readonly<Record<string, IncludedFile>>;
}

/** A capability. */
export interface CapabilityFact {
  /** Its construct path. */
  readonly path: string;
  /** Its construct id (the first level of its stacks' and parameters' names). */
  readonly id: string;
  /** Its description, if it has one. */
  readonly description?: string;
}

/** The part a stack plays in its capability. */
export type StackRole = 'base' | 'tenant' | 'other';

/** A deployment-time stack. */
export interface StackFact {
  /** Its construct path. */
  readonly path: string;
  /** The enclosing capability's path; absent for a stack outside any capability. */
  readonly capability?: string;
  /** `SharedBase`, `DeploymentAggregate`, or another aws-cdk `Stack`. */
  readonly role: StackRole;
  /** The CloudFormation stack name. */
  readonly stackName: string;
  /** The template file, relative to the cloud assembly; absent when the stack was not synthesized. */
  readonly templateFile?: string;
  /** The synthesized template; absent when the stack was not synthesized. */
  readonly template?: any;
  /** Where physical names must be unique: the stack's account (partition-wide names). */
  readonly account: string;
  /** The stack's environment, `aws://account/region` (region-wide names). */
  readonly environment: string;
  /** The region it deploys to, when its `env` names one; absent for an environment-agnostic stack (a token). */
  readonly region?: string;
  /** The account it deploys to, when its `env` names one; absent for an environment-agnostic stack (a token). */
  readonly pinnedAccount?: string;
}

/** A cdk8s chart. */
export interface ChartFact {
  /** Its construct path. */
  readonly path: string;
  /** The enclosing capability's path, if any. */
  readonly capability?: string;
}

/** The file an object or resource was included from. */
export interface IncludedFile {
  /** The file, as the program gave it (an absolute path relative to the working directory). */
  readonly file: string;
  /** What read it: cdk8s' `Include` (a YAML document) or aws-cdk's `CfnInclude` (a template's resource). */
  readonly by: 'Include' | 'CfnInclude';
}

/** One declaration of a Kubernetes object. */
export interface ObjectFact {
  /** The `ApiObject`'s construct path. */
  readonly path: string;
  /** The declaring construct: the cdk8s-plus construct that owns a `Resource`, else the object itself. */
  readonly declarer: string;
  /** The closest chart's path. */
  readonly chart: string;
  /** The enclosing capability's path, if any. */
  readonly capability?: string;
  /** Group, kind, namespace (as the API server defaults it), name. */
  readonly identity: ObjectIdentity;
  /** Equal for equal identities (`identityKey`). */
  readonly key: string;
  /** The manifest as emitted: declaration, JSON patches and contributions merged. */
  readonly manifest: any;
  /** For a second declaration of an identity: the index of the first. */
  readonly duplicateOf?: number;
  /**
   * When cdk8s generated `metadata.name` (none was given): the construct path
   * it was generated from, whose ids the user changes to change the name.
   * Looked up only for a name some kind refuses, and for the declarations of
   * a duplicate object (the only names a message explains): absent for a
   * DNS-1035 label of at most 52 characters otherwise.
   */
  readonly nameFrom?: string;
}

/** The field ledger: per object (or CloudFormation resource), every write with its writer. */
export interface FieldLedgerFacts {
  /** One entry per object or resource that has writes recorded. */
  readonly objects: readonly ObjectWrites[];
  /** Escape hatches over what their own object's declaration rendered: accepted, the declarer's own. */
  readonly overrides: readonly OverrideFact[];
  /** Leaves that one writer takes from another in this release (`force: true`, aws-cdk's tag layering). */
  readonly handovers: readonly HandoverFact[];
  /**
   * The resources whose only writes besides their declarer's are tag keys `Tags.of(scope).add` wrote and nothing
   * else writes: those writes, kept out of `objects` (they contest nothing, and owners and the lock leave them to
   * aws-cdk's tag manager), for a finding about such a tag to be placed at the Tags call.
   * @default - none
   */
  readonly tagged?: readonly ObjectWrites[];
}

/**
 * A plain escape hatch (`addJsonPatch`, `addOverride`, `addPropertyOverride`)
 * over a value its own object's declaration rendered, or a plain deletion of
 * a value an earlier plain escape hatch of the same object set: the declarer
 * changing what its construct renders, accepted and shown in the plan.
 */
export interface OverrideFact {
  /** How messages name the object. */
  readonly object: string;
  /** A Kubernetes object or a CloudFormation resource. */
  readonly kind: 'k8s' | 'cfn';
  /** The leaf overridden. */
  readonly path: FieldPath;
  /** The declaring construct, whose rendered value it replaces. */
  readonly declarer: Writer;
  /** The call that overrides it. */
  readonly writer: Writer;
  /** The earlier escape hatch of the same object whose value a deletion removes; absent when the value is the declaration's. */
  readonly replaces?: Writer;
  /** The value before the override (the declaration's, or `replaces`'); absent when there was none at this leaf (a value inside it). */
  readonly rendered?: unknown;
  /** The value emitted; absent when the override removes the leaf. */
  readonly patched?: unknown;
}

/** Why a leaf changes hands inside one release. */
export type HandoverReason = 'force' | 'tag-priority' | 'nearer-scope' | 'aspect-priority';

/** A leaf one writer takes from another in this release; the output has the new owner's value. */
export interface HandoverFact {
  /** How messages name the object. */
  readonly object: string;
  /** A Kubernetes object or a CloudFormation resource. */
  readonly kind: 'k8s' | 'cfn';
  /** The leaf. */
  readonly path: FieldPath;
  /** The writer it is taken from. */
  readonly from: Writer;
  /** The writer that takes it. */
  readonly to: Writer;
  /**
   * `force`: a Contribution with `force: true`; `tag-priority`: a Tag of a
   * higher priority; `nearer-scope`: a Tag added nearer the resource, at an
   * equal priority (aws-cdk's own layering); `aspect-priority`: an aspect
   * aws-cdk runs after another at a higher priority (`Aspects.of(scope).add(a, { priority })`).
   */
  readonly reason: HandoverReason;
}

/** The writes to one object. */
export interface ObjectWrites {
  /** How messages name the object, for example `apps/Deployment web/frontend`. */
  readonly label: string;
  /** `k8s` for a Kubernetes object, `cfn` for a CloudFormation resource. */
  readonly kind: 'k8s' | 'cfn';
  /** Every write, in the order made. */
  readonly writes: readonly FieldWrite[];
  /**
   * The declarer's leaves that hold its library's default, not a value its
   * props set (cdk8s-plus's replicas, resources, ...), when another writer
   * writes the object.
   * @default - none
   */
  readonly defaults?: readonly LibraryDefault[];
  /**
   * The writes of writers with `force: true` that another forced writer
   * contests, with the value each writes: force takes a leaf from its owner,
   * never from another forced writer, so these stay in `writes` and conflict.
   * @default - no forced writer contests another
   */
  readonly forced?: readonly ForcedWrite[];
  /**
   * Whether one of `writes` removes its leaf (a JSON patch `remove`, a deletion override) rather than writing a
   * value there: asked only of the write a finding is placed at, as telling reads the value written.
   * @default - no write is known to remove its leaf
   */
  readonly removes?: (write: FieldWrite) => boolean;
}

/** A write of a forced writer (`force: true`) that another forced writer contests. */
export interface ForcedWrite {
  /** The forced writer. */
  readonly writer: Writer;
  /** The leaf it writes. */
  readonly path: FieldPath;
  /** The value it writes there; absent when it removes the leaf, or when the ledger cannot tell the value (a write callback's change below a node written whole). */
  readonly value?: unknown;
  /** True when it removes the leaf (a JSON patch `remove`, a deletion override). */
  readonly removes?: true;
}

/** A leaf a declarer holds only because its library renders a default there. */
export interface LibraryDefault {
  /** The leaf. */
  readonly path: FieldPath;
  /** The default value. */
  readonly value: unknown;
  /** The library that renders it. */
  readonly library: 'cdk8s-plus';
}

/** One leaf written by one writer. */
export interface FieldWrite {
  /** Who writes it. */
  readonly writer: Writer;
  /** The leaf, in server-side apply's sense. */
  readonly path: FieldPath;
  /**
   * The write only makes the node exist (an empty map, a keyed list element
   * with nothing but its key, a value of a set): it contests nothing, and is
   * contested only by another writer's write of the node itself or of an
   * ancestor (a scalar or atomic value, a JSON patch's remove).
   */
  readonly presence?: true;
  /**
   * Set when the writer writes this leaf only by setting the value of an
   * ancestor, the path given (a JSON patch `add` or `replace`, an
   * `addOverride` of a whole map), which drops the value another writer set
   * here.
   */
  readonly replacing?: FieldPath;
}

/**
 * A contradiction in a merged Kubernetes object: writes that are each valid
 * but together make an object the API server refuses. One of the kinds of
 * `Contradiction`, with the object and the writers of each part.
 */
export type ContradictionFact = Contradiction & {
  /** How messages name the object, for example `apps/Deployment shop/web`. */
  readonly object: string;
  /**
   * The writers, sorted by name: for `duplicate-key` one entry, the writers of
   * the elements with that key; for `exclusive-fields` one entry per field.
   */
  readonly writers: readonly (readonly Writer[])[];
};

/** A controller that writes fields in the cluster, declared with `RuntimeWriter`. */
export interface RuntimeWriterFact {
  /** Its construct path. */
  readonly path: string;
  /** The object it writes (an index into `objects`), or the kind of every object it writes. */
  readonly target: { readonly object: number } | { readonly group: string; readonly kind: string };
  /** The leaves it writes: as given, and as field paths of the target kind's topology. */
  readonly fields: ReadonlyArray<{ readonly text: string; readonly path: FieldPath }>;
  /** The Kubernetes username it writes as. */
  readonly identity: string;
  /** Its field manager as declared (`RuntimeWriterProps.manager`); absent when it declares none. */
  readonly manager?: string;
}

/** A `Contribution` to a Kubernetes object. */
export interface ContributionFact {
  /** The contribution's construct path: the writer. */
  readonly writer: string;
  /** The index of the object written to. */
  readonly target: number;
  /** The fields written, as given. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A CloudFormation resource's claim on a physical name, or an Output's on its export name. */
export interface PhysicalNameFact {
  /** Equal for two claims of one name (type, name, and where it must be unique). */
  readonly key: string;
  /** How messages name the claim, for example `AWS::SSM::Parameter Name "/cdn/origin"` or `Output Export.Name "shop-jobs-url"`. */
  readonly claim: string;
  /** The claiming construct's path. */
  readonly claimant: string;
}

/** A by-name reference from one object to another. */
export interface ReferenceFact {
  /** The index of the referring object. */
  readonly from: number;
  /** What it names. */
  readonly target: ObjectIdentity;
  /** The field that holds the name, for example `spec.template.spec.serviceAccountName`. */
  readonly field: string;
  /** For a reference to one key of a ConfigMap or Secret (`configMapKeyRef`, `secretKeyRef`): the key. */
  readonly key?: string;
}

/** An object declared to exist outside the composition. */
export interface ExternalFact {
  /** The declaring `Reference`'s path. */
  readonly path: string;
  /** Its identity; `namespace` absent for a namespaced kind given without one means any namespace. */
  readonly identity: ObjectIdentity;
  /** True when a namespaced kind was declared without a namespace: the name in every namespace. */
  readonly anyNamespace: boolean;
}

/** Pods declared to be made outside the composition. */
export interface ExternalPodsFact {
  /** The declaring `Reference`'s path. */
  readonly path: string;
  /** Their namespace as the API server stores it (`default` for none). */
  readonly namespace: string;
  /** Their labels. */
  readonly labels: Readonly<Record<string, string>>;
}

/** An aws-cdk token in a runtime manifest. */
export interface DeployTimeValueFact {
  /** The index of the object. */
  readonly object: number;
  /** Where, as manifest path segments (list indexes as digits). */
  readonly path: readonly string[];
  /** True when the token is a map key, not a value. */
  readonly isKey: boolean;
  /** The construct the token refers to, when it is a reference (`bucket.bucketName`). */
  readonly producer?: string;
  /** How the token appears. */
  readonly form: DeployTimeForm;
  /** `base64` when it was found by decoding a Secret's `data` or a ConfigMap's `binaryData` value. */
  readonly encoding?: 'base64';
  /** The `Contribution` that wrote the value, when one did (not the declarer). */
  readonly writer?: string;
}

/**
 * The forms of a deployment-time value: a string token (`${Token[...]}`), a
 * list token (`#{Token[...]}`), a number token (a special double, or its text),
 * a CloudFormation dynamic reference (`{{resolve:ssm:/x:1}}`).
 */
export type DeployTimeForm = 'string' | 'list' | 'number' | 'dynamic-reference';

/** An aws-cdk token in text synth writes to an artifact. */
export interface ArtifactDeployTimeValueFact {
  /** The artifact. */
  readonly file: 'plan.json' | 'interface.json';
  /** The construct whose text it is (a capability, a contract). */
  readonly owner: string;
  /** Which text, for example `the description of field 'originDnsName'`. */
  readonly what: string;
  /** How the token appears. */
  readonly form: DeployTimeForm;
  /** The construct the token refers to, when it is a reference. */
  readonly producer?: string;
}

/** One value published through a contract: its JSON type (a token has the type it stands for), literal and secrecy. */
export interface PublishedValueFact extends ValueShape {
  /** True when it is, or resolves to, a secret (`SecretValue`, a Secrets Manager or SecureString reference). */
  readonly secret: boolean;
  /** What makes it a secret, as messages name it: `a SecretValue`, `the NoEcho CfnParameter 'cdn/Base/Password'`. */
  readonly secretSource?: string;
}

/** The SSM parameter a publication writes. */
export interface PublishedParameterFact {
  /** The parameter's construct path. */
  readonly path: string;
  /** Its tier: `Standard`, `Advanced` or `Intelligent-Tiering`. */
  readonly tier: string;
  /** Bytes of the published JSON; a lower bound when `exact` is false (tokens counted as empty). */
  readonly bytes: number;
  /** False when some value is a token, whose length only deployment knows. */
  readonly exact: boolean;
}

/** One field of a contract. */
export interface ContractFieldFact {
  /** The JSON type of its value. */
  readonly type: 'string' | 'number' | 'boolean';
  /** Its JSON Schema format, if any. */
  readonly format?: 'hostname' | 'uri';
  /** Whether a publication must include it. */
  readonly required: boolean;
  /** What it means. */
  readonly description?: string;
}

/** An interface contract and how it is used. */
export interface ContractFact {
  /** Its construct path. */
  readonly path: string;
  /** Its name: the construct id unless the contract was given a `name` (two majors side by side share it). */
  readonly name: string;
  /** The enclosing capability's path. */
  readonly capability: string;
  /** The enclosing capability's id. */
  readonly capabilityId: string;
  /**
   * The installed package (in `node_modules`, no construct library) whose code made the contract, such as
   * `@acme/queue-worker-capability@2.1.0`: its version is that package's to change, not the app's. Absent for a
   * contract the program itself makes.
   */
  readonly package?: InstalledPackage;
  /** Its version, as given. */
  readonly version: string;
  /** The SSM parameter that holds the published values. */
  readonly parameterName: string;
  /** Its fields, by name. */
  readonly fields: Readonly<Record<string, ContractFieldFact>>;
  /** Each `publish` call, in order. */
  readonly publications: ReadonlyArray<{
    /** The publishing stack's path. */
    readonly stack: string;
    /** The values, by field name. */
    readonly values: Readonly<Record<string, PublishedValueFact>>;
    /** The parameter it created, absent when it created none (a second publication, an invalid name). */
    readonly parameter?: PublishedParameterFact;
  }>;
  /** Each chart that consumes it. */
  readonly consumers: ReadonlyArray<{
    /** The consuming chart's path. */
    readonly chart: string;
    /** The Secret the binding creates. */
    readonly secretName: string;
    /** The namespace of the binding, if any. */
    readonly namespace?: string;
    /**
     * The binding: the index in `objects` of the `ExternalSecret` that extracts the
     * parameter into the Secret (one per namespace, shared by the charts there).
     * It belongs to the contract's major, not to a reader: its removal is judged by
     * the readers of that major, not by the objects that happened to read it.
     */
    readonly binding?: number;
  }>;
  /** Who reads which field: objects whose manifests render a handle of the field. */
  readonly readers: ReadonlyArray<{
    /** The field. */
    readonly field: string;
    /** The reading object's declarer. */
    readonly reader: string;
    /** The reader's chart. */
    readonly chart: string;
  }>;
  /** Handles asked for that the contract does not declare. */
  readonly undeclaredReads: ReadonlyArray<{
    /** The chart that asked. */
    readonly chart: string;
    /** The name asked for. */
    readonly field: string;
  }>;
  /** Values of handles read before the contract was published (each undefined then). */
  readonly earlyValueReads: ReadonlyArray<{
    /** The chart whose handle was read. */
    readonly chart: string;
    /** The field. */
    readonly field: string;
  }>;
}

/** What a node of the composition graph stands for: a stack or an object (an index into `stacks`/`objects`). */
export type GraphUnit =
  | { readonly kind: 'stack'; readonly index: number }
  | { readonly kind: 'object'; readonly index: number };

/**
 * Who wrote a validation that failed, when cdk-capability did not: `program`, on a construct whose class is the
 * program's own (or a plain `Construct`): the validation, and its message, are the program's; `library`, on a
 * construct of a construct library's class (`fqn`, its jsii name, such as `aws-cdk-lib.aws_s3.Bucket`): that
 * library's validation, or one the program added to the construct with `node.addValidation`.
 */
export type ValidationAuthor = { readonly kind: 'program' } | { readonly kind: 'library'; readonly fqn: string };

/** What went wrong while collecting, as plain records. */
export interface CollectionProblems {
  /**
   * A construct's own validation (`node.validate()`) failed. `by` says whose validation it was when it is not
   * cdk-capability's own: the program's, or a construct library's (or one the program added to a construct of it).
   */
  readonly validationErrors: ReadonlyArray<{ readonly path: string; readonly error: string; readonly by?: ValidationAuthor }>;
  /** An object failed to render (`toJson()` threw). */
  readonly renderErrors: ReadonlyArray<{ readonly path: string; readonly error: string }>;
  /**
   * A capability's stacks failed to synthesize. `refused` is set when the error is this library's refusal of
   * one construct (a `CompositionError`, such as the cycle a stack dependency aws-cdk adds for a cross-stack
   * reference closes): its code, message after the code's title, and paths, reported as they are.
   */
  readonly synthesisErrors: ReadonlyArray<{
    readonly capability: string;
    readonly error: string;
    readonly refused?: { readonly code: string; readonly message: string; readonly paths: readonly string[] };
  }>;
  /** A tenant aggregate could not be made to depend on its shared base. */
  readonly wiringErrors: readonly WiringError[];
  /** Cycles of stacks that a `node.addDependency` closes, which aws-cdk would refuse at synth (those not named by the graph). */
  readonly stackCycles: readonly StackCycle[];
  /** Constructs made to depend on themselves. */
  readonly selfDependencies: readonly string[];
  /** A Contribution whose props cannot be used, or whose write callback failed: its path and what is wrong. */
  readonly contributionErrors: ReadonlyArray<{ readonly path: string; readonly others?: readonly string[]; readonly error: string }>;
  /**
   * What aws-cdk's built-in template validator found in the stacks' templates,
   * with the severity aws-cdk gives each (absent when the validator is off).
   */
  readonly templateFindings?: readonly TemplateFinding[];
  /**
   * Values an object's JSON patches write that its render loses (a generated class serializes the object after
   * its patches, by its schema: a quantity given as text becomes null, a key the schema lacks is dropped).
   * @default - none
   */
  readonly droppedPatchValues?: readonly DroppedPatchValue[];
  /**
   * The error and warning annotations aws-cdk recorded in the cloud assemblies (`Annotations.of(c).addError/addWarning`,
   * an Aspect's, cdk-nag's, aws-cdk's own), which `cdk synth` prints and `cdk deploy` refuses.
   * @default - none
   */
  readonly annotations?: readonly ConstructAnnotation[];
}

/** An aws-cdk annotation of a construct, as the cloud assembly's metadata records it. */
export interface ConstructAnnotation {
  /** The construct's path. */
  readonly path: string;
  /** `error` refuses the deploy; `warning` is printed. */
  readonly level: 'error' | 'warning';
  /** The annotation's text (a warning's ends with `[ack: id]`, the id that acknowledges it). */
  readonly message: string;
}

/** A value a JSON patch writes that the object's render loses (`droppedPatchValues`). */
export interface DroppedPatchValue {
  /** The object's construct path. */
  readonly path: string;
  /** The keys from the manifest's root to the value (list indexes as digits). */
  readonly at: readonly string[];
  /** The value the patches leave there: a scalar, or a whole map or list whose key the render lacks. */
  readonly value: unknown;
  /** What the render holds there. */
  readonly rendered: 'null' | 'nothing';
  /** The object's class (`KubeStatefulSet`). */
  readonly className: string;
  /**
   * The file of the loaded module that exports the class, as messages show a file (`node_modules/cdk8s-plus-30/lib/imports/k8s.js`,
   * `imports/k8s.ts`); absent when no loaded module exports it.
   */
  readonly classModule?: string;
  /** The patch call that wrote it, as messages name a call (`addJsonPatch at main.ts:12`), when known. */
  readonly call?: string;
}

/** A tenant aggregate that could not be made to depend on its shared base, since the base depends on it already. */
export interface WiringError {
  /** The tenant aggregate's path. */
  readonly tenant: string;
  /** The shared base's path. */
  readonly base: string;
  /** What aws-cdk said. */
  readonly error: string;
  /**
   * How the base depends on the tenant, one stack dependency after another
   * from the base to the tenant, each with its reason and origin as a graph
   * edge has them (`explicit dependency (addDependency)`, `'shop/Base'.addDependency('shop/acme') at main.ts:12`);
   * empty when no such path is found.
   */
  readonly dependsOn: readonly StackDependencyHop[];
}

/** One stack dependency on a path of stacks, with its reason and origin as a graph edge has them. */
export interface StackDependencyHop {
  /** The stack that depends. */
  readonly dependent: string;
  /** The stack it depends on. */
  readonly dependency: string;
  /** Why (`explicit dependency (addDependency)`, `shared base before tenant aggregate`). */
  readonly reason: string;
  /** Where it comes from (`'shop/Base'.addDependency('shop/acme') at main.ts:12`), when known. */
  readonly origin?: string;
}

/**
 * A cycle of stacks closed by a `node.addDependency` call that aws-cdk makes a
 * stack dependency only at synth (`base.node.addDependency(acme)`, or on a
 * construct inside another stack), together with stack dependencies made
 * before it (a tenant aggregate's on its shared base, an `addStackDependency`).
 */
export interface StackCycle {
  /** The capability whose stacks it joins. */
  readonly capability: string;
  /**
   * Each dependency on the cycle, from the stack whose `node.addDependency`
   * closes it around to that stack again.
   */
  readonly hops: readonly StackDependencyHop[];
}

/** One finding of aws-cdk's built-in CloudFormation template validator. */
export interface TemplateFinding {
  /** The stack's construct path. */
  readonly stack: string;
  /** The validator's rule (`F3002`). */
  readonly rule: string;
  /** What it says. */
  readonly description: string;
  /** The logical ids of the resources it names, with the construct path when known. */
  readonly resources: ReadonlyArray<{ readonly logicalId: string; readonly path?: string }>;
  /** As aws-cdk reports it: `error` only with `@aws-cdk/core:validateAgainstDefaultRules` true (or a warning in strict mode). */
  readonly severity: 'error' | 'warning';
}

/** The cloud assemblies synthesized for the deploy output. */
export interface AssemblyFacts {
  /** Each capability's cloud assembly folder (in the run folder beside the outdir, not the outdir). */
  readonly dirs: readonly string[];
}
