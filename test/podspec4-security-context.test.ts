import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { RuntimeWriter } from '../src';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';
import { normalizeSysctlName, sysctlNamespace } from '../src/check/rules/pod-spec-sysctls';

/*
 * More of a pod's and a container's security context, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names
 * (`validateSysctls`, `IsValidSysctlName`, `ValidateHostSysctl`, `validatePodSpecSecurityContext`,
 * `validateFSGroupChangePolicy`, `ValidateAppArmorProfileField`, `ValidateSecurityContext`), and k8s.io/component-helpers
 * `node/util/sysctl` `GetNamespace` (its names and prefixes). The texts are validation.go's; the cases are written here
 * from it, not ported from validation_test.go (too large for the index that was read).
 */

afterAll(removeTempDirs);

const CONTAINER = { name: 'ctr', image: 'image' };
const POD = { at: ['spec'], isPod: true } as const;
const SYSCTL_REGEX = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';

/** The API server's errors for a Pod of `spec` (one valid container unless given). */
function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [CONTAINER], ...spec } }, POD).map(apiServerText);
}

function sysctls(...names: unknown[]): Record<string, unknown> {
  return { securityContext: { sysctls: names.map((name) => ({ name, value: '1' })) } };
}

describe('validateSysctls', () => {
  test.each([
    ['a name left out', [undefined], ['spec.securityContext.sysctls[0].name: Required value']],
    ['an empty name', [''], ['spec.securityContext.sysctls[0].name: Required value']],
    ['capitals', ['Net.Core.Somaxconn'], [`spec.securityContext.sysctls[0].name: Invalid value: "Net.Core.Somaxconn": must have at most 253 characters and match regex ${SYSCTL_REGEX}`]],
    ['an empty segment', ['net..core'], [`spec.securityContext.sysctls[0].name: Invalid value: "net..core": must have at most 253 characters and match regex ${SYSCTL_REGEX}`]],
    ['a trailing dot', ['kernel.'], [`spec.securityContext.sysctls[0].name: Invalid value: "kernel.": must have at most 253 characters and match regex ${SYSCTL_REGEX}`]],
    ['a segment ending in _', ['net.core_'], [`spec.securityContext.sysctls[0].name: Invalid value: "net.core_": must have at most 253 characters and match regex ${SYSCTL_REGEX}`]],
    ['254 characters', [`a${'.b'.repeat(126)}b`], [`spec.securityContext.sysctls[0].name: Invalid value: "a${'.b'.repeat(126)}b": must have at most 253 characters and match regex ${SYSCTL_REGEX}`]],
    ['a name twice', ['kernel.shm_rmid_forced', 'net.core.somaxconn', 'kernel.shm_rmid_forced'], ['spec.securityContext.sysctls[2].name: Duplicate value: "kernel.shm_rmid_forced"']],
  ])('%s', (_name, names, expected) => {
    expect(errorsOf(sysctls(...names))).toEqual(expected);
  });

  test("names of segments and '.' or '/', up to 253 characters, each once, pass", () => {
    expect(errorsOf(sysctls('kernel.shm_rmid_forced', 'net.ipv4.conf.eno2/100.rp_filter', 'net/ipv4/conf/eno2.100/rp_filter', 'a', 'fs.mqueue.msg_max', `a${'.b'.repeat(125)}c`))).toEqual([]);
  });

  test('a sysctl of the network namespace is refused in a pod of hostNetwork, of the IPC namespace in a pod of hostIPC', () => {
    const names = ['net.core.somaxconn', 'net/ipv4/ip_forward', 'kernel.shmmax', 'kernel.msgmax', 'kernel.sem', 'fs.mqueue.msg_max', 'kernel.pid_max'];
    expect(errorsOf({ hostNetwork: true, ...sysctls(...names) })).toEqual([
      'spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when \'hostNetwork\' is true',
      'spec.securityContext.sysctls[1].name: Invalid value: "net/ipv4/ip_forward": may not be specified when \'hostNetwork\' is true',
    ]);
    expect(errorsOf({ hostIPC: true, ...sysctls(...names) })).toEqual([
      'spec.securityContext.sysctls[2].name: Invalid value: "kernel.shmmax": may not be specified when \'hostIPC\' is true',
      'spec.securityContext.sysctls[3].name: Invalid value: "kernel.msgmax": may not be specified when \'hostIPC\' is true',
      'spec.securityContext.sysctls[4].name: Invalid value: "kernel.sem": may not be specified when \'hostIPC\' is true',
      'spec.securityContext.sysctls[5].name: Invalid value: "fs.mqueue.msg_max": may not be specified when \'hostIPC\' is true',
    ]);
    expect(errorsOf({ hostPID: true, ...sysctls(...names) })).toEqual([]);
  });

  test("GetNamespace: a name whose first separator is '/' has its '.' and '/' swapped; kernel.shm and kernel.msg are names, not prefixes", () => {
    expect(normalizeSysctlName('net/ipv4/conf/eno2.100/rp_filter')).toBe('net.ipv4.conf.eno2/100.rp_filter');
    expect(normalizeSysctlName('net.ipv4.conf.eno2/100.rp_filter')).toBe('net.ipv4.conf.eno2/100.rp_filter');
    expect(sysctlNamespace('kernel.shm_next_id')).toBeUndefined();
    expect(sysctlNamespace('kernel.shm')).toBe('IPC');
    expect(sysctlNamespace('net')).toBeUndefined();
    expect(sysctlNamespace('net.ipv6.neigh.*')).toBe('Net');
  });
});

