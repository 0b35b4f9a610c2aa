/**
 * Where the kinds that run pods keep their pod spec and pod labels: pure
 * functions of a manifest, shared by reference collection and the reference
 * check.
 */

/** The pod spec of a workload manifest, and the dotted path to it; undefined for kinds that run no pods. */
export function podSpecOf(group: string, kind: string, manifest: any): { spec: any; at: string } | undefined {
  switch (`${group}/${kind}`) {
    case '/Pod':
      return { spec: manifest?.spec, at: 'spec' };
    case 'apps/Deployment':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
    case 'apps/ReplicaSet':
    case 'batch/Job':
    case '/ReplicationController':
      return { spec: manifest?.spec?.template?.spec, at: 'spec.template.spec' };
    case 'batch/CronJob':
      return { spec: manifest?.spec?.jobTemplate?.spec?.template?.spec, at: 'spec.jobTemplate.spec.template.spec' };
    default:
      return undefined;
  }
}

/**
 * The labels of the pods a workload runs (a Pod's own labels); undefined for
 * objects that run no pods. A workload is an object of a built-in kind that
 * runs pods, or any other object with a pod template at `spec.template` (a
 * template whose spec has `containers`): an Argo Rollout, a Knative Service, a
 * CRD's workload. A template without containers (an ApplicationSet's, of
 * Applications) is not one.
 */
export function podLabelsOf(group: string, kind: string, manifest: any): Record<string, string> | undefined {
  if (group === '' && kind === 'Pod') return manifest?.metadata?.labels ?? {};
  if (group === 'batch' && kind === 'CronJob') return manifest?.spec?.jobTemplate?.spec?.template?.metadata?.labels ?? {};
  const template = manifest?.spec?.template;
  return podSpecOf(group, kind, manifest) || Array.isArray(template?.spec?.containers) ? template?.metadata?.labels ?? {} : undefined;
}

/**
 * True when a label selector's `matchLabels` (or a Service's `selector`)
 * selects pods of these labels: every key of the selector has its value
 * among the labels. An empty selector selects every pod.
 */
export function selects(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}
