import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from './dns-names';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/**
 * The groups Kubernetes itself puts requests in (k8s.io/apiserver `user` constants, the service account and
 * bootstrap token authenticators): names that are never a username.
 */
const SYSTEM_GROUPS = new Set(['system:masters', 'system:nodes', 'system:monitoring', 'system:authenticated', 'system:unauthenticated', 'system:serviceaccounts', 'system:bootstrappers']);

/** How messages name the group a value is, when it is one of Kubernetes' own (`system:serviceaccounts:<namespace>` included). */
function groupOf(value: string): string | undefined {
  if (SYSTEM_GROUPS.has(value)) return 'a group of Kubernetes\' own';
  const SERVICE_ACCOUNTS = 'system:serviceaccounts:';
  if (value.startsWith(SERVICE_ACCOUNTS)) {
    const namespace = value.slice(SERVICE_ACCOUNTS.length);
    return `the group of every service account of the namespace ${JSON.stringify(namespace)} (one of them is system:serviceaccount:${namespace}:<name>)`;
  }
  if (value.startsWith('system:bootstrappers:')) return 'a group of bootstrap tokens';
  return undefined;
}

/**
 * Why a value is not a Kubernetes username as the API server reports it in
 * `request.userInfo.username`, or undefined when it is one: a non-empty string
 * without whitespace; a service account's is
 * `system:serviceaccount:<namespace>:<name>`, a DNS-1123 label and a DNS-1123
 * subdomain. A group of Kubernetes' own (`system:serviceaccounts:<namespace>`,
 * `system:masters`, `system:authenticated`, ...) is never a username.
 *
 * @param value the value given
 * @param prop how the message quotes the prop, such as `'identity'`
 * @param role whose username it is, such as `the controller writes as`
 * @param example a valid value for the message, such as `system:serviceaccount:netop-system:netop`
 */
export function usernameProblem(value: unknown, prop: string, role: string, example: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '' || /\s/.test(value)) {
    return `${prop} (${JSON.stringify(value) ?? String(value)}) must be the Kubernetes username ${role} (no spaces), such as ${JSON.stringify(example)}`;
  }
  const group = groupOf(value);
  if (group) {
    // a namespace's service-account group: the username is one account of that namespace, the one its pods run as
    const namespace = value.startsWith('system:serviceaccounts:') ? value.slice('system:serviceaccounts:'.length) : undefined;
    const instead = namespace === undefined
      ? `such as ${JSON.stringify(example)}`
      : `system:serviceaccount:${namespace}:<name>, <name> being the serviceAccountName its pods run as (kubectl get pods -n ${namespace} -o jsonpath='{..serviceAccountName}')`;
    return `${prop} (${JSON.stringify(value)}) is ${group}, which the API server reports in request.userInfo.groups, never as request.userInfo.username, `
      + `the name the admission policy compares: give the username ${role}, ${instead}`;
  }
  if (!value.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const [namespace, name, ...rest] = value.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (rest.length > 0 || !DNS1123_LABEL.test(namespace ?? '') || !DNS1123_SUBDOMAIN.test(name ?? '')) {
    return `${prop} (${JSON.stringify(value)}) must name a service account as the API server does, system:serviceaccount:<namespace>:<name> (a DNS-1123 label and a DNS-1123 subdomain), such as ${JSON.stringify(example)}`;
  }
  return undefined;
}
