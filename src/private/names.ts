import * as crypto from 'crypto';
import type { IConstruct } from 'constructs';
import { hasBrand } from './brand';

/**
 * A file-name-safe slug of a construct path: lowercase letters, digits and
 * single dashes, at most 80 characters. Never empty, never `.` or `..`, so a
 * derived file name cannot leave its folder.
 */
export function slug(path: string): string {
  const s = path
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return s || 'root';
}

/**
 * How the objects of a capability's charts are named when cdk8s generates
 * their names (and the hashes and labels cdk8s and cdk8s-plus derive from a
 * construct path): from the path below the capability, as the same chart
 * yields under a plain cdk8s `App` (`'plain'`), or from the whole construct
 * path, the capability's id included (`'full-path'`, what earlier releases of
 * this library did).
 */
export type GeneratedNames = 'plain' | 'full-path';

const PATCHED = Symbol.for('cdk-capability.names-below-capability');

/**
 * Makes cdk8s' `Names.toDnsLabel` and `Names.toLabelValue` (which
 * `Chart.generateObjectName`, cdk8s-plus' selector labels and volume names
 * call) see a construct inside a capability whose `generatedNames` is
 * `'plain'` as it would be under a plain cdk8s `App`: its path and address
 * (`node.addr`) are those of the path below the capability. Constructs outside
 * a capability are named as cdk8s names them. Installed once per copy of cdk8s.
 *
 * The one seam to cdk8s' naming: `Names` reads only `node.path` and
 * `node.addr` of the scope it is given (cdk8s 2.70; pinned by
 * `test/port-names.test.ts`).
 */
export function nameBelowCapabilities(names: NamesApi): void {
  const target = names as NamesApi & { [PATCHED]?: true };
  if (target[PATCHED]) return;
  const toDnsLabel = names.toDnsLabel;
  const toLabelValue = names.toLabelValue;
  target.toDnsLabel = (scope, options) => toDnsLabel.call(names, asUnderPlainApp(scope), options);
  target.toLabelValue = (scope, options) => toLabelValue.call(names, asUnderPlainApp(scope), options);
  Object.defineProperty(target, PATCHED, { value: true });
}

/** The part of cdk8s' `Names` that derives names from a construct. */
export interface NamesApi {
  toDnsLabel(scope: IConstruct, options?: object): string;
  toLabelValue(scope: IConstruct, options?: object): string;
}

/** `scope` as Names should see it: a stand-in with the path and address below its capability, if it is in one that names plainly. */
function asUnderPlainApp(scope: IConstruct): IConstruct {
  const scopes = scope.node.scopes;
  let at = -1;
  for (let i = scopes.length - 2; i >= 0; i--) {
    if (hasBrand(scopes[i], 'Capability')) {
      at = i;
      break;
    }
  }
  if (at === -1 || (scopes[at] as { generatedNames?: GeneratedNames }).generatedNames !== 'plain') return scope;
  const below = scopes.slice(at + 1).map((s) => s.node.id);
  return { node: { path: below.filter((id) => id).join('/'), addr: addressOf(['', ...below]) } } as unknown as IConstruct;
}

/**
 * The address constructs gives a construct whose ids from the root are
 * `components` (the root's empty id first): `c8` and the SHA-1 of each id but
 * `Default`, each followed by a newline (constructs 10 `private/node-addr.ts`).
 */
export function addressOf(components: readonly string[]): string {
  let text = '';
  for (const c of components) if (c !== 'Default') text += `${c}\n`;
  return `c8${sha1Hex(text)}`;
}

/** The hex SHA-1 of a text's UTF-8 bytes: one call where Node has `crypto.hash` (20.12), a hash object before. */
const sha1Hex: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => (crypto as unknown as { hash(algorithm: string, data: string): string }).hash('sha1', text)
    : (text) => crypto.createHash('sha1').update(text).digest('hex');

const PLUS_UTILS = /[\\/]cdk8s-plus-\d+[\\/]lib[\\/]utils\.js$/;

/**
 * cdk8s-plus also reads `node.addr` directly: its `utils.address(...)` names
 * the network policies, roles and bindings it creates (`connections.allowTo`,
 * `permissions.grantReadWrite`) after the addresses of the constructs involved.
 * For every copy of cdk8s-plus already loaded, that helper is made to use the
 * address below the capability too, as `nameBelowCapabilities` does for
 * `Names`. The seam is cdk8s-plus' `lib/utils.js` export `address` (majors 30
 * to 33; pinned by `test/corpus.test.ts`, whose web-cache-db example creates
 * such objects).
 */
export function addressBelowCapabilities(cache: NodeJS.Dict<NodeModule> = require.cache): void {
  for (const [file, mod] of Object.entries(cache)) {
    if (!mod || !PLUS_UTILS.test(file)) continue;
    const utils = mod.exports as { address?: (...constructs: IConstruct[]) => string; [PATCHED]?: true };
    if (typeof utils.address !== 'function' || utils[PATCHED]) continue;
    utils.address = (...constructs: IConstruct[]) => constructs.map((c) => asUnderPlainApp(c).node.addr).sort((a, b) => a.localeCompare(b)).join('');
    Object.defineProperty(utils, PATCHED, { value: true });
  }
}
