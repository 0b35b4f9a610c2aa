import { createHash } from 'crypto';
import * as fs from 'fs';
import type { InterfaceRecord } from './interface-record';
import { lockSchemaProblems } from './lock-schema';
import type { RuntimeWriterRecord } from './runtime-writer-record';
import { flatString } from '../private/flat-string';

/** What the lock holds instead of a value that must not be written: a Secret's data, a secret property, or a value shaped like a secret. */
export const SENSITIVE = '(sensitive)';

/**
 * The format version this version of cdk-capability writes. 2 records an object's leaves (`LockedUnit.values`) and
 * the digests of its masked ones (`LockedUnit.sensitive`) by the names the plan gives them, keyed list elements by
 * their keys; 1 (still read) by index path.
 */
export const LOCK_FORMAT_VERSION = 2;

/** What the lock holds instead of an aws-cdk token: its value is known only at deploy time. */
export const KNOWN_AFTER_DEPLOY = '(known after deploy)';

/**
 * One stack or object of a release, as the lock records it: a digest, and the
 * leaves for the plan's field diff with secrets and tokens masked.
 */
export interface LockedUnit {
  /** `stack:<construct path>` or `object:<group>|<kind>|<namespace>|<name>`. */
  readonly id: string;
  /** How messages name it. */
  readonly label: string;
  /** The declaring construct path; for an object of the field-ownership step (`enforce`), which no construct declares, `field-ownership`. */
  readonly path: string;
  /**
   * A digest of its template or manifest, to tell changed from unchanged; of
   * its masked `values` when it holds a sensitive value, so that the digest
   * says nothing about that value.
   */
  readonly digest: string;
  /** For a stack: its CloudFormation stack name (what a teardown deletes). */
  readonly stackName?: string;
  /**
   * For a stack: the region it deploys to, when its `env` names one (what a teardown passes as `--region`);
   * absent for an environment-agnostic stack, and in locks written before regions were recorded.
   */
  readonly region?: string;
  /**
   * For a stack: the account it deploys to, when its `env` names one (where a teardown must run); absent for
   * an environment-agnostic stack, and in locks written before accounts were recorded.
   */
  readonly account?: string;
  /** For a CRD: the `group/Kind` it defines. */
  readonly defines?: string;
  /** For an object: its `group/Kind`. */
  readonly groupKind?: string;
  /** For a namespaced object: its namespace; for a Namespace: its own name under `namespaceName`. */
  readonly namespace?: string;
  /** For a Namespace object: the namespace it creates. */
  readonly namespaceName?: string;
  /**
   * For the `ExternalSecret` that binds a contract major into a Secret: that
   * major's parameter name. The binding is the contract's, so its removal is
   * judged by the readers of the major (`interfaces[].fields[].readBy`), not by
   * the locked graph's edges to the objects that read it.
   */
  readonly binds?: string;
  /**
   * Its leaves by path (`spec.replicas`), masked; for an object, each named as the plan names it (format 2): an
   * element of a keyed list by its keys (`spec.template.spec.containers[name=web].image`), a set value by itself,
   * an element of an atomic list by its index (`spec.rules[0].backendRefs[1].weight`); in a lock of format 1, and
   * where a key's value cannot be delimited in a name, every list element by its index
   * (`spec.template.spec.containers[0].image`). Every value of a Secret's
   * `data` and `stringData`, of a CloudFormation property that takes a secret,
   * of the `Default` of a `NoEcho` parameter, and any value shaped like a
   * secret, is `(sensitive)`; an aws-cdk token is `(known after deploy)`.
   * Absent in locks written before values were recorded.
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /**
   * The keyed digest (HMAC-SHA256 with `CDK_CAPABILITY_LOCK_KEY`, see
   * `Lock.sensitiveKeyId`) of each `(sensitive)` leaf, by path as `values` names it, over that name: how the plan
   * tells a changed secret from an unchanged one without holding either.
   * Absent when the lock was written without a key.
   */
  readonly sensitive?: Readonly<Record<string, string>>;
  /**
   * For an object: the leaves another construct than its declarer writes (a
   * `Contribution`), by path, with that writer's construct path; every other
   * leaf is the declarer's.
   */
  readonly owners?: Readonly<Record<string, string>>;
  /**
   * For a runtime object: every writer with its field manager and the leaves
   * it owns, in the form `metadata.managedFields` prints (`fieldsV1`), so
   * `cdk-capability apply` can give each writer its own field manager and
   * `cdk-capability audit` can compare the cluster with it. Absent in locks
   * written before writers were recorded.
   */
  readonly writers?: readonly LockedWriter[];
  /**
   * For a runtime object: the field managers of controllers (runtime writers) of an earlier release that wrote
   * leaves a writer of this release writes now (handed back), with those leaves. Server-side apply keeps such a
   * manager a co-owner of a leaf until it applies without it (or, for a manager whose last write was an
   * `Update`, until another manager changes the value), so `cdk-capability audit` reports what it still owns
   * there as a stale owner of a handed-back field, with the fix, not as an undeclared manager. Kept in every
   * later release while a writer of the release writes the leaf; absent when there is none.
   */
  readonly handedBack?: readonly LockedHandBack[];
}

