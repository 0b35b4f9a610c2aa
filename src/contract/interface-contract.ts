import { aws_iam as iam, aws_ssm as ssm, Stack, Token } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import {
  BindingOptions,
  bindingOptionsProblems,
  consumeArgumentsProblems,
  CONTRACT_MISUSE,
  contractArgumentsRefusal,
  ContractSubject,
  envVarArgumentsProblem,
  handleArgumentsRefusal,
  publishArgumentsProblems,
  undeclaredReadText,
} from './contract-arguments';
import { ExternalSecret } from './external-secret';
import { FieldMap, FieldValue, PublishedValues } from './field';
import { publishedSize, TIER_LIMITS } from './parameter-size';
import { Capability } from '../constructs/capability';
import { brand, hasBrand } from '../private/brand';
import { envVarNameFor } from '../private/env-var-name';
import { markFieldHandle } from '../private/field-handle';
import { invalidInput, refuseUnknownKeys, requireChildId } from '../private/invalid-input';
import { cdk8sPlus } from '../private/lazy';
import { constructionRefusal } from '../private/misplaced';
import { keysOf } from '../private/near-miss';
import { ownValidation } from '../private/own-validation';
import { parameterNameProblem } from '../private/parameter-name';
import { registerMember } from '../private/scope-members';
import { majorOfVersion } from '../private/semver-version';
import { valueText } from '../private/value-text';

/** Properties of an `InterfaceContract`. */
export interface InterfaceContractProps<F extends FieldMap> {
  /**
   * The contract's semver 2.0 version, such as `1.2.0`, exactly as written: no leading `v` or `=`, no
   * spaces (the lock records it as given). The parameter path carries its major.
   */
  readonly version: string;
  /** The typed fields, by name. */
  readonly fields: F;
  /**
   * The first level of the SSM parameter path.
   *
   * @default '/cdk-capability'
   */
  readonly parameterPrefix?: string;
  /**
   * The contract's name, as `interface.json` and the lock record it: give two
   * contracts of one capability the same name and different majors to publish
   * the next major beside the previous one (see docs/releases.md).
   *
   * @default - the construct id
   */
  readonly name?: string;
}

/** Options of `InterfaceContract.publish`. */
export interface PublishOptions {
  /**
   * Principals (the External Secrets Operator's IRSA or Pod Identity role) that
   * get `ssm:GetParameter` on exactly the contract's parameter.
   *
   * @default - none; the managed policy `readerPolicy` can be attached later
   */
  readonly readers?: iam.IGrantable[];
  /**
   * The SSM Parameter Store tier of the parameter. Standard holds 4 KB,
   * Advanced 8 KB (and costs more); Intelligent-Tiering picks at deploy time,
   * which suits values whose size only deployment knows. A value the tier
   * cannot hold is refused at synth (`CAP009`).
   *
   * @default - Standard when the values known at synth fit in 4 KB, else Advanced
   */
  readonly tier?: ssm.ParameterTier;
}

/** Options of `InterfaceContract.consume`. */
export interface ConsumeOptions {
  /**
   * The namespace of the `ExternalSecret` and the Secret it creates.
   *
   * @default - the chart's namespace, else none (the namespace `kubectl` applies to)
   */
  readonly namespace?: string;
  /**
   * The External Secrets store that reads AWS Parameter Store.
   *
   * @default 'aws-parameter-store'
   */
  readonly secretStoreName?: string;
  /**
   * The kind of that store.
   *
   * @default 'ClusterSecretStore'
   */
  readonly secretStoreKind?: 'ClusterSecretStore' | 'SecretStore';
  /**
   * How often the operator re-reads the parameter.
   *
   * @default '1h'
   */
  readonly refreshInterval?: string;
}

/** What `publish` created on the deployment side. */
export interface Publication {
  /** The stack that publishes. */
  readonly stack: Stack;
  /** The values published, as given. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The one SSM parameter holding the values as JSON (absent when its name is invalid, or for a second `publish`). */
  readonly parameter?: ssm.StringParameter;
  /** A managed policy allowing `ssm:GetParameter` on exactly that parameter. */
  readonly readerPolicy?: iam.ManagedPolicy;
}

