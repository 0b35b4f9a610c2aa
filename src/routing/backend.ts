import { Chart } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-30';
import { Construct, IConstruct } from 'constructs';
import { invalidInput, refuseUnknownKeys } from '../private/invalid-input';
import { cdk8sPlus } from '../private/lazy';
import { keysOf } from '../private/near-miss';
import { valueText } from '../private/value-text';

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
   * interface contract (`values.originDnsName.envValue()`). Each value is an
   * `EnvValue` of cdk8s-plus: a literal is `EnvValue.fromValue('1')`; a plain
   * string or any other value is refused (`CAP010`), not written without a value.
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

/** One version of a versioned backend: its own image (and, optionally, replicas and environment). */
export interface BackendVersionOptions {
  /** The container image of this version, such as `ghcr.io/example/web:1.5.0`. */
  readonly image: string;
  /**
   * Number of pods of this version.
   *
   * @default - the backend's `replicas`, else 2
   */
  readonly replicas?: number;
  /**
   * Environment variables of this version's container.
   *
   * @default - the backend's `env`
   */
  readonly env?: Record<string, kplus.EnvValue>;
}

/** Options of `RuntimeRouting.addVersionedBackend`. */
export interface VersionedBackendOptions {
  /** The port every version listens on; each version's Service exposes the same port. */
  readonly port: number;
  /**
   * The versions, by name (a DNS-1035 label such as `blue`, `green`, `v2`): one
   * Deployment and one Service each, named `<name>-<version>`.
   */
  readonly versions: Record<string, BackendVersionOptions>;
  /**
   * Number of pods of each version.
   *
   * @default 2
   */
  readonly replicas?: number;
  /**
   * The backend's name, the first part of each version's name: a DNS-1035 label.
   *
   * @default - the construct id in lowercase
   */
  readonly name?: string;
  /**
   * The namespace of every version's Deployment and Service.
   *
   * @default - the chart's namespace
   */
  readonly namespace?: string;
  /**
   * Environment variables of every version's container.
   *
   * @default - none
   */
  readonly env?: Record<string, kplus.EnvValue>;
  /**
   * The containers' security context.
   *
   * @default - cdk8s-plus defaults: non-root, read-only root filesystem
   */
  readonly securityContext?: kplus.ContainerSecurityContextProps;
}

/**
 * A backend that runs several versions at once (blue and green, say), each its
 * own Deployment and Service; a tenant route splits traffic between them by weight.
 */
export interface VersionedBackend {
  /** The backend's name. */
  readonly name: string;
  /** The namespace of its versions, if set. */
  readonly namespace?: string;
  /** The port of every version. */
  readonly port: number;
  /** Each version, by name, in declaration order: a Deployment behind a Service named `<name>-<version>`. */
  readonly versions: Readonly<Record<string, Backend>>;
}

/** The label that names a version's backend, on its Deployment, pods and Service. */
export const BACKEND_LABEL = 'cdk-capability.io/backend';
/** The label that names a version, on its Deployment, pods and Service. */
export const VERSION_LABEL = 'cdk-capability.io/version';

const DNS1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

const BACKEND_OPTIONS = keysOf<BackendOptions>({
  image: true, port: true, replicas: true, name: true, namespace: true, env: true, securityContext: true,
});
const VERSIONED_OPTIONS = keysOf<VersionedBackendOptions>({
  port: true, versions: true, replicas: true, name: true, namespace: true, env: true, securityContext: true,
});
const VERSION_OPTIONS = keysOf<BackendVersionOptions>({ image: true, replicas: true, env: true });

/**
 * Why `env` is not a map of variable names to cdk8s-plus `EnvValue`s, one problem a variable: cdk8s-plus
 * writes a plain string, or an object of neither `value` nor `valueFrom`, as a variable without a value, and
 * a string's characters as variables named "0", "1", ...
 */
function envProblems(env: unknown, label: string): string[] {
  if (env === undefined) return [];
  if (env === null || typeof env !== 'object' || Array.isArray(env)) {
    return [`'${label}' (${valueText(env)}) must be a map of variable names to EnvValues of cdk8s-plus, such as { LOG_LEVEL: EnvValue.fromValue('info') }`];
  }
  return Object.entries(env as Record<string, unknown>).flatMap(([name, value]) => {
    const v = value as { value?: unknown; valueFrom?: unknown } | null;
    if (v !== null && typeof v === 'object' && (v.value !== undefined || v.valueFrom !== undefined)) return [];
    const literal = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : 'value';
    return [`${label} variable '${name}' (${valueText(value)}) must be an EnvValue of cdk8s-plus, such as EnvValue.fromValue(${JSON.stringify(literal)})`];
  });
}

/**
 * Declares a backend: a cdk8s-plus `Deployment` and a `Service` in front of it.
 *
 * @param scope the chart (or a construct in it)
 * @param id the construct id; its lowercase form names the objects by default
 * @throws CompositionError `CAP010` when an option is malformed: the name is not a DNS-1035 label, the port is not a port number, ...
 */
