import type { ApiObject } from 'cdk8s';
import type { LibraryDefault } from '../facts';
import { FieldPath } from './field-path';
import { declarerOf } from '../declarer';
import type { FieldTopology } from '../topology/field-topology';
import { elementKeyOf } from '../topology/list-topology';

/**
 * What cdk8s-plus renders into a workload that its props did not set
 * (cdk8s-plus-30 2.4 and -33 2.5, `lib/deployment.js`, `lib/stateful-set.js`,
 * `lib/pod.js`, `lib/container.js`): per container, the image pull policy,
 * the resource requests and limits and the security context; per pod, its
 * security context; a Deployment's rolling-update strategy. A leaf counts as
 * a default when it holds exactly this value (test/library-defaults.test.ts
 * pins the table to what both majors render).
 */
export const CDK8S_PLUS_DEFAULTS = {
  container: [
    [['imagePullPolicy'], 'Always'],
    [['resources', 'limits', 'cpu'], '1500m'],
    [['resources', 'limits', 'memory'], '2048Mi'],
    [['resources', 'requests', 'cpu'], '1000m'],
    [['resources', 'requests', 'memory'], '512Mi'],
    [['securityContext', 'allowPrivilegeEscalation'], false],
    [['securityContext', 'privileged'], false],
    [['securityContext', 'readOnlyRootFilesystem'], true],
    [['securityContext', 'runAsNonRoot'], true],
  ],
  pod: [
    [['securityContext', 'fsGroupChangePolicy'], 'Always'],
    [['securityContext', 'runAsNonRoot'], true],
  ],
  deployment: [
    [['spec', 'strategy', 'type'], 'RollingUpdate'],
    [['spec', 'strategy', 'rollingUpdate', 'maxSurge'], '25%'],
    [['spec', 'strategy', 'rollingUpdate', 'maxUnavailable'], '25%'],
  ],
  /** The replicas a workload renders when its `replicas` prop is not set and no autoscaler is marked. */
  replicas: { Deployment: 2, StatefulSet: 1 } as Readonly<Record<string, number>>,
} as const;

/** Where each kind's pod spec is. */
const POD_SPEC: Readonly<Record<string, FieldPath>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/**
 * The leaves of a cdk8s-plus workload's manifest that hold cdk8s-plus's
 * default rather than a value its props set; empty for any other object.
 * A workload is recognized by its shape (the `Resource` child of a construct
 * with `containers` and `addContainer`), so every cdk8s-plus major counts.
 * Replicas are a default exactly when the `replicas` prop is unset; the other
 * leaves when they hold the default value.
 *
 * @param apiObject the object
 * @param declared what its declaration rendered (no patch applied, no contribution merged)
 * @param topology its kind's topology
 */
export function libraryDefaultsOf(apiObject: ApiObject, declared: unknown, topology: FieldTopology): LibraryDefault[] {
  const declarer = declarerOf(apiObject) as unknown as { containers?: unknown; addContainer?: unknown; replicas?: unknown };
  if (declarer === (apiObject as unknown) || !Array.isArray(declarer.containers) || typeof declarer.addContainer !== 'function') return [];
  const manifest = declared as Record<string, any>;
  const kind = String(manifest?.kind ?? '');
  const podPath = POD_SPEC[kind];
  if (!podPath) return [];
  const found: LibraryDefault[] = [];
  const replicas = CDK8S_PLUS_DEFAULTS.replicas[kind];
  if (replicas !== undefined && declarer.replicas === undefined && manifest.spec?.replicas === replicas) {
    found.push({ path: ['spec', 'replicas'], value: replicas, library: 'cdk8s-plus' });
  }
  if (kind === 'Deployment') checkDefaults(found, [], manifest, CDK8S_PLUS_DEFAULTS.deployment);
  const pod = at(manifest, podPath);
  checkDefaults(found, podPath, pod, CDK8S_PLUS_DEFAULTS.pod);
  let node = topology;
  for (const segment of podPath) node = node.field(segment);
  for (const list of ['initContainers', 'containers']) {
    const containers = at(pod, [list]);
    if (!Array.isArray(containers)) continue;
    for (const c of containers) checkDefaults(found, [...podPath, list, elementKeyOf(c, node.field(list))], c, CDK8S_PLUS_DEFAULTS.container);
  }
  return found;
}

/**
 * Adds to `found` each leaf of `table` that `value` (found at `base`) holds the default of. A function of the module,
 * not a closure of each call: the bundle would name a closure per call (esbuild's `keepNames`).
 */
function checkDefaults(found: LibraryDefault[], base: FieldPath, value: unknown, table: ReadonlyArray<readonly [readonly string[], unknown]>): void {
  // indexed, without destructuring, here and in `at`: V8 optimizes these in a synth's one run, and the iterator
  // protocols of `for...of` and of `[rel, expected]` made that compile cost more than the loop
  for (let i = 0; i < table.length; i++) {
    const rel = table[i][0];
    const expected = table[i][1];
    if (at(value, rel) === expected) found.push({ path: [...base, ...rel], value: expected, library: 'cdk8s-plus' });
  }
}

function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[path[i]];
  }
  return current;
}