/** A runtime writer's field manager that may still own leaves handed back from it to a writer of the release. */
export interface LockedHandBack {
  /** The runtime writer that wrote the leaves, as the lock named it (`cdn/Routing/Scaler (RuntimeWriter)`). */
  readonly writer: string;
  /** Its field manager in the cluster. */
  readonly manager: string;
  /** The leaves handed back, as a `fieldsV1` set, as the runtime writer recorded them. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** One writer of a runtime object, as the lock records it. */
export interface LockedWriter {
  /** The writer, as messages name it: its construct path. */
  readonly writer: string;
  /** How it writes (`declaration`, `contribution`, `json-patch`, `runtime`, ...). */
  readonly kind: string;
  /**
   * Its field manager in the cluster: `cdk-capability:<construct path>` for a writer of the release; for a
   * runtime writer its `manager` prop, else `cdk-capability-runtime:<construct path>`. Absent only in locks
   * written before runtime writers' managers were recorded, for a runtime writer declared without one.
   */
  readonly manager?: string;
  /** The leaves it owns, as a `fieldsV1` set (`{"f:spec":{"f:replicas":{}}}`). */
  readonly fields: Readonly<Record<string, unknown>>;
  /**
   * Those of its leaves that it owns only as nodes (an empty map, a keyed element with its key alone, a set
   * value), as a `fieldsV1` set; absent when there are none. `apply` sends such a node empty.
   */
  readonly presence?: Readonly<Record<string, unknown>>;
}

/** The GitOps engine a release's output was written for, as the lock records it (`Lock.gitops`). */
export interface LockedGitOps {
  /** `flux` (`GitOps.flux`) or `argocd` (`GitOps.argoCd`). */
  readonly engine: 'flux' | 'argocd';
  /** For Flux: the namespace of the step Kustomizations. */
  readonly namespace?: string;
  /** For Flux: the step Kustomizations' names, in plan order. */
  readonly kustomizations?: string[];
  /** For Flux: whether the step Kustomizations prune (`prune`), so that deleting one deletes what it applied. */
  readonly prune?: boolean;
  /**
   * For Flux: each step Kustomization's objects (its inventory), by Kustomization name, each as the plan names it
   * (`Kind namespace/name`), so that the next release's plan names an object that moves to another Kustomization (a
   * step renumbered, a name reused for other objects): the one it leaves prunes it, the other applies it. Absent in
   * locks written before it was recorded.
   */
  readonly objects?: Readonly<Record<string, readonly string[]>>;
  /**
   * For Flux: each step Kustomization's `dependsOn` (the step Kustomizations it waits for), by Kustomization name,
   * so that the next release's plan tells whether the Kustomization an object leaves applies only after the one it
   * moves to (then it never prunes the object) or may apply first. Absent in locks written before it was recorded.
   */
  readonly dependsOn?: Readonly<Record<string, readonly string[]>>;
}

/**
 * An object of the field-ownership step, as the lock records it: a cluster-scoped admissionregistration.k8s.io
 * object that the release applies whole, with no writer of the composition.
 */
export interface LockedPolicy {
  /** `ValidatingAdmissionPolicy` or `ValidatingAdmissionPolicyBinding`. */
  readonly kind: 'ValidatingAdmissionPolicy' | 'ValidatingAdmissionPolicyBinding';
  /** Its name. */
  readonly name: string;
}

/**
 * The previous release, as the user commits it (`capability.lock.json`): the
 * interface artifact and the inventory of stacks and objects with the
 * dependency graph between them, and each one's field values with secrets
 * and tokens masked, so it holds no secret.
 */
export interface Lock {
  /** Format version of this file: `LOCK_FORMAT_VERSION` as written; 1 in a lock of an earlier version, read too. */
  readonly formatVersion: 1 | 2;
  /**
   * The id of the key that digested the sensitive values (`LockKey.id`);
   * absent when the lock was written without `CDK_CAPABILITY_LOCK_KEY`, and
   * then no unit holds digests.
   */
  readonly sensitiveKeyId?: string;
  /** The interface artifact of the release. */
  readonly interfaces: InterfaceRecord[];
  /**
   * The controllers declared as writers (`RuntimeWriter`), as `interface.json` records them: each with its
   * target, leaves, identity and field manager. Absent when the release declares none, and in locks
   * written before they were recorded.
   */
  readonly runtimeWriters?: RuntimeWriterRecord[];
  /**
   * The objects of the field-ownership step (`CapabilityApp` prop `enforce`, `runtime/0000-field-ownership.yaml`):
   * the admission policies and bindings that enforce the ownership map, by kind and name, so that
   * `cdk-capability audit` knows them. Each is also a unit (first, as applied, with its digest and leaves and no
   * writers), so the plan and the teardown treat it as any object of the release. Absent without `enforce`, and
   * in locks written before they were recorded; a lock written before they were units records them here only.
   */
  readonly fieldOwnershipPolicies?: LockedPolicy[];
  /**
   * The GitOps engine the release's output was written for (`CapabilityApp` prop `gitops`), and for Flux the step
   * Kustomizations it made: what the next release's plan names when it no longer makes them. Absent without
   * `gitops`, and in locks written before it was recorded.
   */
  readonly gitops?: LockedGitOps;
  /** Stacks and objects. */
  readonly units: LockedUnit[];
  /** Barrier nodes of the graph (construct-level dependencies), by label. */
  readonly barriers: string[];
  /**
   * Edges `[from, to, reason]`: indexes into `units` (0..n-1) then `barriers`
   * (n..); `to` depends on `from`.
   */
  readonly edges: Array<[number, number, string]>;
}

/** The default lock file name, in the working directory. */
export const DEFAULT_LOCK_FILE = 'capability.lock.json';

/** The lock's id of a stack: `stack:<construct path>`. */
export function stackUnitId(constructPath: string): string {
  return `stack:${constructPath}`;
}

/** The lock's id of an object: `object:<identity key>`. */
export function objectUnitId(identityKey: string): string {
  return flatString('object:', identityKey);
}

/** A lock file as read: the lock, or why it cannot be read. */
export interface LockFileRead {
  /** The lock; absent when there is no file (a first release) or it cannot be read. */
  readonly lock?: Lock;
  /**
   * Why the file cannot be read as a lock, one problem per violation of its
   * JSON Schema (`docs/lock.schema.json`), each a sentence naming the file, the
   * JSON pointer, the value found and what was expected; empty when it can.
   */
  readonly problems: readonly string[];
}

const RECOVER = 'Restore the file from version control, correct it (docs/lock.md), or delete it to start a first release.';

/**
 * Reads a lock file and checks it against the lock's JSON Schema before
 * anything reads it. A UTF-8 byte-order mark (as some editors write) is
 * accepted. Never throws for a file that is not a lock: says why instead.
 *
 * @param recover what each problem ends with: what to do about the file
 * @default recover - a synth's: restore, correct, or delete the file to start a first release
 */
export function loadLock(file: string, recover = RECOVER): LockFileRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf-8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { problems: [] };
    return { problems: [`'${file}' cannot be read (${(e as Error).message}). ${recover}`] };
  }
  return parseLock(text, file, recover);
}