/** A typed handle on one field, on the runtime side. */
export interface FieldHandle<T> {
  /** The field's name, which is also its key in the bound Secret. */
  readonly name: string;
  /**
   * The value when it was published as a literal known at synth, else undefined.
   * Reading it records nothing: only a handle rendered into a manifest (`envValue`,
   * `envVar`) makes its object a reader of the field in `interface.json` and the lock.
   * Read before `publish`, it is undefined: synth refuses that read (`CAP009`) when the
   * field is then published as a literal.
   */
  readonly value: T | undefined;
  /**
   * The field as a cdk8s-plus environment value read from the bound Secret; the variable's
   * name is its key in `envVariables`.
   *
   * @throws CompositionError `CAP009` when given an argument
   */
  envValue(): kplus.EnvValue;
  /**
   * The field as a raw container `env` entry read from the bound Secret.
   *
   * @param variableName the variable's name; by default the field's
   * @throws CompositionError `CAP009` when the name is no string, or no environment variable name
   * Kubernetes 1.30 takes (letters, digits, '_', '-' and '.', not starting with a digit)
   */
  envVar(variableName?: string): {
    /** The variable's name. */
    name: string;
    /** Where the value comes from. */
    valueFrom: {
      /** The key of the bound Secret that holds the field. */
      secretKeyRef: {
        /** The Secret's name. */
        name: string;
        /** The key: the field's name. */
        key: string;
      };
    };
  };
}

/**
 * The typed handles `consume` returns: one per declared field. Reading a field the contract
 * does not declare (from JavaScript, or `as any`) throws `CAP009`, naming the field it most
 * likely misspells.
 */
export type ContractHandles<F extends FieldMap> = { readonly [K in keyof F & string]: FieldHandle<FieldValue<F[K]>> };

/** One runtime consumer of the contract. */
export interface Consumption {
  /** The consuming chart. */
  readonly chart: Construct;
  /** The `ExternalSecret` that binds the parameter into a Secret. */
  readonly externalSecret: ApiObject;
  /** The name of that Secret. */
  readonly secretName: string;
  /** The namespace of the binding, if any. */
  readonly namespace?: string;
}

/**
 * The annotation of a contract's binding (`ExternalSecret`) that holds the contract's version. The External Secrets
 * Operator updates the Secret when the binding's spec, labels or annotations change, or when its `refreshInterval`
 * passes, not when the parameter does; the binding extracts the whole parameter, so a field added changes neither
 * its spec nor its name. The version, which a field added must bump (`CAP007`), changes this annotation, so the
 * Secret holds the new key as soon as the runtime step applies the binding.
 */
export const CONTRACT_VERSION_ANNOTATION = 'cdk-capability.io/contract-version';

const IGNORED_KEYS = new Set(['then', 'toJSON', 'asymmetricMatch', 'nodeType', 'constructor', 'inspect', 'toString', 'valueOf', 'length']);

/**
 * The one versioned interface of a capability: the only thing that crosses
 * from deployment time (aws-cdk) to runtime (cdk8s).
 *
 * The deployment side `publish`es values (aws-cdk tokens allowed) as ONE SSM
 * parameter of JSON, at `/cdk-capability/<capability>/<contract>/v<major>`; the
 * runtime side `consume`s typed handles, bound by an External Secrets
 * `ExternalSecret` that extracts the parameter into a Secret. Synth writes the
 * contract to `interface.json`.
 *
 * @example
 * const edge = new InterfaceContract(cdn, 'Edge', {
 *   version: '1.2.0',
 *   fields: { originDnsName: Field.dnsName(), tenantHeader: Field.string() },
 * });
 * edge.publish(base, { originDnsName: distribution.domainName, tenantHeader: 'x-tenant-id' });
 * const values = edge.consume(routing);
 * new kplus.Deployment(routing, 'Web', { containers: [{ image: 'web', envVariables: {
 *   ORIGIN: values.originDnsName.envValue() } }] });
 */