describe('validatePodSpecSecurityContext: fsGroupChangePolicy, shareProcessNamespace', () => {
  test('an fsGroupChangePolicy other than Always or OnRootMismatch is refused', () => {
    expect(errorsOf({ securityContext: { fsGroupChangePolicy: 'always' } })).toEqual([
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "always": supported values: "Always", "OnRootMismatch"',
    ]);
    expect(errorsOf({ securityContext: { fsGroupChangePolicy: '' } })).toEqual([
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "": supported values: "Always", "OnRootMismatch"',
    ]);
    expect(errorsOf({ securityContext: { fsGroupChangePolicy: 'OnRootMismatch' } })).toEqual([]);
    expect(errorsOf({ securityContext: { fsGroupChangePolicy: 'Always' } })).toEqual([]);
  });

  test('shareProcessNamespace with hostPID is refused, named in the security context as the API server holds it', () => {
    expect(errorsOf({ shareProcessNamespace: true, hostPID: true })).toEqual([
      'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
    ]);
    expect(errorsOf({ shareProcessNamespace: true })).toEqual([]);
    expect(errorsOf({ shareProcessNamespace: false, hostPID: true })).toEqual([]);
  });
});

describe('ValidateAppArmorProfileField', () => {
  test.each([
    ['no type', { }, ['spec.securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set']],
    ['an unknown type', { type: 'runtime/default' }, ['spec.securityContext.appArmorProfile.type: Unsupported value: "runtime/default": supported values: "Localhost", "RuntimeDefault", "Unconfined"']],
    ['Localhost without a profile', { type: 'Localhost' }, ['spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost']],
    ['Localhost with an empty profile', { type: 'Localhost', localhostProfile: '' }, ['spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost']],
    ['Localhost with a padded profile', { type: 'Localhost', localhostProfile: ' deny-write ' }, ['spec.securityContext.appArmorProfile.localhostProfile: Invalid value: " deny-write ": must not be padded with whitespace']],
    ['a profile beside RuntimeDefault', { type: 'RuntimeDefault', localhostProfile: 'deny-write' }, ['spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "deny-write": can only be set when AppArmor type is Localhost']],
    ['a profile beside Unconfined', { type: 'Unconfined', localhostProfile: '' }, ['spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "": can only be set when AppArmor type is Localhost']],
  ])('%s', (_name, appArmorProfile, expected) => {
    expect(errorsOf({ securityContext: { appArmorProfile } })).toEqual(expected);
  });

  test("a container's profile too, and the valid ones pass", () => {
    expect(errorsOf({ containers: [{ ...CONTAINER, securityContext: { appArmorProfile: { type: 'Localhost' } } }] })).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost',
    ]);
    for (const appArmorProfile of [{ type: 'RuntimeDefault' }, { type: 'Unconfined' }, { type: 'Localhost', localhostProfile: 'k8s-deny-write' }]) {
      expect(errorsOf({ securityContext: { appArmorProfile }, containers: [{ ...CONTAINER, securityContext: { appArmorProfile } }] })).toEqual([]);
    }
  });
});

