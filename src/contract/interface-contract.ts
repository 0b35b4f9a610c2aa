import { aws_iam as iam, aws_ssm as ssm, Stack, Token } from 'aws-cdk-lib';
import { ApiObject } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { FieldMap, FieldValue, PublishedValues } from './field';
import { parameterNameProblem } from './parameter-name';
import { Capability } from '../constructs/capability';
import { brand, hasBrand } from '../private/brand';
import { cdk8sPlus, semver } from '../private/lazy';

/** Properties of an `InterfaceContract`. */
export interface InterfaceContractProps<F extends FieldMap> {
  /** The contract's semver version, such as `1.2.0`. The parameter path carries its major. */
  readonly version: string;
  /** The typed fields, by name. */
  readonly fields: F;
  /**
   * The first level of the SSM parameter path.
   *
   * @default '/cdk-capability'
   */
  readonly parameterPrefix?: string;
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
  readonly values: Record<string, unknown>;
  /** The one SSM parameter holding the values as JSON (absent when its name is invalid). */
  readonly parameter?: ssm.StringParameter;
  /** A managed policy allowing `ssm:GetParameter` on exactly that parameter. */
  readonly readerPolicy?: iam.ManagedPolicy;
}

/** A typed handle on one field, on the runtime side. */
export interface FieldHandle<T> {
  /** The field's name, which is also its key in the bound Secret. */
  readonly name: string;
  /** The value when it was published as a literal known at synth, else undefined. */
  readonly value: T | undefined;
  /** The field as a cdk8s-plus environment value read from the bound Secret. */
  envValue(): kplus.EnvValue;
  /** The field as a raw container `env` entry read from the bound Secret. */
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

/** The typed handles `consume` returns: one per declared field. */
export type ContractHandles<F extends FieldMap> = { readonly [K in keyof F & string]: FieldHandle<FieldValue<F[K]>> };

/** A misuse found while the contract was used; reported as `CAP009` (or `CAP010`) at synth. */
export interface ContractMisuse {
  /** `CAP009` or, for an invalid parameter name, `CAP010`. */
  readonly code: 'CAP009' | 'CAP010';
  /** The message, without the code. */
  readonly message: string;
  /** The construct paths involved. */
  readonly paths: string[];
}

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
  /** The fields whose handles were used. */
  readonly usedFields: Set<string>;
}

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
  /** Publications (exactly one when used correctly). */
  public readonly publications: Publication[] = [];
  /** Runtime consumers. */
  public readonly consumptions: Consumption[] = [];
  /** Misuses recorded while the contract was used. */
  public readonly misuses: ContractMisuse[] = [];

  /**
   * @param scope the capability
   * @param id the contract's name; its lowercase form is a level of the parameter path
   * @param props version and fields
   */
  constructor(scope: Capability, id: string, props: InterfaceContractProps<F>) {
    super(scope, id);
    brand(this, 'InterfaceContract');
    this.capability = Capability.of(this);
    this.version = props.version;
    this.fields = props.fields;
    const major = semver().valid(props.version) ? semver().major(props.version) : 0;
    const prefix = (props.parameterPrefix ?? '/cdk-capability').replace(/\/+$/, '');
    this.parameterName = `${prefix}/${this.capability.node.id}/${id.toLowerCase()}/v${major}`;
  }

  /**
   * Publishes the values on the deployment side, as ONE SSM parameter of JSON,
   * and a managed policy allowing `ssm:GetParameter` on exactly it.
   *
   * @param stack the `SharedBase` or a `DeploymentAggregate` of the same capability
   * @param values every required field; aws-cdk tokens allowed; no secrets
   * @returns what was created
   */
  public publish(stack: Stack, values: PublishedValues<F>, options: PublishOptions = {}): Publication {
    const all = values as Record<string, unknown>;
    if (this.publications.length > 0) {
      this.misuse(`'${this.node.path}' is published twice (by '${this.publications[0].stack.node.path}' and '${stack.node.path}'). Publish once, from one stack.`, [stack.node.path]);
      return this.publications[0];
    }
    if (Capability.tryOf(stack) !== this.capability) {
      this.misuse(`'${this.node.path}' is published by '${stack.node.path}', which is not in capability '${this.capability.node.path}'. Publish from its SharedBase or one of its DeploymentAggregates.`, [stack.node.path]);
    }
    const nameProblem = parameterNameProblem(this.parameterName);
    if (nameProblem) {
      this.misuses.push({
        code: 'CAP010',
        message: `invalid object: the parameter name of '${this.node.path}' is invalid: ${nameProblem}. Choose a contract id and parameterPrefix of letters, digits, . - _ that do not begin with "aws" or "ssm".`,
        paths: [this.node.path],
      });
      const publication: Publication = { stack, values: all };
      this.publications.push(publication);
      return publication;
    }
    const id = `${this.node.id}Interface`;
    const parameter = new ssm.StringParameter(stack, id, {
      parameterName: this.parameterName,
      description: `cdk-capability interface ${this.capability.node.id}/${this.node.id} ${this.version}`,
      stringValue: stack.toJsonString(all),
    });
    const statement = new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameter.parameterArn] });
    const readerPolicy = new iam.ManagedPolicy(stack, `${id}Reader`, {
      description: `Read the cdk-capability interface ${this.parameterName}`,
      statements: [statement],
    });
    for (const reader of options.readers ?? []) reader.grantPrincipal.addToPrincipalPolicy(statement);
    const publication: Publication = { stack, values: all, parameter, readerPolicy };
    this.publications.push(publication);
    return publication;
  }

  /**
   * Consumes the contract on the runtime side: an `ExternalSecret` in `chart`
   * extracts the parameter into a Secret, and the typed handles read from it.
   * Consuming twice in one chart returns the same handles.
   *
   * @param chart the `RuntimeRouting` (or any cdk8s chart) that reads the values
   */
  public consume(chart: Construct, options: ConsumeOptions = {}): ContractHandles<F> {
    const existing = this.consumptions.find((c) => c.chart === chart);
    const consumption = existing ?? this.bind(chart, options);
    const handles: Record<string, FieldHandle<unknown>> = {};
    for (const name of Object.keys(this.fields)) handles[name] = this.handle(name, consumption);
    return new Proxy(handles, {
      get: (target, key) => {
        if (typeof key === 'string' && !(key in target) && !IGNORED_KEYS.has(key) && !/^[$@_]/.test(key)) {
          this.misuse(`'${chart.node.path}' reads '${key}', which '${this.node.path}' does not declare (declared: ${Object.keys(this.fields).join(', ')}). Declare the field or read a declared one.`, [chart.node.path]);
        }
        return Reflect.get(target, key);
      },
    }) as unknown as ContractHandles<F>;
  }

  private bind(chart: Construct, options: ConsumeOptions): Consumption {
    const secretName = `${this.capability.node.id}-${this.node.id}-interface`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
    const namespace = options.namespace ?? (chart as { namespace?: string }).namespace;
    // One binding per namespace: a second chart there reads the same Secret, after it exists.
    const shared = this.consumptions.find((c) => c.namespace === namespace);
    if (shared) {
      chart.node.addDependency(shared.externalSecret);
      const consumption: Consumption = { ...shared, chart, usedFields: new Set() };
      this.consumptions.push(consumption);
      return consumption;
    }
    const externalSecret = new ApiObject(chart, `${this.node.id}Interface`, {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: secretName, ...(namespace ? { namespace } : {}) },
      spec: {
        refreshInterval: options.refreshInterval ?? '1h',
        secretStoreRef: { kind: options.secretStoreKind ?? 'ClusterSecretStore', name: options.secretStoreName ?? 'aws-parameter-store' },
        target: { name: secretName, creationPolicy: 'Owner' },
        dataFrom: [{ extract: { key: this.parameterName } }],
      },
    });
    const consumption: Consumption = { chart, externalSecret, secretName, namespace, usedFields: new Set() };
    this.consumptions.push(consumption);
    return consumption;
  }

  private handle(name: string, consumption: Consumption): FieldHandle<unknown> {
    const contract = this;
    const use = () => consumption.usedFields.add(name);
    return {
      name,
      get value() {
        use();
        const v = contract.publications[0]?.values[name];
        return v === undefined || Token.isUnresolved(v) ? undefined : v;
      },
      envValue() {
        use();
        const id = `${contract.node.id}InterfaceSecret`;
        const existing = consumption.chart.node.tryFindChild(id) as kplus.ISecret | undefined;
        const secret = existing ?? cdk8sPlus().Secret.fromSecretName(consumption.chart, id, consumption.secretName);
        return cdk8sPlus().EnvValue.fromSecretValue({ secret, key: name });
      },
      envVar(variableName?: string) {
        use();
        return { name: variableName ?? name, valueFrom: { secretKeyRef: { name: consumption.secretName, key: name } } };
      },
    };
  }

  private misuse(message: string, paths: string[]): void {
    this.misuses.push({ code: 'CAP009', message: `contract misuse: ${message}`, paths: [this.node.path, ...paths] });
  }
}