export class InterfaceContract<F extends FieldMap> extends Construct {
  /** True when `x` is an `InterfaceContract`, also across duplicate installs of this package. */
  public static isInterfaceContract(x: unknown): x is InterfaceContract<FieldMap> {
    return hasBrand(x, 'InterfaceContract');
  }

  /** The semver version, as given. */
  public readonly version: string;
  /** The fields. */
  public readonly fields: F;
  /** The capability the contract belongs to. */
  public readonly capability: Capability;
  /** The fully qualified SSM parameter name that holds the published values. */
  public readonly parameterName: string;
  /** The contract's name (the construct id unless `name` was given); its lowercase form is a level of the parameter path. */
  public readonly contractName: string;
  /**
   * Handles asked for that the contract does not declare (reported at synth).
   *
   * @internal
   */
  public readonly undeclaredReads: Array<{ readonly chart: Construct; readonly field: string }> = [];
  /**
   * Handles' values read before the contract was published, which were undefined (reported at synth when the
   * field is then published as a literal).
   *
   * @internal
   */
  public readonly earlyValueReads: Array<{ readonly chart: Construct; readonly field: string }> = [];

  private readonly published: Publication[] = [];
  private readonly consumed: Consumption[] = [];
  /** The options of each binding, by its ExternalSecret: every consume in its namespace shares them. */
  private readonly bindingOptions = new Map<ApiObject, BindingOptions>();

  /**
   * @param scope the capability
   * @param id the contract's name; its lowercase form is a level of the parameter path
   * @param props version and fields
   */
  constructor(scope: Capability, id: string, props: InterfaceContractProps<F>) {
    super(withProps(requireChildId(scope, id, 'InterfaceContract', 'Edge'), id, props), id);
    brand(this, 'InterfaceContract');
    this.capability = Capability.of(this);
    registerMember(scope, 'InterfaceContract', this);
    this.version = props.version;
    const problems = [...fieldsProblems(props.fields), ...textPropProblems(props)];
    // from JavaScript, anything: fields that are no map of Fields would reach the interface artifact as they are;
    // fields that are no map at all are none meanwhile, so that nothing reads them as a map
    this.fields = (problems.length > 0 && !isPlainMap(props.fields) ? {} : props.fields) as F;
    if (problems.length > 0) this.node.addValidation(ownValidation({ validate: () => problems }));
    const major = majorOfVersion(props.version) ?? 0;
    const prefix = (typeof props.parameterPrefix === 'string' ? props.parameterPrefix : '/cdk-capability').replace(/\/+$/, '');
    this.contractName = typeof props.name === 'string' ? props.name : id;
    this.parameterName = `${prefix}/${this.capability.node.id}/${this.contractName.toLowerCase()}/v${major}`;
  }

  /** Each `publish` call, in order (exactly one when used correctly). */
  public get publications(): readonly Publication[] {
    return [...this.published];
  }

  /** The runtime consumers, one per consuming chart and namespace. */
  public get consumptions(): readonly Consumption[] {
    return [...this.consumed];
  }