describe('ValidateSecurityContext: allowPrivilegeEscalation false with privileges', () => {
  const DUMP = (caps: string, privileged: string) =>
    `core.SecurityContext{Capabilities:(*core.Capabilities)(${caps}), Privileged:(*bool)(${privileged}), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(nil), RunAsUser:(*int64)(nil), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0x…), ProcMount:(*core.ProcMountType)(nil), SeccompProfile:(*core.SeccompProfile)(nil), AppArmorProfile:(*core.AppArmorProfile)(nil)}`;

  test('with privileged: true (the API server prints the whole struct, its pointers as addresses that vary)', () => {
    expect(errorsOf({ containers: [{ ...CONTAINER, securityContext: { allowPrivilegeEscalation: false, privileged: true } }] })).toEqual([
      `spec.containers[0].securityContext: Invalid value: ${DUMP('nil', '0x…')}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`,
    ]);
  });

  test('with CAP_SYS_ADMIN added, once per entry; SYS_ADMIN is not that string', () => {
    expect(errorsOf({ initContainers: [{ ...CONTAINER, name: 'init', securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN', 'SYS_ADMIN', 'CAP_SYS_ADMIN'] } } }] })).toEqual([
      `spec.initContainers[0].securityContext: Invalid value: ${DUMP('0x…', 'nil')}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`,
      `spec.initContainers[0].securityContext: Invalid value: ${DUMP('0x…', 'nil')}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`,
    ]);
  });

  test('allowPrivilegeEscalation true or left out, or an unprivileged container, passes', () => {
    for (const securityContext of [
      { allowPrivilegeEscalation: true, privileged: true, capabilities: { add: ['CAP_SYS_ADMIN'] } },
      { privileged: true, capabilities: { add: ['CAP_SYS_ADMIN'] } },
      { allowPrivilegeEscalation: false, privileged: false, capabilities: { add: ['SYS_ADMIN', 'NET_ADMIN'] } },
    ]) {
      expect(errorsOf({ containers: [{ ...CONTAINER, securityContext }] })).toEqual([]);
    }
  });

  test('procMount is not refused, whatever its value: the ProcMountType gate is off in 1.30 and the API server sets it to Default', () => {
    expect(errorsOf({ containers: [{ ...CONTAINER, securityContext: { procMount: 'Bogus' } }] })).toEqual([]);
    expect(errorsOf({ containers: [{ ...CONTAINER, securityContext: { procMount: 'Unmasked' } }] })).toEqual([]);
  });
});

describe('the published schema takes what the rule refuses', () => {
  test('a Pod of a bad sysctl, AppArmor profile and privilege escalation validates', () => {
    expect(() => new Pod({
      metadata: { name: 'p' },
      spec: {
        hostNetwork: true,
        securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1' }, { name: 'Bad', value: '1' }], appArmorProfile: { type: 'Localhost' } },
        containers: [{ ...CONTAINER, securityContext: { allowPrivilegeEscalation: false, privileged: true } }],
      },
    }).validate()).not.toThrow();
  });

  test('its enum of fsGroupChangePolicy agrees with the rule', () => {
    const pod = (fsGroupChangePolicy: string) => new Pod({ metadata: { name: 'p' }, spec: { securityContext: { fsGroupChangePolicy: fsGroupChangePolicy as 'Always' }, containers: [CONTAINER] } });
    expect(() => pod('always').validate()).toThrow(/fsGroupChangePolicy must be equal to one of the allowed values/);
    expect(() => pod('OnRootMismatch').validate()).not.toThrow();
  });
});

describe('in a synth', () => {
  test('a cdk8s-plus privileged container is refused: cdk8s-plus writes allowPrivilegeEscalation: false unless told', () => {
    const { app, chart } = routing();
    new kplus.Deployment(chart, 'Web', {
      metadata: { name: 'web', namespace: 'shop' },
      containers: [{ name: 'web', image: 'web:1', securityContext: { privileged: true, ensureNonRoot: false } }],
    });

    expect(podSpecFindings(app)).toEqual([
      expect.stringMatching(/^CAP010 invalid object: 'spec\.template\.spec\.containers\[name=web\]\.securityContext\.allowPrivilegeEscalation' \(false\) of apps\/Deployment shop\/web declared by 'shop\/Routing\/Web' is false in a privileged container, which has every privilege anyway; the API server refuses it: spec\.template\.spec\.containers\[0\]\.securityContext: Invalid value: core\.SecurityContext\{.*\}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true\. Drop privileged: true \(add only the capabilities it needs\), or write allowPrivilegeEscalation: true \(cdk8s-plus writes false unless told\)\.$/),
    ]);
  });

  test('a cdk8s-plus privileged container that allows escalation passes', () => {
    const { app, chart } = routing();
    new kplus.Deployment(chart, 'Web', {
      metadata: { name: 'web', namespace: 'shop' },
      containers: [{ name: 'web', image: 'web:1', securityContext: { privileged: true, allowPrivilegeEscalation: true, ensureNonRoot: false } }],
    });

    expect(podSpecFindings(app)).toEqual([]);
  });

  test('a sysctl of a hostNetwork pod is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Pod', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'shop' },
      spec: { hostNetwork: true, securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] }, containers: [CONTAINER] },
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.securityContext.sysctls[0].name' (\"net.core.somaxconn\") of Pod shop/p declared by 'shop/Routing/Pod' is a sysctl of the network namespace, which a pod of hostNetwork: true shares with its node; the API server refuses it: spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true. Drop the sysctl (set it on the node), or drop hostNetwork.",
    ]);
  });

  test('a hostNetwork a RuntimeWriter writes leaves the sysctl unjudged', () => {
    const { app, chart } = routing();
    const pod = new ApiObject(chart, 'Pod', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'shop' },
      spec: { hostNetwork: true, securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] }, containers: [CONTAINER] },
    });
    new RuntimeWriter(chart, 'Net', { target: pod, fields: ['spec.hostNetwork'], identity: 'system:serviceaccount:ops:net' });

    expect(podSpecFindings(app)).toEqual([]);
  });
});

