import type * as Kplus from 'cdk8s-plus-30';
import type * as Semver from 'semver';
import type * as ExternalSecrets from '../imports/externalsecret-external-secrets.io';

/**
 * A module loaded on its first use, so that a composition that never needs it
 * never pays its load time (synth runs in every CI build).
 */
function lazily<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

/** cdk8s-plus-30 (about 50 ms to load): only routing backends and contract handles use it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const cdk8sPlus = lazily(() => require('cdk8s-plus-30') as typeof Kplus);

/** semver (about 15 ms to load): only interface contracts use it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const semver = lazily(() => require('semver') as typeof Semver);

/** The generated External Secrets classes (a large module): only a consumed interface contract uses them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
export const externalSecrets = lazily(() => require('../imports/externalsecret-external-secrets.io') as typeof ExternalSecrets);