/**
 * Parses the text of a lock file and checks it against the lock's JSON Schema
 * (`loadLock` without the reading). A UTF-8 byte-order mark is accepted.
 *
 * @param file how the problems name the file
 * @param recover what each problem ends with (`loadLock`)
 */
export function parseLock(text: string, file: string, recover = RECOVER): LockFileRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (e) {
    const conflict = conflictMarkerLine(text);
    if (conflict !== undefined) {
      return {
        problems: [
          `'${file}' holds a merge conflict (a '${conflict.marker}' marker at line ${conflict.line}), so it is not valid JSON. ` +
            'Resolve it by taking either side whole (git checkout --ours or --theirs), then synth the merged program again with ' +
            'CDK_CAPABILITY_UPDATE_LOCK=1 to rewrite the lock, and commit it (docs/lock.md).',
        ],
      };
    }
    return { problems: [`'${file}' is not valid JSON (${(e as Error).message}). ${recover}`] };
  }
  const newer = newerFormat(parsed);
  if (newer !== undefined) {
    return {
      problems: [
        `'${file}' was written by a newer version of cdk-capability (lock format ${newer}; this version reads formats 1 to ${LOCK_FORMAT_VERSION}). ` +
          'Upgrade cdk-capability in this project to the version that wrote it (the one on the branch that committed the lock), and synth again. ' +
          'Do not delete or edit the lock: without it the release checks (CAP007, CAP008) have nothing to compare with.',
      ],
    };
  }
  const problems = lockSchemaProblems(parsed);
  if (problems.length > 0) return { problems: problems.map((p) => `'${file}' is not a cdk-capability lock: ${p}. ${recover}`) };
  const { [CONTENT_DIGEST]: recorded, ...lock } = parsed as Lock & { readonly [CONTENT_DIGEST]?: string };
  if (recorded !== undefined && !matchesContentDigest(text, lock as Lock, recorded)) {
    return {
      problems: [
        `'${file}' is not the lock cdk-capability wrote: its content does not match its ${CONTENT_DIGEST}, as when git merges two branches' locks ` +
          'line by line without a conflict (a merge, rebase, cherry-pick or revert), or the file was edited by hand. ' +
          `A lock merged line by line can record what neither branch released: its edges name units by their index. ${recover === RECOVER ? RESOLVE_MERGE : recover}`,
      ],
    };
  }
  return { lock: lock as Lock, problems: [] };
}

