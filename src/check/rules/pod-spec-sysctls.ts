import type { PodSpecError } from './pod-spec-errors';
import { isMap } from '../../private/maps';

/*
 * What the Kubernetes 1.30 API server refuses in a pod's `securityContext.sysctls`, ported from kubernetes
 * `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names: `validateSysctls` (a name
 * required, `IsValidSysctlName`'s form of at most 253 characters, no name twice) and `ValidateHostSysctl` (a sysctl of
 * the network namespace in a pod of `hostNetwork: true`, of the IPC namespace in a pod of `hostIPC: true`: on create
 * `AllowNamespacedSysctlsForHostNetAndHostIPC` is false), with k8s.io/component-helpers `node/util/sysctl`
 * `GetNamespace` and `NormalizeName` (a name whose first separator is '/' has its '.' and '/' swapped).
 *
 * Whether the kubelet allows a sysctl (`--allowed-unsafe-sysctls`) is the node's, not the API server's: not judged.
 */

const SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
/** `SysctlContainSlashFmt`, as the API server prints its compiled regexp. */
const SYSCTL_FMT = `^(${SEGMENT}[\\./])*${SEGMENT}$`;
const SYSCTL = new RegExp(SYSCTL_FMT);
const MAX_LENGTH = 253;

/** `IsValidSysctlName`. */
export function isValidSysctlName(name: string): boolean {
  return name.length <= MAX_LENGTH && SYSCTL.test(name);
}

/** component-helpers `NormalizeName`: `net/ipv4/conf/eno2.100/rp_filter` is `net.ipv4.conf.eno2/100.rp_filter`. */
export function normalizeSysctlName(name: string): string {
  const first = name.search(/[./]/);
  if (first === -1 || name[first] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

const IPC_NAMES = new Set([
  'kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.shm',
  'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.msg',
]);

/** component-helpers `GetNamespace`: the kernel namespace of a sysctl, or undefined when none is known. */
export function sysctlNamespace(name: string): 'IPC' | 'Net' | undefined {
  let s = normalizeSysctlName(name);
  const star = s.indexOf('*');
  if (star !== -1) s = s.slice(0, star);
  if (IPC_NAMES.has(s)) return 'IPC';
  if (s.startsWith('net.')) return 'Net';
  if (s.startsWith('fs.mqueue.')) return 'IPC';
  return undefined;
}

/** `validateSysctls` of the pod spec `spec`'s security context `sc`, whose sysctls are at `at`. */
export function validateSysctls(sc: Record<string, unknown>, spec: Record<string, unknown>, at: readonly string[], found: PodSpecError[]): void {
  if (!Array.isArray(sc.sysctls)) return;
  const names = new Map<string, number>();
  sc.sysctls.forEach((s, i) => {
    if (!isMap(s)) return;
    const nameAt = [...at, String(i), 'name'];
    const name = s.name === undefined || s.name === null ? '' : s.name;
    if (typeof name !== 'string') return;
    if (name === '') {
      found.push({ at: nameAt, type: 'Required value', check: 'sysctl' });
    } else if (!isValidSysctlName(name)) {
      found.push({ at: nameAt, type: 'Invalid value', value: name, detail: `must have at most ${MAX_LENGTH} characters and match regex ${SYSCTL_FMT}`, check: 'sysctl' });
    } else if (names.has(name)) {
      found.push({ at: nameAt, type: 'Duplicate value', value: name, check: 'sysctl', depends: [[...at, String(names.get(name)), 'name']] });
    }
    // ValidateHostSysctl runs on every name, even one of the errors above
    const ns = sysctlNamespace(name);
    const specAt = at.slice(0, -2);
    if (ns === 'Net' && spec.hostNetwork === true) {
      found.push({ at: nameAt, type: 'Invalid value', value: name, detail: "may not be specified when 'hostNetwork' is true", check: 'sysctl', depends: [[...specAt, 'hostNetwork']] });
    } else if (ns === 'IPC' && spec.hostIPC === true) {
      found.push({ at: nameAt, type: 'Invalid value', value: name, detail: "may not be specified when 'hostIPC' is true", check: 'sysctl', depends: [[...specAt, 'hostIPC']] });
    }
    if (!names.has(name)) names.set(name, i);
  });
}

/** The summary and fix of a sysctl's error. */
export function explainSysctl(e: PodSpecError): { summary: string; fix: string } {
  if (e.type === 'Required value') return { summary: 'is missing: a sysctl needs its name', fix: "Name the kernel parameter, such as name: 'net.ipv4.ip_local_port_range'." };
  if (e.type === 'Duplicate value') return { summary: 'is the name of another sysctl of the pod too', fix: 'Set each sysctl once.' };
  const d = e.detail ?? '';
  if (d.includes("'hostNetwork'")) {
    return { summary: 'is a sysctl of the network namespace, which a pod of hostNetwork: true shares with its node', fix: 'Drop the sysctl (set it on the node), or drop hostNetwork.' };
  }
  if (d.includes("'hostIPC'")) {
    return { summary: 'is a sysctl of the IPC namespace, which a pod of hostIPC: true shares with its node', fix: 'Drop the sysctl (set it on the node), or drop hostIPC.' };
  }
  return {
    summary: "is no sysctl name: at most 253 characters, segments of lowercase letters, digits, '-' and '_' (starting and ending with a letter or digit) separated by '.' or '/'",
    fix: "Write the kernel parameter's name, such as 'net.core.somaxconn'.",
  };
}
