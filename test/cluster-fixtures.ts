/**
 * Compositions synthesized the way a user's are, and their apply sequence replayed on structured-merge-diff:
 * shared by the tests of the apply sequence and of the audit.
 */
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as jsyaml from 'js-yaml';
import { APPLICATION_DEPLOYMENT_CRD, APPLICATION_DEPLOYMENT_SCHEMA, APPLICATION_DEPLOYMENT_TYPE } from './smd/cases/application-deployment';
import type { SmdOperation, SmdResult } from './smd/smd';
import { tempDir } from './util';
import { Capability, CapabilityApp, Contribution, Plan, RuntimeRouting, RuntimeWriter } from '../src';
import { ApplyPhase, applySequence } from '../src/cluster/apply-sequence';
import { sequencedObjects } from '../src/cluster/object-writers';
import type { Lock } from '../src/release/lock';
import { serializeLock, writeLock } from '../src/release/lock';
import { textOf } from '../src/render/file-content';

/** A kind the sequence can be replayed for: its SMD type (and schema, for a custom resource). */
export interface ReplayedKind {
  readonly typeName: string;
  readonly schema?: string;
}

/** The SMD type of each kind the tests apply, by `group/Kind`. */
export const REPLAYED_KINDS: Readonly<Record<string, ReplayedKind>> = {
  '/Namespace': { typeName: 'io.k8s.api.core.v1.Namespace' },
  '/ConfigMap': { typeName: 'io.k8s.api.core.v1.ConfigMap' },
  'apps/Deployment': { typeName: 'io.k8s.api.apps.v1.Deployment' },
  'example.com/ApplicationDeployment': { typeName: APPLICATION_DEPLOYMENT_TYPE, schema: APPLICATION_DEPLOYMENT_SCHEMA },
};

/** The one object a composition's writers share: its identity, the declarer's fields and each contribution's. */
export interface SharedObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** The declarer's fields beside the identity. */
  readonly declared: Record<string, unknown>;
  /** Each contribution by construct id (`W1`...), with its fields; ids kept across releases keep their managers. */
  readonly contributions: ReadonlyArray<{ readonly id: string; readonly fields: Record<string, unknown> }>;
  /** Controllers declared as writers of the object (`cap/Routing/<id>`). */
  readonly runtimeWriters?: ReadonlyArray<SharedRuntimeWriter>;
}

/** A `RuntimeWriter` of the shared object: its construct id, leaves, identity and field manager. */
export interface SharedRuntimeWriter {
  readonly id: string;
  readonly fields: readonly string[];
  readonly identity: string;
  readonly manager?: string;
}

/** One synthesized release. */
export interface Release {
  readonly plan: Plan;
  readonly lock: Lock;
  /** Every file of the output, by path under the outdir. */
  readonly files: ReadonlyMap<string, string>;
  /** The lock file it was synthesized against (its previous release), and where its own lock was written. */
  readonly lockFile: string;
}

/** The name and namespace of the shared object. */
export const SHARED = { name: 'shared', namespace: 'ns' };

/**
 * Synthesizes a composition with a Namespace, the CRD when the object is an `ApplicationDeployment`, and the
 * shared object declared by `cap/Routing/Object` with its contributions and runtime writers `cap/Routing/<id>`.
 *
 * @param previous the previous release, whose lock this one is compared against
 */
export function synthRelease(object: SharedObject, previous?: Release): Release {
  const dir = tempDir('cluster-fixture-');
  const lockFile = path.join(dir, 'capability.lock.json');
  if (previous) writeLock(lockFile, previous.lock);
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile });
  const routing = new RuntimeRouting(new Capability(app, 'cap'), 'Routing');
  new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SHARED.namespace } });
  if (object.kind === 'ApplicationDeployment') new ApiObject(routing, 'Crd', structuredClone(APPLICATION_DEPLOYMENT_CRD) as any);
  const { metadata, ...declared } = structuredClone(object.declared) as { metadata?: Record<string, unknown> };
  const target = new ApiObject(routing, 'Object', { apiVersion: object.apiVersion, kind: object.kind, metadata: { ...SHARED, ...metadata }, ...declared } as any);
  for (const c of object.contributions) new Contribution(routing, c.id, { target, fields: structuredClone(c.fields) });
  for (const w of object.runtimeWriters ?? []) {
    new RuntimeWriter(routing, w.id, {
      target,
      fields: [...w.fields],
      identity: w.identity,
      ...(w.manager !== undefined ? { manager: w.manager } : {}),
    });
  }
  const result = app.synthesize();
  if (result.violations.length > 0 || !result.plan || !result.lock || !result.output) {
    throw new Error(`the composition was refused: ${result.violations.map((v) => v.message).join('\n')}\n${JSON.stringify(object)}`);
  }
  // the lock round-trips through its file, as the next release reads it
  const lock = JSON.parse(serializeLock(result.lock)) as Lock;
  return { plan: result.plan, lock, files: new Map([...result.output.files].map(([f, c]) => [f, textOf(c)])), lockFile };
}

/** The group and kind of a manifest, `apps/Deployment`. */
export function groupKindOf(manifest: any): string {
  const apiVersion = String(manifest.apiVersion);
  return `${apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''}/${manifest.kind}`;
}

/** How a write to an object is told apart from writes to others: its group, kind, namespace and name. */
export function objectKey(manifest: any): string {
  return `${groupKindOf(manifest)} ${manifest.metadata?.namespace ?? ''}/${manifest.metadata?.name}`;
}

/** One write of the apply sequence, as the oracle takes it, with the phase it belongs to. */
export interface PhasedOperation extends SmdOperation {
  readonly phase: ApplyPhase;
}

/**
 * What `cdk-capability apply` sends for a release, per object: each step's applies (`applySequence` over the
 * step's files and the plan's writers), as the oracle's operations, in order.
 */
export function applyOperations(release: Release): Map<string, PhasedOperation[]> {
  const out = new Map<string, PhasedOperation[]>();
  for (const step of release.plan.steps) {
    if (step.lifecycle !== 'runtime') continue;
    const manifests = step.files.flatMap((f) => jsyaml.loadAll(release.files.get(f) ?? '') as any[]).filter(Boolean);
    for (const a of applySequence(sequencedObjects(manifests, release.plan.writers))) {
      for (const object of a.objects) {
        const key = objectKey(object);
        out.set(key, [...(out.get(key) ?? []), { manager: a.manager, force: a.force, object, phase: a.phase }]);
      }
    }
  }
  return out;
}

/**
 * An object as `kubectl get -o json --show-managed-fields` would print it after the oracle's writes: the
 * final object, and one `managedFields` entry per manager with its operation and set. Entries are in the
 * order of each manager's last write, with times that order them as the API server's would.
 *
 * @param operations the writes of the case, in order (for the times)
 */
export function asLiveObject(result: SmdResult, operations: readonly SmdOperation[]): any {
  const last = new Map<string, number>();
  operations.forEach((op, i) => last.set(op.manager, i));
  const managers = Object.entries(result.managers).sort(([a], [b]) => (last.get(a) ?? 0) - (last.get(b) ?? 0));
  const object = result.object as any;
  return {
    ...object,
    metadata: {
      ...object.metadata,
      managedFields: managers.map(([manager, set]) => ({
        manager,
        operation: set.operation === 'apply' ? 'Apply' : 'Update',
        apiVersion: set.apiVersion,
        time: new Date(Date.UTC(2026, 11, 3, 10, 0, last.get(manager) ?? 0)).toISOString().replace('.000Z', 'Z'),
        fieldsType: 'FieldsV1',
        fieldsV1: set.fieldsV1,
      })),
    },
  };
}