  /**
   * Publishes the values on the deployment side, as ONE SSM parameter of JSON,
   * and a managed policy allowing `ssm:GetParameter` on exactly it, with the ids
   * `<contract id>Interface` and `<contract id>InterfaceReader` in `stack`. From a
   * stack of another capability it creates nothing, and synth refuses it (`CAP009`).
   *
   * @param stack the `SharedBase` or a `DeploymentAggregate` of the same capability
   * @param values every required field; aws-cdk tokens allowed; no secrets
   * @returns what was created
   * @throws CompositionError `CAP009` when `stack` is no stack, `values` no object (or a value a handle of
   * `consume`, or a function) or `options` not of their types (a JavaScript program can pass anything), naming each;
   * or when `stack` already has a construct with one of those two ids
   */
  public publish(stack: Stack, values: PublishedValues<F>, options: PublishOptions = {}): Publication {
    const problems = publishArgumentsProblems(this.subject(), stack, values, options);
    if (problems.length > 0) throw contractArgumentsRefusal(this.subject(), 'publish', problems);
    const all = values as Record<string, unknown>;
    // A second publication, one from a stack of another capability, or an invalid parameter name, is refused at
    // synth (CAP009, CAP010); it creates nothing (in another capability's stack, the parameter's id may be taken
    // by that capability's own contract of the same name).
    if (this.published.length > 0 || !stack.node.scopes.includes(this.capability) || parameterNameProblem(this.parameterName)) {
      const publication: Publication = { stack, values: { ...all } };
      this.published.push(publication);
      return publication;
    }
    const id = `${this.node.id}Interface`;
    const taken = [id, `${id}Reader`].find((childId) => stack.node.tryFindChild(childId) !== undefined);
    if (taken !== undefined) {
      throw contractArgumentsRefusal(this.subject(), 'publish', [
        `'${stack.node.path}' already has a construct with the id '${taken}', which publish gives the contract's ${taken === id ? 'parameter' : 'reader policy'}: give that construct another id`,
      ]);
    }
    const tier = options.tier ?? (publishedSize(all).bytes > TIER_LIMITS.Standard ? ssm.ParameterTier.ADVANCED : undefined);
    const parameter = new ssm.StringParameter(stack, id, {
      parameterName: this.parameterName,
      ...(tier ? { tier } : {}),
      description: `cdk-capability interface ${this.capability.node.id}/${this.contractName} ${this.version}`,
      stringValue: stack.toJsonString(all),
    });
    const statement = new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameter.parameterArn] });
    const readerPolicy = new iam.ManagedPolicy(stack, `${id}Reader`, {
      description: `Read the cdk-capability interface ${this.parameterName}`,
      statements: [statement],
    });
    for (const reader of options.readers ?? []) reader.grantPrincipal.addToPrincipalPolicy(statement);
    const publication: Publication = { stack, values: { ...all }, parameter, readerPolicy };
    this.published.push(publication);
    return publication;
  }

  /**
   * Consumes the contract on the runtime side: an `ExternalSecret` in `chart`
   * extracts the parameter into a Secret, and the typed handles read from it.
   * Consuming twice in one chart and namespace returns the same handles; in
   * another namespace of the chart, another `ExternalSecret` binds the Secret
   * there, and the handles read that one (a pod reads Secrets of its own
   * namespace only).
   *
   * @param chart the `RuntimeRouting` (or any cdk8s chart) that reads the values
   * @throws CompositionError `CAP009` when `chart` is in no cdk8s chart, `options` are not of their types (a
   * namespace that is no DNS-1123 label, a store name that is no object name, a refresh interval that is no
   * duration), or differ from the options of the binding already in that namespace, naming each
   */
  public consume(chart: Construct, options: ConsumeOptions = {}): ContractHandles<F> {
    const problems = consumeArgumentsProblems(chart, options);
    if (problems.length > 0) throw contractArgumentsRefusal(this.subject(), 'consume', problems);
    const namespace = options.namespace ?? (chart as { namespace?: string }).namespace;
    const binding = this.consumed.find((c) => c.namespace === namespace);
    if (binding) {
      const where = `${namespace === undefined ? 'without a namespace' : `in namespace '${namespace}'`} that '${this.consumed.find((c) => c.externalSecret === binding.externalSecret)!.chart.node.path}' made`;
      const clashes = bindingOptionsProblems(this.bindingOptions.get(binding.externalSecret)!, options, where);
      if (clashes.length > 0) throw contractArgumentsRefusal(this.subject(), 'consume', clashes);
    }
    const existing = this.consumed.find((c) => c.chart === chart && c.namespace === namespace);
    const consumption = existing ?? this.bind(chart, namespace, options);
    const handles: Record<string, FieldHandle<unknown>> = {};
    for (const name of Object.keys(this.fields)) handles[name] = this.handle(name, consumption);
    return new Proxy(handles, {
      get: (target, key) => {
        if (typeof key === 'string' && !(key in target) && !IGNORED_KEYS.has(key) && !/^[$@_]/.test(key)) {
          // recorded for synth too, in case the program goes on after catching the refusal
          this.undeclaredReads.push({ chart, field: key });
          throw constructionRefusal(CONTRACT_MISUSE, `contract misuse: ${undeclaredReadText(this.subject(), chart.node.path, key)}`, this.node.path);
        }
        return Reflect.get(target, key);
      },
    }) as unknown as ContractHandles<F>;
  }

  /** What messages about its arguments name of the contract. */
  private subject(): ContractSubject {
    return { path: this.node.path, capability: this.capability.node.id, fields: Object.keys(this.fields ?? {}) };
  }

  private bind(chart: Construct, namespace: string | undefined, options: ConsumeOptions): Consumption {
    const secretName = `${this.capability.node.id}-${this.node.id}-interface`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
    // One binding per namespace: a second chart there reads the same Secret, after it exists.
    const shared = this.consumed.find((c) => c.namespace === namespace);
    if (shared) {
      chart.node.addDependency(shared.externalSecret);
      const consumption: Consumption = { ...shared, chart };
      this.consumed.push(consumption);
      return consumption;
    }
    // the chart's first binding keeps its id; one in another namespace of the chart is told apart by it (the chart's own: none given)
    const base = `${this.node.id}Interface`;
    const id = chart.node.tryFindChild(base) ? `${base}[${namespace ?? 'chart namespace'}]` : base;
    const bound: BindingOptions = {
      secretStoreName: options.secretStoreName ?? 'aws-parameter-store',
      secretStoreKind: options.secretStoreKind ?? 'ClusterSecretStore',
      refreshInterval: options.refreshInterval ?? '1h',
    };
    const externalSecret = new ExternalSecret(chart, id, {
      metadata: {
        name: secretName,
        ...(namespace ? { namespace } : {}),
        // ESO updates the Secret when the binding's labels or annotations change, not when the parameter does: a
        // release that bumps the version (as a field added must, CAP007) makes it read the parameter again at once
        ...(typeof this.version === 'string' ? { annotations: { [CONTRACT_VERSION_ANNOTATION]: this.version } } : {}),
      },
      spec: {
        refreshInterval: bound.refreshInterval,
        // the values of the generated enums ExternalSecretSpecSecretStoreRefKind and ExternalSecretSpecTargetCreationPolicy.OWNER
        secretStoreRef: { kind: bound.secretStoreKind === 'SecretStore' ? 'SecretStore' : 'ClusterSecretStore', name: bound.secretStoreName },
        target: { name: secretName, creationPolicy: 'Owner' },
        dataFrom: [{ extract: { key: this.parameterName } }],
      },
    });
    const consumption: Consumption = { chart, externalSecret, secretName, namespace };
    this.bindingOptions.set(externalSecret, bound);
    this.consumed.push(consumption);
    return consumption;
  }

  private handle(name: string, consumption: Consumption): FieldHandle<unknown> {
    const contract = this;
    const handle: FieldHandle<unknown> = {
      name,
      get value() {
        return contract.valueOf(name, consumption);
      },
      envValue(...given: unknown[]) {
        return contract.envValueOf(name, consumption, given);
      },
      envVar(...given: unknown[]) {
        return contract.envVarOf(name, consumption, given);
      },
    };
    // the handle and its methods, which cdk8s copies as they are into a manifest that holds the handle
    const origin = { contract: this.node.path, field: name };
    for (const marked of [handle, handle.envValue, handle.envVar]) markFieldHandle(marked, origin);
    return handle;
  }

  /** A handle's `value`: the literal published, once published; a read before that is recorded (`CAP009` at synth when a literal is published). */
  private valueOf(name: string, consumption: Consumption): unknown {
    const publication = this.published[0];
    if (!publication) this.earlyValueReads.push({ chart: consumption.chart, field: name });
    const v = publication?.values[name];
    return v === undefined || Token.isUnresolved(v) ? undefined : v;
  }

  /** A handle's `envValue()`: a cdk8s-plus environment value read from the bound Secret. */
  private envValueOf(name: string, consumption: Consumption, given: readonly unknown[]): kplus.EnvValue {
    if (given.length > 0) {
      throw handleArgumentsRefusal(this.subject(), name, 'envValue', `it takes no arguments, but was given ${given.map((a) => valueText(a)).join(', ')}: `
        + `the variable's name is its key in envVariables, such as { ${envVarNameFor(name) ?? 'TENANT_HEADER'}: values.${name}.envValue() }; for a raw env entry of a name of your own, call envVar(name)`);
    }
    const id = `${this.node.id}InterfaceSecret`;
    const existing = consumption.chart.node.tryFindChild(id) as kplus.ISecret | undefined;
    const kplusModule = cdk8sPlus(`envValue() of the field '${name}' of InterfaceContract '${this.node.path}'`, consumption.chart.node.path);
    const secret = existing ?? kplusModule.Secret.fromSecretName(consumption.chart, id, consumption.secretName);
    return kplusModule.EnvValue.fromSecretValue({ secret, key: name });
  }

  /** A handle's `envVar(variableName?)`: a raw container env entry read from the bound Secret. */
  private envVarOf(name: string, consumption: Consumption, given: readonly unknown[]): ReturnType<FieldHandle<unknown>['envVar']> {
    const problem = envVarArgumentsProblem(name, given);
    if (problem) throw handleArgumentsRefusal(this.subject(), name, 'envVar', problem);
    const variableName = given[0] as string | undefined;
    return { name: variableName ?? name, valueFrom: { secretKeyRef: { name: consumption.secretName, key: name } } };
  }
}