describe('properties', () => {
  /** The oracle: segments of [a-z0-9] and [-_] inside, split at '.' or '/', 253 characters at most. */
  function validName(name: string): boolean {
    return name.length <= 253 && name.split(/[./]/).every((s) => /^[a-z0-9]$|^[a-z0-9][-_a-z0-9]*[a-z0-9]$/.test(s));
  }

  test('a sysctl name is refused exactly when the oracle says it is no name', () => {
    const name = fc.stringMatching(/^[-_a-zA-Z0-9./]{1,12}$/);
    fc.assert(fc.property(name, (n) => {
      const refused = errorsOf(sysctls(n)).length > 0;
      expect(refused).toBe(!validName(n));
    }), { numRuns: 500 });
  });

  test('any JSON in a security context gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      const pod = { sysctls: a, appArmorProfile: b, fsGroupChangePolicy: a };
      const container = { allowPrivilegeEscalation: false, privileged: true, capabilities: a, appArmorProfile: b };
      expect(() => errorsOf({ hostNetwork: true, hostIPC: true, securityContext: pod })).not.toThrow();
      expect(() => errorsOf({ containers: [{ ...CONTAINER, securityContext: container }] })).not.toThrow();
      expect(() => errorsOf({ securityContext: { sysctls: [{ name: a }, { name: b }] } })).not.toThrow();
    }), { numRuns: 300 });
  });
});