export function addBackend(scope: Construct, id: string, options: BackendOptions, labels?: Record<string, string>): Backend {
  // from JavaScript, anything: an id that is no string would crash deep inside (id.toLowerCase is not a function)
  if (typeof id !== 'string' || id === '') {
    throw invalidInput(`addBackend of '${scope.node.path}': its id (${valueText(id)}) must be a string that is not empty, such as 'Web'`, scope.node.path);
  }
  const path = `${scope.node.path}/${id}`;
  const refused = (problem: string) => invalidInput(`addBackend '${path}': ${problem}`, path);
  if (options === null || typeof options !== 'object') throw refused(`its options (${valueText(options)}) must be an object, such as { image: 'ghcr.io/example/web:1.4.2', port: 8080 }`);
  refuseUnknownKeys(`addBackend '${path}'`, options, BACKEND_OPTIONS, path);
  const badEnv = envProblems(options.env, 'env');
  if (badEnv.length > 0) throw refused(badEnv.join('; '));
  // from JavaScript, anything: each prop a Deployment or Service takes is checked here, not left to the API server
  if (typeof options.image !== 'string' || options.image.trim() === '') throw refused(`'image' (${valueText(options.image)}) must be a container image, such as 'ghcr.io/example/web:1.4.2'`);
  if (options.replicas !== undefined && !(Number.isInteger(options.replicas) && options.replicas >= 0)) {
    throw refused(`'replicas' (${valueText(options.replicas)}) must be a whole number, 0 or more`);
  }
  if (options.namespace !== undefined && typeof options.namespace !== 'string') throw refused(`'namespace' (${valueText(options.namespace)}) must be a string`);
  const name = options.name ?? id.toLowerCase();
  if (!DNS1035_LABEL.test(name)) {
    throw refused(`'name' (${JSON.stringify(name)}) must be a DNS-1035 label (lowercase letters, digits and '-', starting with a letter) such as "web"`);
  }
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw refused(`'port' (${valueText(options.port)}) must be an integer from 1 to 65535`);
  }
  const namespace = options.namespace ?? Chart.of(scope).namespace;
  const metadata = { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) };
  const kplusModule = cdk8sPlus(`addBackend '${path}'`, path);
  const deployment = new kplusModule.Deployment(scope, id, {
    metadata,
    ...(labels ? { podMetadata: { labels } } : {}),
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
  const service = new kplusModule.Service(scope, `${id}Service`, {
    metadata,
    selector: deployment,
    ports: [{ name: 'http', port: options.port, targetPort: options.port }],
  });
  return { name, namespace, port: options.port, deployment, service };
}

/**
 * Declares a versioned backend: per version, a cdk8s-plus `Deployment` and a
 * `Service` named `<name>-<version>`, labelled with the backend and the version.
 *
 * @param scope the chart (or a construct in it)
 * @param id the construct id; its lowercase form names the backend by default
 * @throws CompositionError `CAP010` when an option is malformed: a name is not a DNS-1035 label, there is no version, the port is not a port number, ...
 */
export function addVersionedBackend(scope: Construct, id: string, options: VersionedBackendOptions): VersionedBackend {
  // from JavaScript, anything: an id that is no string would crash deep inside (id.toLowerCase is not a function)
  if (typeof id !== 'string' || id === '') {
    throw invalidInput(`addVersionedBackend of '${scope.node.path}': its id (${valueText(id)}) must be a string that is not empty, such as 'Web'`, scope.node.path);
  }
  const path = `${scope.node.path}/${id}`;
  const refused = (problem: string) => invalidInput(`addVersionedBackend '${path}': ${problem}`, path);
  if (options === null || typeof options !== 'object') throw refused(`its options (${valueText(options)}) must be an object, such as { port: 8080, versions: { blue: { image: 'ghcr.io/example/web:1.4.2' } } }`);
  refuseUnknownKeys(`addVersionedBackend '${path}'`, options, VERSIONED_OPTIONS, path);
  const badEnv = envProblems(options.env, 'env');
  if (badEnv.length > 0) throw refused(badEnv.join('; '));
  const given: unknown = options.versions;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw refused(`'versions' (${valueText(given)}) must be a map of version names to versions, such as { blue: { image: 'ghcr.io/example/web:1.4.2' } }`);
  }
  const name = options.name ?? id.toLowerCase();
  const names = Object.keys(options.versions);
  if (names.length === 0) throw refused('\'versions\' is empty; declare at least one, such as { blue: { image: \'ghcr.io/example/web:1.4.2\' } }');
  const versions: Record<string, Backend> = {};
  for (const version of names) {
    if (!DNS1035_LABEL.test(version) || !DNS1035_LABEL.test(`${name}-${version}`)) {
      throw refused(`version ${JSON.stringify(version)} must be a DNS-1035 label (lowercase letters, digits and '-', starting with a letter) such as "blue", and '${name}-${version}' at most 63 characters`);
    }
    const v = options.versions[version];
    if (v === null || typeof v !== 'object') throw refused(`version ${JSON.stringify(version)} (${valueText(v)}) must be an object, such as { image: 'ghcr.io/example/web:1.4.2' }`);
    refuseUnknownKeys(`addVersionedBackend '${path}' version ${JSON.stringify(version)}`, v, VERSION_OPTIONS, path);
    const badVersionEnv = envProblems(v.env, `versions.${version}.env`);
    if (badVersionEnv.length > 0) throw refused(badVersionEnv.join('; '));
    const idOf = `${id}${version.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())}`;
    versions[version] = addBackend(scope, idOf, {
      image: v.image,
      port: options.port,
      replicas: v.replicas ?? options.replicas,
      name: `${name}-${version}`,
      namespace: options.namespace,
      env: v.env ?? options.env,
      securityContext: options.securityContext,
    }, { [BACKEND_LABEL]: name, [VERSION_LABEL]: version });
  }
  return { name, namespace: options.namespace ?? Chart.of(scope).namespace, port: options.port, versions };
}

/** True when `backend` runs several versions. */
export function isVersioned(backend: Backend<IConstruct, IConstruct> | VersionedBackend): backend is VersionedBackend {
  return 'versions' in backend && backend.versions !== undefined && !('deployment' in backend);
}
