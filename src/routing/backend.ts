import { Chart } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-30';
import { Construct, IConstruct } from 'constructs';
import { cdk8sPlus } from '../private/lazy';

/** Options of `RuntimeRouting.addBackend`. */
export interface BackendOptions {
  /** The container image, such as `ghcr.io/example/web:1.4.2`. */
  readonly image: string;
  /** The port the container listens on; the Service exposes the same port. */
  readonly port: number;
  /**
   * Number of pods.
   *
   * @default 2
   */
  readonly replicas?: number;
  /**
   * The name of the Deployment and its Service: a DNS-1035 label.
   *
   * @default - the construct id in lowercase
   */
  readonly name?: string;
  /**
   * The namespace of the Deployment and its Service.
   *
   * @default - the chart's namespace
   */
  readonly namespace?: string;
  /**
   * Environment variables of the container, for example handles of the
   * interface contract (`values.originDnsName.envValue()`).
   *
   * @default - none
   */
  readonly env?: Record<string, EnvValueLike>;
  /**
   * The container's security context.
   *
   * @default - cdk8s-plus defaults: non-root, read-only root filesystem
   */
  readonly securityContext?: kplus.ContainerSecurityContextProps;
}

/**
 * An environment variable's value as every cdk8s-plus major (30 to 33) shapes
 * it: an `EnvValue` of any of them, for example a contract handle's
 * `envValue()` or `EnvValue.fromValue('x')`.
 */
export interface EnvValueLike {
  /** The literal value, if it is one. */
  readonly value?: any;
  /** Where the value comes from (a Secret, a ConfigMap, a field), if not literal. */
  readonly valueFrom?: any;
}

/**
 * A backend that tenant routes send traffic to: a Deployment behind a Service.
 *
 * `addBackend` returns one with cdk8s-plus constructs; `addTenantRoute` reads
 * only its name, namespace and port, so it takes a backend built from the
 * constructs of any cdk8s-plus major (30 to 33) or of none.
 */
export interface Backend<TDeployment extends IConstruct = kplus.Deployment, TService extends IConstruct = kplus.Service> {
  /** The name of the Deployment and the Service. */
  readonly name: string;
  /** Their namespace, if set. */
  readonly namespace?: string;
  /** The Service port (the container port). */
  readonly port: number;
  /** The pods. */
  readonly deployment: TDeployment;
  /** The Service in front of them, which routes name as their backend. */
  readonly service: TService;
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Declares a backend: a cdk8s-plus `Deployment` and a `Service` in front of it.
 *
 * @param scope the chart (or a construct in it)
 * @param id the construct id; its lowercase form names the objects by default
 * @throws when the name is not a DNS-1035 label or the port is not a port number
 */
export function addBackend(scope: Construct, id: string, options: BackendOptions): Backend {
  const name = options.name ?? id.toLowerCase();
  if (!DNS1035_LABEL.test(name)) {
    throw new Error(`addBackend '${scope.node.path}/${id}': 'name' (${JSON.stringify(name)}) must be a DNS-1035 label (lowercase letters, digits and '-', starting with a letter) such as "web"`);
  }
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw new Error(`addBackend '${scope.node.path}/${id}': 'port' (${options.port}) must be an integer from 1 to 65535`);
  }
  const namespace = options.namespace ?? Chart.of(scope).namespace;
  const metadata = { name, ...(namespace ? { namespace } : {}) };
  const deployment = new (cdk8sPlus().Deployment)(scope, id, {
    metadata,
    replicas: options.replicas,
    containers: [
      {
        name,
        image: options.image,
        ports: [{ number: options.port, name: 'http' }],
        envVariables: options.env as Record<string, kplus.EnvValue> | undefined, // the same shape in every major
        securityContext: options.securityContext,
      },
    ],
  });
  const service = new (cdk8sPlus().Service)(scope, `${id}Service`, {
    metadata,
    selector: deployment,
    ports: [{ name: 'http', port: options.port, targetPort: options.port }],
  });
  return { name, namespace, port: options.port, deployment, service };
}
