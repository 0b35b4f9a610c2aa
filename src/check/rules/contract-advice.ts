import type { ContractFact } from '../../collect/facts';
import type { InstalledPackage } from '../../private/creation-site';

/** What the app can do about a contract change an installed package made. */
export enum PackageRemedy {
  /** Stay on the release before: the package changed its contract without the release it needs. */
  PIN = 'pin',
  /** Go through the release before first: the package deletes a major the app's lock still records readers of (an app that skipped the release that moves them). */
  STEP = 'step',
}

/**
 * The installed package that made the contract `name` of `capability`: the one that makes it in this release,
 * or, for a contract no longer made (a major retired), the one that makes another contract of the capability.
 */
export function contractPackage(contracts: readonly ContractFact[], capability: string, name: string): InstalledPackage | undefined {
  const mine = contracts.filter((c) => c.capability === capability);
  return (mine.find((c) => c.name === name && c.package) ?? mine.find((c) => c.package))?.package;
}

/**
 * The fix of a refused contract change, for whoever can make it. A contract the program makes: `ownerFix`, the
 * change to make in its code. A contract an installed package makes (`@acme/queue-worker-capability@2.1.0`): the
 * app's owner cannot change it, so what the app can do, naming the package, its version and the npm command that
 * installs the release before it, then the fix for the package's owners to ask for.
 *
 * @param remedy `PIN` for a change without its bump, `STEP` for a major retired while the lock reads it
 */
export function contractFix(pkg: InstalledPackage | undefined, ownerFix: string, remedy: PackageRemedy = PackageRemedy.PIN): string {
  if (!pkg) return ownerFix;
  const at = pkg.version !== undefined ? `${pkg.name}@${pkg.version}` : pkg.name;
  const before = pkg.version !== undefined
    ? `the release before ${pkg.version} (npm i '${pkg.name}@<${pkg.version}' installs the newest of those)`
    : `the release this app's lock was made with (npm i ${pkg.name}@<version>)`;
  const app = remedy === PackageRemedy.STEP
    ? `The contract comes from the installed package ${at}, and the app cannot change it: this release of the package deletes what the app's lock records readers of. `
      + `Install ${before}, synthesize and apply it, then upgrade to ${pkg.version ?? 'this release'} again (a release of the package that publishes the next major beside this one moves the readers first); `
      + `if none does, stay on it and ask the package's owners for one. For them: ${ownerFix}`
    : `The contract comes from the installed package ${at}, which changed it without the release it needs, and the app cannot fix that: `
      + `stay on ${before} and ask the package's owners for a release that does it right. For them: ${ownerFix}`;
  return app;
}

/**
 * The fix of contracts that cannot share one capability (two names, or one major twice) when an installed package
 * makes any of them: the app cannot merge or renumber a package's contract, so each package's constructs go in a
 * `Capability` of their own (one capability, one interface). Undefined when the program makes them all.
 */
export function sharedCapabilityFix(contracts: readonly ContractFact[]): string | undefined {
  const fromPackages = contracts.filter((c) => c.package);
  if (fromPackages.length === 0) return undefined;
  const made = contracts.map((c) => `'${c.path}' ${c.package ? `from the installed package ${packageText(c.package)}` : 'of the app'}`);
  return `They come from different code (${made.join(', ')}), and the app cannot change a package's contract: `
    + `put each package's constructs in a Capability of their own (one capability publishes one interface)${fromPackages.length < contracts.length ? ", and the app's own contract in another" : ''}.`;
}

/** `@acme/queue@2.1.0`, or the name alone when the version is unknown. */
function packageText(pkg: InstalledPackage): string {
  return pkg.version !== undefined ? `${pkg.name}@${pkg.version}` : pkg.name;
}
