import type { Writer } from '../collect/ledger/writer';
import { APPLIER_FIELD_MANAGER, FIELD_MANAGER_MAX_BYTES, FIELD_MANAGER_PREFIX, PRINTABLE_ASCII, printableClasses, RUNTIME_FIELD_MANAGER_PREFIX } from '../private/field-manager-name';
import { flatString } from '../private/flat-string';
import { sha256Hex } from '../private/sha256';

export { APPLIER_FIELD_MANAGER, FIELD_MANAGER_MAX_BYTES, FIELD_MANAGER_PREFIX, RUNTIME_FIELD_MANAGER_PREFIX } from '../private/field-manager-name';

/**
 * The field managers of the GitOps engines that apply a release under one manager for every writer (Flux's
 * kustomize-controller and helm-controller, Argo CD's application controller with `ServerSideApply=true`):
 * `audit` without `--applied-by` takes what they own for a take-over, and says so.
 */
export const GITOPS_APPLIERS: readonly string[] = ['kustomize-controller', 'helm-controller', 'argocd-controller', 'argocd-application-controller'];

/** Hex digits of the digest in a shortened name: 64 bits. */
const DIGEST_HEX = 16;

/** Separates the parts of a shortened name; never in a construct path, whose ids are never empty. */
const MARK = '//';


/**
 * The field manager of a writer of the composition: `cdk-capability:` and the writer's construct path
 * (`cdk-capability:cdn/Routing/Timeouts`); for a path too long for the API server's 128 bytes, the path
 * shortened around a digest of the whole path,
 * `cdk-capability:<start of the path>//<16 hex digits of its SHA-256>//<end of the path>`; for a short path
 * holding a character the API server refuses (a control character, replaced by `?`), `<path>//<digest>`.
 *
 * Stable (a function of the writer's id alone), within 128 bytes, and collision-free: a name that is not
 * shortened holds no `//` (a construct path never does) and a shortened one does, so the two kinds never meet;
 * two shortened names differ unless 64 bits of SHA-256 of two different paths agree.
 *
 * @param writer the writer's stable id: its construct path, with what tells its writes apart when one
 *   construct makes several (a JSON patch's call site)
 * @example
 * fieldManagerName('cdn/Routing/Timeouts'); // 'cdk-capability:cdn/Routing/Timeouts'
 */
export function fieldManagerName(writer: string): string {
  return prefixedName(FIELD_MANAGER_PREFIX, writer);
}

/** `fieldManagerName` with another prefix: the digest and the limit work the same. */
function prefixedName(prefix: string, writer: string): string {
  // printable ASCII (a construct path as a rule) is one byte a character: no UTF-8 count, no Unicode classes;
  // the two parts tested apart, so that the name is made once, as one flat string (a name per object is held)
  const fits = PRINTABLE_ASCII.test(prefix) && PRINTABLE_ASCII.test(writer)
    ? prefix.length + writer.length <= FIELD_MANAGER_MAX_BYTES
    : Buffer.byteLength(prefix) + Buffer.byteLength(writer) <= FIELD_MANAGER_MAX_BYTES && printableClasses().all.test(writer);
  if (fits && !writer.includes(MARK)) return flatString(prefix, writer);
  const digest = sha256Hex(writer, DIGEST_HEX);
  const room = FIELD_MANAGER_MAX_BYTES - Buffer.byteLength(prefix) - 2 * MARK.length - DIGEST_HEX;
  const printable = [...writer.replace(printableClasses().not, '?')];
  if (bytes(printable) <= room + MARK.length) return `${prefix}${printable.join('')}${MARK}${digest}`;
  const headBytes = Math.floor(room / 3);
  const head = fit(printable, headBytes);
  const tail = fit([...printable.slice(head.length)].reverse(), room - bytes(head)).reverse();
  return `${prefix}${head.join('')}${MARK}${digest}${MARK}${tail.join('')}`;
}

/**
 * The field manager of a runtime writer (`RuntimeWriter`): its `manager` prop when it declares one (what
 * its controller writes under), else `cdk-capability-runtime:` and its construct path, shortened as
 * `fieldManagerName` shortens (within 128 bytes, stable, collision-free), which the controller must then
 * write under (client-go's `FieldManager` option, controller-runtime's `client.FieldOwner`) for
 * `cdk-capability audit` to tell its writes from anyone else's.
 *
 * @param path the runtime writer's construct path
 * @param manager its `manager` prop, if it has one
 * @example
 * runtimeFieldManager('cdn/Routing/NetOp', 'network-operator'); // 'network-operator'
 * runtimeFieldManager('cdn/Routing/NetOp'); // 'cdk-capability-runtime:cdn/Routing/NetOp'
 */
export function runtimeFieldManager(path: string, manager?: string): string {
  return manager ?? prefixedName(RUNTIME_FIELD_MANAGER_PREFIX, path);
}

/**
 * The one field manager `cdk-capability apply` used for every object of a capability before each writer had
 * its own: the capability's path with every character but letters, digits, `.`, `_` and `-` as `-`. A
 * release whose previous lock records no writers makes it release the objects.
 *
 * @param capability the capability's construct path, if the object has one
 */
export function legacyFieldManager(capability: string | undefined): string {
  return capability ? capability.replace(/[^A-Za-z0-9._-]/g, '-') : APPLIER_FIELD_MANAGER;
}

/**
 * The field manager of a writer of the ledger: `fieldManagerName` of its construct path for a declaration or
 * a Contribution; for a plain call on an object or scope (a JSON patch, an override, a Tag), of the path and
 * which call it is (`cdn/Routing/Web#json-patch-2`), never of where it was made, which moves when the program
 * is edited. A runtime writer's is the one derived from its path (`runtimeFieldManager`): the ledger's
 * writer does not carry the `manager` prop, which takes precedence where the runtime writer's facts are known.
 */
export function fieldManagerOf(writer: Writer): string {
  switch (writer.kind) {
    case 'runtime':
      return runtimeFieldManager(writer.path);
    case 'declaration':
    case 'contribution-fields':
    case 'contribution-patches':
    case 'contribution-write':
      return fieldManagerName(writer.path);
    default:
      return fieldManagerName(`${writer.path}#${writer.kind}${writer.call === undefined ? '' : `-${writer.call}`}`);
  }
}

/** True when a field manager's name is one `fieldManagerName` gives (a writer of some composition). */
export function isOurFieldManager(manager: string): boolean {
  return manager === APPLIER_FIELD_MANAGER || manager.startsWith(FIELD_MANAGER_PREFIX);
}

/** The longest start of `chars` within `limit` bytes of UTF-8. */
function fit(chars: readonly string[], limit: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const c of chars) {
    const n = Buffer.byteLength(c);
    if (used + n > limit) break;
    out.push(c);
    used += n;
  }
  return out;
}

function bytes(chars: readonly string[]): number {
  return chars.reduce((n, c) => n + Buffer.byteLength(c), 0);
}