/**
 * `scope`, when `props` are an object of the props the contract takes; else (from JavaScript, anything) the
 * `CAP010` refusal naming them, or each prop it does not take with the one it most likely misspells, before the
 * contract is added.
 */
function withProps(scope: Construct, id: string, props: unknown): Construct {
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    refuseUnknownKeys(`InterfaceContract '${path}' props`, props, CONTRACT_PROPS, path);
    return scope;
  }
  throw invalidInput(`InterfaceContract '${path}': its props (${valueText(props)}) must be an object, such as { version: '1.0.0', fields: { tenantHeader: Field.string() } }`, path);
}

/** The props an `InterfaceContract` takes: another key would be dropped without a word (a misspelt `parameterPrefix`). */
const CONTRACT_PROPS = keysOf<InterfaceContractProps<FieldMap>>({ version: true, fields: true, parameterPrefix: true, name: true });

function isPlainMap(x: unknown): x is object {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** Why a contract's `fields` are refused (`CAP010` at synth): they must be a map of `Field`s, such as `{ tenantHeader: Field.string() }`. */
function fieldsProblems(fields: unknown): string[] {
  const example = 'such as { tenantHeader: Field.string() }';
  if (!isPlainMap(fields)) return [`'fields' (${valueText(fields)}) must be a map of fields, ${example}`];
  return Object.entries(fields)
    .filter(([, field]) => !isField(field))
    .map(([name, field]) => `field ${JSON.stringify(name)} (${valueText(field)}) must be a Field, made by Field.string(), Field.dnsName(), Field.url(), Field.number() or Field.boolean()`);
}

/** Why a contract's `name` or `parameterPrefix` is refused (`CAP010` at synth): given, each must be a string. */
function textPropProblems(props: InterfaceContractProps<FieldMap>): string[] {
  const given = { name: props.name, parameterPrefix: props.parameterPrefix } as Record<string, unknown>;
  return Object.entries(given)
    .filter(([, value]) => value !== undefined && value !== null && typeof value !== 'string')
    .map(([prop, value]) => `'${prop}' (${valueText(value)}) must be a string`);
}

/** A `Field` by its shape (another copy of this package makes its own class). */
function isField(x: unknown): boolean {
  const f = x as { type?: unknown; required?: unknown } | null;
  return typeof f === 'object' && f !== null && (f.type === 'string' || f.type === 'number' || f.type === 'boolean') && typeof f.required === 'boolean';
}