/**
 * The key of the lock file that holds the digest of the rest of its content (`sha256:<hex>`), written second, after
 * `formatVersion`. Every release changes it, so two branches that each update the lock conflict on that line when git
 * merges them, and a lock combined line by line without a conflict (or edited by hand) no longer matches it.
 */
const CONTENT_DIGEST = 'contentDigest';

const RESOLVE_MERGE =
  'Resolve the merge by re-running with CDK_CAPABILITY_UPDATE_LOCK=1 on the merged program, from one side\'s lock whole ' +
  '(git checkout HEAD -- <lock file>, or the lock of the commit you reverted), and commit the lock it writes (docs/lock.md#merging-rebasing-and-reverting).';

/** The digest a lock file records of its content: SHA-256 of the lock without its digest, serialized as `serializeLock` does. */
function contentDigest(serialized: string): string {
  return `sha256:${createHash('sha256').update(serialized).digest('hex')}`;
}

/** The first line of a serialized lock and the line after it: `{` and its format version. */
function headOf(formatVersion: unknown): string {
  return `{\n  "formatVersion": ${JSON.stringify(formatVersion)},\n`;
}

/**
 * Whether the lock read from `text` is the content its `recorded` digest was taken of. A file as `serializeLock`
 * wrote it is hashed as it is, without its digest line; any other text of it (reformatted, CRLF line ends) is
 * serialized again from what was read, so only a change of content fails.
 */
function matchesContentDigest(text: string, lock: Lock, recorded: string): boolean {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const head = headOf(lock.formatVersion);
  const line = `  "${CONTENT_DIGEST}": ${JSON.stringify(recorded)},\n`;
  if (body.startsWith(head + line) && body.endsWith('\n') && contentDigest(head + body.slice(head.length + line.length, -1)) === recorded) return true;
  return contentDigest(JSON.stringify(lock, undefined, 2)) === recorded;
}

/** The `formatVersion` of a parsed lock when it is a format after the one this version writes, else undefined. */
function newerFormat(parsed: unknown): number | undefined {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const version = (parsed as { readonly formatVersion?: unknown }).formatVersion;
  return typeof version === 'number' && Number.isSafeInteger(version) && version > LOCK_FORMAT_VERSION ? version : undefined;
}

/** The first line (1-based) that starts with a git merge-conflict marker (`<<<<<<<`, `=======`, `>>>>>>>`), if any. */
function conflictMarkerLine(text: string): { readonly line: number; readonly marker: string } | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const marker = /^(<{7}|={7}|>{7})(?: |$|\r)/.exec(lines[i]);
    if (marker) return { line: i + 1, marker: marker[1] };
  }
  return undefined;
}

/** Writes a lock file atomically (a sibling temporary file renamed over it). */
export function writeLock(file: string, lock: Lock): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, serializeLock(lock));
  fs.renameSync(temporary, file);
}

/**
 * The lock file's content: the lock as JSON, two-space indented, with a final newline, and second after
 * `formatVersion` the digest of the rest (`contentDigest`), which `parseLock` checks.
 */
export function serializeLock(lock: Lock): string {
  const { [CONTENT_DIGEST]: _previous, ...content } = lock as Lock & { readonly [CONTENT_DIGEST]?: string };
  // formatVersion first, as parseLock reads the file back: the digest is of the content in the order it is written
  const serialized = JSON.stringify(Object.assign({ formatVersion: content.formatVersion }, content), undefined, 2);
  const head = headOf(content.formatVersion);
  return `${head}  "${CONTENT_DIGEST}": "${contentDigest(serialized)}",\n${serialized.slice(head.length)}\n`;
}
