import type * as Kplus from 'cdk8s-plus-30';
import type * as Semver from 'semver';
import type * as Yaml from 'yaml';
import { invalidInput } from './invalid-input';
import type * as ExternalSecrets from '../imports/externalsecret-external-secrets.io';
import type * as GatewayApi from '../imports/httproute-gateway.networking.k8s.io';
import type * as Flux from '../imports/kustomization-kustomize.toolkit.fluxcd.io';
import type * as Istio from '../imports/virtualservice-networking.istio.io';

/**
 * A module loaded on its first use, so that a composition that never needs it
 * never pays its load time (synth runs in every CI build).
 */
export function lazily<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

/** The cdk8s-plus majors whose Deployment, Service, Secret and EnvValue the routing helpers use (the same API in each). */
export const CDK8S_PLUS_MAJORS = ['cdk8s-plus-30', 'cdk8s-plus-31', 'cdk8s-plus-32', 'cdk8s-plus-33'] as const;

/** The first of majors 30 to 33 installed, loaded on the first call; undefined when none is. */
const installedCdk8sPlus = lazily((): typeof Kplus | undefined => {
  for (const name of CDK8S_PLUS_MAJORS) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, and the first major found
      return require(name) as typeof Kplus;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((e as Error).message).includes(`'${name}'`)) throw e;
    }
  }
  return undefined;
});

/**
 * cdk8s-plus (about 50 ms to load): only routing backends and contract handles
 * use it. The first of majors 30 to 33 installed, so an app on cdk8s-plus-33
 * (what cdk8s-cli's templates install) gets objects and env values of its own
 * major.
 *
 * @param user what needs it, as the refusal names it (`addBackend 'web/Routing/Api'`)
 * @param path the construct path the refusal names
 * @throws CompositionError `CAP010` when none is installed (it is an optional peer), naming `user` and what to install
 */
export function cdk8sPlus(user: string, path: string): typeof Kplus {
  const loaded = installedCdk8sPlus();
  if (loaded) return loaded;
  throw invalidInput(
    `${user} needs cdk8s-plus, an optional peer of cdk-capability, and none of ${CDK8S_PLUS_MAJORS.join(', ')} is installed. `
      + 'Install the major of your cdk8s-plus objects, or the first: npm i cdk8s-plus-30.',
    path,
  );
}

/** The semver functions this library uses: a record's validity, parts and order. */
export type SemverFunctions = Pick<typeof Semver, 'valid' | 'major' | 'minor' | 'lt' | 'gt' | 'inc'>;

/**
 * semver: only interface contracts use it. Its functions one module each
 * (12 modules, not the 47 of `semver`'s index, which loads every range and
 * comparator class: about a third of the load time).
 */
export const semver = lazily(
  (): SemverFunctions => ({
    /* eslint-disable @typescript-eslint/no-require-imports -- deliberately lazy */
    valid: require('semver/functions/valid'),
    major: require('semver/functions/major'),
    minor: require('semver/functions/minor'),
    lt: require('semver/functions/lt'),
    gt: require('semver/functions/gt'),
    inc: require('semver/functions/inc'),
    /* eslint-enable @typescript-eslint/no-require-imports */
  }),
);

/** The generated External Secrets classes (a large module): only a consumed interface contract uses them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const externalSecrets = lazily(() => require('../imports/externalsecret-external-secrets.io') as typeof ExternalSecrets);

/** The generated Gateway API classes (a large module): only a Gateway API tenant route uses them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const gatewayApi = lazily(() => require('../imports/httproute-gateway.networking.k8s.io') as typeof GatewayApi);

/** The generated Istio classes (a large module): only an Istio tenant route uses them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const istio = lazily(() => require('../imports/virtualservice-networking.istio.io') as typeof Istio);

/** The generated Flux classes: only the Flux output writer uses them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const flux = lazily(() => require('../imports/kustomization-kustomize.toolkit.fluxcd.io') as typeof Flux);

/** yaml (its reader, with line and column): only the validation plugin reads manifest files with it; synth writes as js-yaml writes (private/yaml.ts). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const yaml = lazily(() => require('yaml') as typeof Yaml);
