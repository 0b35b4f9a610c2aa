import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { CapabilityApp } from '../src';
import { ruleOf } from '../src/check/finding';
import { ingressErrors } from '../src/check/rules/ingress-errors';
import { appArmorFormatError } from '../src/check/rules/pod-spec-apparmor-annotations';
import { isDeletionCost } from '../src/check/rules/pod-spec-deletion-cost';
import { apiServerText, podSpecErrors, PodSpecPlace } from '../src/check/rules/pod-spec-errors';
import { seccompAnnotationErrors } from '../src/check/rules/pod-spec-seccomp-annotations';
import { runAsUserNameErrors } from '../src/check/rules/pod-spec-windows';

/*
 * Windows options, host-process pods, the AppArmor profile's length and the deprecated AppArmor annotations, and an
 * Ingress TLS entry's secretName, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` at the commit `pod-spec-errors.ts` names
 * (`validateWindowsSecurityContextOptions`, `validateWindowsHostProcessPod`, `ValidateAppArmorProfileField`,
 * `ValidateAppArmorPodAnnotations`, `ValidateAppArmorProfileFormat`, `validateAppArmorAnnotationsAndFieldsMatchOnCreate`,
 * `ValidatePodTemplateSpec`), `pkg/apis/networking/validation/validation.go` (`validateIngressTLS`,
 * `validateTLSSecretName`). The tables marked "ported" are validation_test.go's (`TestValidateWindowsHostProcessPod`,
 * `TestValidateAppArmorProfileFormat`, read in a later copy of the file whose cases these functions still pass), as
 * manifests; the texts are validation.go's and apimachinery v0.30's.
 */

afterAll(removeTempDirs);

const POD: PodSpecPlace = { at: ['spec'], isPod: true };
const TEMPLATE: PodSpecPlace = { at: ['spec', 'template', 'spec'], isPod: false };
const CONTAINER = { name: 'ctr', image: 'image' };
const PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** The API server's errors for a Pod of `spec` (one valid container unless given), with `annotations`. */
function errorsOf(spec: Record<string, unknown>, annotations?: Record<string, string>): string[] {
  const metadata = annotations ? { annotations } : {};
  return podSpecErrors({ metadata, spec: { containers: [CONTAINER], ...spec } }, POD).map(apiServerText);
}

/** The same of a Deployment's pod template. */
function templateErrorsOf(spec: Record<string, unknown>, annotations?: Record<string, string>): string[] {
  const metadata = annotations ? { annotations } : {};
  return podSpecErrors({ spec: { template: { metadata, spec: { containers: [CONTAINER], ...spec } } } }, TEMPLATE).map(apiServerText);
}

function windows(options: Record<string, unknown>): Record<string, unknown> {
  return { securityContext: { windowsOptions: options } };
}

describe('validateWindowsSecurityContextOptions', () => {
  const user = (name: string) => errorsOf({ containers: [{ ...CONTAINER, ...windows({ runAsUserName: name }) }] });
  const at = 'spec.containers[0].securityContext.windowsOptions.runAsUserName';

  test.each([
    ['empty', '', ['runAsUserName cannot be an empty string']],
    ['a control character', 'user\n', ['runAsUserName cannot contain control characters']],
    ['two backslashes', 'a\\b\\c', ['runAsUserName cannot contain more than one backslash']],
    ['a domain of 256 characters', `${'a'.repeat(256)}\\user`, ["runAsUserName's Domain length must be under 256 characters", "runAsUserName's Domain doesn't match the NetBios nor the DNS format"]],
    ['a domain starting with a dot', '.dom\\user', ["runAsUserName's Domain doesn't match the NetBios nor the DNS format"]],
    ['an empty user after the domain', 'dom\\', ["runAsUserName's User cannot be empty"]],
    ['a user of 105 characters', 'u'.repeat(105), ["runAsUserName's User length must not be longer than 104 characters"]],
    ['a user of dots and spaces', '. .', ["runAsUserName's User cannot contain only periods or spaces"]],
    ['a user with @', 'user@example.com', ['runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]']],
  ])('a runAsUserName that is %s is refused', (_name, value, details) => {
    expect(user(value)).toEqual(details.map((d) => `${at}: Invalid value: ${JSON.stringify(value)}: ${d}`));
  });

  test.each([
    ['a user', 'ContainerUser'],
    ['a NetBIOS domain with a space and a user', 'NT AUTHORITY\\NETWORK SERVICE'],
    ['a DNS domain', 'corp.example.com\\svc-web'],
    ['a user of 104 characters and a domain of 255', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}\\${'u'.repeat(104)}`],
  ])('a runAsUserName of %s passes', (_name, value) => {
    expect(user(value)).toEqual([]);
  });

  test('gmsaCredentialSpecName is a DNS subdomain, gmsaCredentialSpec not empty nor over 64 KiB, on the pod and on a container', () => {
    expect(errorsOf({ ...windows({ gmsaCredentialSpecName: 'Web_Spec', gmsaCredentialSpec: '' }) })).toEqual([
      `spec.securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "Web_Spec": ${SUBDOMAIN}`,
      'spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string',
    ]);
    const big = `{"x":"${'a'.repeat(64 * 1024)}"}`;
    expect(errorsOf({ containers: [{ ...CONTAINER, ...windows({ gmsaCredentialSpec: big }) }] })).toEqual([
      `spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: ${JSON.stringify(big)}: gmsaCredentialSpec size must be under 64 KiB`,
    ]);
    expect(errorsOf({ ...windows({ gmsaCredentialSpecName: 'web-spec', gmsaCredentialSpec: '{}', runAsUserName: 'ContainerUser' }) })).toEqual([]);
  });

  test('lengths are bytes, as Go counts them: a user of 35 three-byte characters is over 104', () => {
    expect(runAsUserNameErrors('é'.repeat(52))).toEqual([]);
    expect(runAsUserNameErrors('€'.repeat(35))).toEqual(["runAsUserName's User length must not be longer than 104 characters"]);
  });

  test('a user name of letters, digits, spaces and _-. with at most one backslash passes (property)', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9 _.-]{0,13}[A-Za-z0-9_-]$/);
    fc.assert(fc.property(part, part, fc.boolean(), (domain, name, withDomain) => {
      expect(runAsUserNameErrors(withDomain ? `${domain}\\${name}` : name)).toEqual([]);
    }));
  });
});

describe('validateWindowsHostProcessPod (ported: TestValidateWindowsHostProcessPod)', () => {
  const hp = (value: boolean) => windows({ hostProcess: value });
  const ctr = (name: string, value?: boolean) => ({ name, image: 'image', ...(value === undefined ? {} : { securityContext: { windowsOptions: { hostProcess: value } } }) });
  const podWide = (value: boolean, hostNetwork: boolean) => ({ hostNetwork, securityContext: { windowsOptions: { hostProcess: value } } });

  test.each([
    ['pod-wide HostProcess=true, and HostNetwork unset', { securityContext: hp(true).securityContext, containers: [ctr('container')] }, true],
    ['pod-wide HostProcess=true, and HostNetwork set', { ...podWide(true, true), containers: [ctr('container')] }, false],
    ['pod-wide HostProcess=true, HostNetwork set, and containers setting HostProcess=true', { ...podWide(true, true), containers: [ctr('container', true)], initContainers: [ctr('init', true)] }, false],
    ['pod-wide HostProcess=nil, HostNetwork set, and all containers setting HostProcess=true', { hostNetwork: true, containers: [ctr('container', true)], initContainers: [ctr('init', true)] }, false],
    ['some containers setting HostProcess=true, and others HostProcess=false', { hostNetwork: true, containers: [ctr('container', true)], initContainers: [ctr('init', false)] }, true],
    ['some containers setting HostProcess=true, and others leaving it unset', { hostNetwork: true, containers: [ctr('container', true)], initContainers: [ctr('init')] }, true],
    ['pod-wide HostProcess=true, containers true, init containers false', { ...podWide(true, true), containers: [ctr('container', true)], initContainers: [ctr('init', false)] }, true],
    ['pod-wide HostProcess=true, some containers true, others false', { ...podWide(true, true), containers: [ctr('container', true), ctr('other', false)] }, true],
    ['pod-wide HostProcess=true, some containers true, others unset', { ...podWide(true, true), containers: [ctr('container', true)], initContainers: [ctr('init')] }, false],
    ['pod-wide HostProcess=false, some containers true', { ...podWide(false, true), containers: [ctr('container', true)], initContainers: [ctr('init')] }, true],
    ["pod's HostProcess true but all containers override to false", { ...podWide(true, true), containers: [ctr('container', false)] }, true],
    ['a non-HostProcess ephemeral container in a HostProcess pod', { ...podWide(true, true), containers: [ctr('container')], ephemeralContainers: [ctr('debug', false)] }, true],
    ['a HostProcess ephemeral container in a non-HostProcess pod', { containers: [ctr('container')], ephemeralContainers: [ctr('debug', true)] }, true],
  ])('%s', (_name, spec, expectError) => {
    // ephemeral containers are refused in a template (and on a Pod's create) anyway: only this check's errors are compared
    const errors = templateErrorsOf(spec).filter((e) => !e.startsWith('spec.template.spec.ephemeralContainers: Forbidden'));
    expect(errors.length > 0).toBe(expectError);
  });

  test("the API server's texts: a container against the pod, a pod of mixed containers, and no hostNetwork", () => {
    expect(errorsOf({ ...podWide(true, false), containers: [ctr('web', true), ctr('logs', false)] })).toEqual([
      'spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
      'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    ]);
  });

  test('a pod without hostProcess anywhere has none of these errors, whatever else its Windows options say', () => {
    expect(errorsOf({ ...windows({ runAsUserName: 'ContainerUser' }), containers: [ctr('web'), ctr('logs')] })).toEqual([]);
  });
});

describe('ValidateAppArmorProfileField: the localhost profile is at most 4095 bytes', () => {
  const profile = (name: string) => ({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: name } } });

  test('4095 bytes pass, 4096 are refused, as Too long (which quotes no value)', () => {
    expect(errorsOf(profile('p'.repeat(4095)))).toEqual([]);
    expect(errorsOf(profile('p'.repeat(4096)))).toEqual(['spec.securityContext.appArmorProfile.localhostProfile: Too long: may not be longer than 4095']);
    // 1366 three-byte characters are 4098 bytes
    expect(errorsOf({ containers: [{ ...CONTAINER, ...profile('€'.repeat(1366)) }] })).toEqual(['spec.containers[0].securityContext.appArmorProfile.localhostProfile: Too long: may not be longer than 4095']);
    expect(errorsOf(profile('€'.repeat(1365)))).toEqual([]);
  });
});

describe('the deprecated AppArmor annotations', () => {
  test.each([
    ['', true],
    ['runtime/default', true],
    ['unconfined', true],
    ['baz', false],
    ['localhost//usr/sbin/ntpd', true],
    ['localhost/foo-bar', true],
  ])('ValidateAppArmorProfileFormat(%j) valid: %s (ported: TestValidateAppArmorProfileFormat)', (profile, valid) => {
    expect(appArmorFormatError(profile) === undefined).toBe(valid);
  });

  test('an annotation of a container the pod lacks, and of no profile, is refused on a Pod and in a template, at the path the API server prints', () => {
    const annotations = { [`${PREFIX}web`]: 'runtime/default', [`${PREFIX}ctr`]: 'docker/default' };
    expect(errorsOf({}, annotations)).toEqual([
      `metadata.annotations[${PREFIX}web]: Invalid value: "web": container not found`,
      `metadata.annotations[${PREFIX}ctr]: Invalid value: "docker/default": invalid AppArmor profile name: "docker/default"`,
    ]);
    expect(templateErrorsOf({}, annotations)).toEqual([
      `spec.template.annotations[${PREFIX}web]: Invalid value: "web": container not found`,
      `spec.template.annotations[${PREFIX}ctr]: Invalid value: "docker/default": invalid AppArmor profile name: "docker/default"`,
    ]);
  });

  test('an init container and an ephemeral container are containers of the pod too', () => {
    const spec = { initContainers: [{ name: 'init', image: 'i' }], ephemeralContainers: [{ name: 'debug', image: 'd' }] };
    const errors = errorsOf(spec, { [`${PREFIX}init`]: 'unconfined', [`${PREFIX}debug`]: 'localhost/x' });
    expect(errors.filter((e) => e.includes('annotations'))).toEqual([]);
  });

  test('an annotation that names another profile than the field is refused; one that names the same passes', () => {
    const own = (profile: Record<string, unknown>) => ({ containers: [{ ...CONTAINER, securityContext: { appArmorProfile: profile } }] });
    const at = 'spec.containers[0].securityContext.appArmorProfile';
    expect(errorsOf(own({ type: 'RuntimeDefault' }), { [`${PREFIX}ctr`]: 'unconfined' })).toEqual([`${at}.type: Forbidden: apparmor type in annotation and field must match`]);
    expect(errorsOf(own({ type: 'Unconfined' }), { [`${PREFIX}ctr`]: 'runtime/default' })).toEqual([`${at}.type: Forbidden: apparmor type in annotation and field must match`]);
    expect(errorsOf(own({ type: 'Localhost', localhostProfile: 'a' }), { [`${PREFIX}ctr`]: 'runtime/default' })).toEqual([`${at}.type: Forbidden: apparmor type in annotation and field must match`]);
    expect(errorsOf(own({ type: 'Localhost', localhostProfile: 'a' }), { [`${PREFIX}ctr`]: 'localhost/b' })).toEqual([`${at}.localhostProfile: Forbidden: apparmor profile in annotation and field must match`]);
    expect(errorsOf(own({ type: 'Localhost', localhostProfile: 'a' }), { [`${PREFIX}ctr`]: 'localhost/a' })).toEqual([]);
    expect(errorsOf(own({ type: 'RuntimeDefault' }), { [`${PREFIX}ctr`]: 'runtime/default' })).toEqual([]);
  });

  test("a template's container takes the pod's profile; a Pod's container without its own takes the annotation (the registry copies it first)", () => {
    const podProfile = { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } };
    const annotations = { [`${PREFIX}ctr`]: 'localhost/custom' };
    expect(templateErrorsOf(podProfile, annotations)).toEqual(['spec.template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match']);
    expect(errorsOf(podProfile, annotations)).toEqual([]);
  });

  test('a Windows pod is not compared (its appArmorProfile is refused as such)', () => {
    const spec = { os: { name: 'windows' }, containers: [{ ...CONTAINER, securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }] };
    expect(templateErrorsOf(spec, { [`${PREFIX}ctr`]: 'unconfined' })).toEqual(['spec.template.spec.containers[0].securityContext.appArmorProfile: Forbidden: cannot be set for a windows pod']);
  });
});

describe('the findings say what, where and how to fix', () => {
  test('a Deployment with a mixed host-process pod and an AppArmor annotation of no container', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' }, annotations: { [`${PREFIX}api`]: 'runtime/default' } },
          spec: { hostNetwork: true, containers: [{ name: 'web', image: 'web:1', securityContext: { windowsOptions: { hostProcess: true } } }, { name: 'logs', image: 'logs:1' }] },
        },
      },
    });

    expect(podSpecFindings(app)).toEqual([
      `CAP010 invalid object: 'spec.template.metadata.annotations["${PREFIX}api"]' ("runtime/default") of apps/Deployment shop/web declared by 'shop/Routing/Web' names a container the pod does not have ("api"); the API server refuses it: spec.template.annotations[${PREFIX}api]: Invalid value: "api": container not found. Drop the annotation and set securityContext.appArmorProfile on the container instead (the annotation is deprecated), or name a container of the pod.`,
      "CAP010 invalid object: 'spec.template.spec.containers[name=logs].securityContext.windowsOptions.hostProcess' of apps/Deployment shop/web declared by 'shop/Routing/Web' is not a host-process container in a pod that has some: a Windows pod runs all its containers (init and ephemeral ones too) as host processes, or none; the API server refuses it: spec.template.spec: Invalid value: \"\": If pod contains any hostProcess containers then all containers must be HostProcess containers. Set windowsOptions.hostProcess: true on the pod's securityContext, or drop it from every container.",
    ]);
  });

  test('cdk8s-plus-30 workloads with Windows-free security contexts and no AppArmor annotations pass', () => {
    const { app, chart } = routing();
    const web = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ image: 'web:1', securityContext: { ensureNonRoot: false } }] });
    web.addInitContainer({ image: 'migrate:1', securityContext: { ensureNonRoot: false } });
    new kplus.Pod(chart, 'Debug', { metadata: { name: 'debug', namespace: 'shop' }, hostNetwork: true, containers: [{ image: 'debug:1', securityContext: { ensureNonRoot: false } }] });

    expect(app.synthesize().violations.map((v) => v.message)).toEqual([]);
  });
});

describe('validateIngressTLS: a secretName is a Secret name', () => {
  const backend = { service: { name: 'web', port: { number: 80 } } };
  const errorsOfIngress = (tls: unknown[]) => ingressErrors({ spec: { defaultBackend: backend, tls } }).map(apiServerText);

  test('one in capitals or with _ is refused; none, or a DNS subdomain, passes', () => {
    expect(errorsOfIngress([{ hosts: ['shop.example.com'], secretName: 'Shop_TLS' }])).toEqual([`spec.tls[0].secretName: Invalid value: "Shop_TLS": ${SUBDOMAIN}`]);
    expect(errorsOfIngress([{ hosts: ['shop.example.com'] }, { secretName: '' }, { secretName: 'shop.tls-1' }])).toEqual([]);
  });

  function ingressFindings(app: CapabilityApp): string[] {
    return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/ingress-spec-validity').map((v) => `${v.code} ${v.message}`);
  }

  test('the finding names the entry and the fix; a Secret of the composition of that name is refused once, as the Secret', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Edge', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'edge', namespace: 'shop' },
      spec: { defaultBackend: backend, tls: [{ hosts: ['shop.example.com'], secretName: 'Shop_TLS' }] },
    });
    expect(ingressFindings(app)).toEqual([
      `CAP010 invalid object: 'spec.tls[0].secretName' ("Shop_TLS") of networking.k8s.io/Ingress shop/edge declared by 'shop/Routing/Edge' must be a Secret's name: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253 characters); the API server refuses it: spec.tls[0].secretName: Invalid value: "Shop_TLS": ${SUBDOMAIN}. Name the Secret that holds the certificate (type kubernetes.io/tls) as it is named, such as shop-tls.`,
    ]);

    const declared = routing();
    new ApiObject(declared.chart, 'Tls', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'Shop_TLS', namespace: 'shop' }, type: 'kubernetes.io/tls' });
    new ApiObject(declared.chart, 'Edge', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'edge', namespace: 'shop' },
      spec: { defaultBackend: backend, tls: [{ secretName: 'Shop_TLS' }] },
    });
    expect(ingressFindings(declared.app)).toEqual([]);
  });

  test('a cdk8s-plus-30 Ingress with TLS passes', () => {
    const { app, chart } = routing();
    const svc = new kplus.Service(chart, 'Svc', { metadata: { name: 'web', namespace: 'shop' }, ports: [{ port: 80 }] });
    const secret = new kplus.Secret(chart, 'Tls', { metadata: { name: 'shop-tls', namespace: 'shop' } });
    const ingress = new kplus.Ingress(chart, 'Edge', { metadata: { name: 'edge', namespace: 'shop' }, defaultBackend: kplus.IngressBackend.fromService(svc) });
    ingress.addTls([{ hosts: ['shop.example.com'], secret }]);
    expect(ingressFindings(app)).toEqual([]);
  });
});

describe('validateOS, validateLinux and validateWindows', () => {
  test.each([
    ['no OS field', {}, false],
    ['an empty OS field', { os: {} }, true],
    ['OS linux', { os: { name: 'linux' } }, false],
    ['OS windows', { os: { name: 'windows' } }, false],
    ['an empty OS name', { os: { name: '' } }, true],
    ['an invalid OS', { os: { name: 'dummyOS' } }, true],
  ])('%s (ported: TestValidateOS)', (_name, spec, expectError) => {
    expect(errorsOf(spec).length > 0).toBe(expectError);
  });

  test("the API server's texts of an OS name missing or unknown", () => {
    expect(errorsOf({ os: {} })).toEqual(['spec.os.name: Required value: cannot be empty']);
    expect(errorsOf({ os: { name: 'Windows' } })).toEqual(['spec.os: Unsupported value: "Windows": supported values: "linux", "windows"']);
  });

  test('a linux pod takes no windowsOptions, on the pod or a container', () => {
    const spec = { os: { name: 'linux' }, ...windows({ runAsUserName: 'ContainerUser' }), initContainers: [{ name: 'init', image: 'i', ...windows({ runAsUserName: 'ContainerUser' }) }] };
    expect(errorsOf(spec)).toEqual([
      'spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
      'spec.initContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
    ]);
  });

  test('a windows pod takes no Linux-only settings; false host namespaces and an empty sysctls list are none', () => {
    const spec = {
      os: { name: 'windows' },
      hostPID: false,
      hostIPC: true,
      shareProcessNamespace: false,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, sysctls: [], seccompProfile: { type: 'RuntimeDefault' }, ...windows({ runAsUserName: 'ContainerUser' }).securityContext as object },
      containers: [{ name: 'web', image: 'web:1', securityContext: { runAsNonRoot: true, privileged: false, capabilities: { drop: ['ALL'] } } }],
    };
    expect(errorsOf(spec)).toEqual([
      'spec.hostIPC: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod',
      'spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
    ]);
    expect(errorsOf({ os: { name: 'windows' }, securityContext: { runAsNonRoot: true, ...windows({ runAsUserName: 'ContainerUser' }).securityContext as object } })).toEqual([]);
  });

  test('a cdk8s-plus-30 Deployment patched to os windows names the Linux settings cdk8s-plus writes, with what to do', () => {
    const { app, chart } = routing();
    const web = new kplus.Deployment(chart, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ name: 'web', image: 'web:1', securityContext: { ensureNonRoot: false } }] });
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/template/spec/os', { name: 'windows' }));
    const says = (field: string, value: string, at: string) => `CAP010 invalid object: '${field}' (${value}) of apps/Deployment shop/web declared by 'shop/Routing/Web' is set in a pod of os.name: windows, which takes no Linux-only security settings (AppArmor, SELinux, seccomp, user and group IDs, capabilities, sysctls, host PID and IPC namespaces); the API server refuses it: ${at}: Forbidden: cannot be set for a windows pod. Drop it (on Windows, windowsOptions.runAsUserName sets the user; cdk8s-plus always writes privileged, allowPrivilegeEscalation, readOnlyRootFilesystem, fsGroupChangePolicy and shareProcessNamespace, which a Windows pod removes with JsonPatch.remove), or write os: { name: 'linux' }.`;
    expect(podSpecFindings(app)).toEqual([
      says('spec.template.spec.containers[name=web].securityContext.allowPrivilegeEscalation', 'false', 'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation'),
      says('spec.template.spec.containers[name=web].securityContext.privileged', 'false', 'spec.template.spec.containers[0].securityContext.privileged'),
      says('spec.template.spec.containers[name=web].securityContext.readOnlyRootFilesystem', 'true', 'spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem'),
      says('spec.template.spec.securityContext.fsGroupChangePolicy', '"Always"', 'spec.template.spec.securityContext.fsGroupChangePolicy'),
      says('spec.template.spec.shareProcessNamespace', 'false', 'spec.template.spec.shareProcessNamespace'),
    ]);
  });
});

describe('gates and the names a pod spec refers to', () => {
  test('a readiness gate and a scheduling gate that are no qualified name, a service account, node and runtime class that are no DNS subdomain, an unknown preemption policy', () => {
    const spec = {
      readinessGates: [{ conditionType: 'example.com/ready' }, { conditionType: 'lb ready' }],
      schedulingGates: [{ name: 'example.com/quota' }, { name: '-x' }],
      serviceAccountName: 'Web',
      nodeName: 'node_1',
      runtimeClassName: '',
      preemptionPolicy: 'never',
    };
    const QUALIFIED = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    expect(templateErrorsOf(spec)).toEqual([
      `spec.template.spec.readinessGates[1].conditionType: Invalid value: "lb ready": ${QUALIFIED}`,
      `spec.template.spec.schedulingGates[1]: Invalid value: "-x": ${QUALIFIED}`,
      `spec.template.spec.serviceAccountName: Invalid value: "Web": ${SUBDOMAIN}`,
      `spec.template.spec.nodeName: Invalid value: "node_1": ${SUBDOMAIN}`,
      `spec.template.spec.runtimeClassName: Invalid value: "": ${SUBDOMAIN}`,
      'spec.template.spec.preemptionPolicy: Unsupported value: "never": supported values: "PreemptLowerPriority", "Never"',
    ]);
    expect(templateErrorsOf({ serviceAccountName: 'web', nodeName: 'ip-10-0-0-1.ec2.internal', runtimeClassName: 'gvisor', preemptionPolicy: 'Never', readinessGates: [{ conditionType: 'Ready' }] })).toEqual([]);
  });

  test('a Pod may not name its node while it has scheduling gates; a template may', () => {
    const spec = { nodeName: 'node-1', schedulingGates: [{ name: 'example.com/quota' }] };
    expect(errorsOf(spec)).toEqual(['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared']);
    expect(templateErrorsOf(spec)).toEqual([]);
  });
});

describe('the deprecated seccomp annotations', () => {
  const POD_KEY = 'seccomp.security.alpha.kubernetes.io/pod';
  const CTR_KEY = 'container.seccomp.security.alpha.kubernetes.io/ctr';

  test.each([
    ['runtime/default', []],
    ['docker/default', []],
    ['unconfined', []],
    ['localhost/profiles/audit.json', []],
    ['localhost//etc/audit.json', ['must be a relative path']],
    ['localhost/../audit.json', ["must not contain '..'"]],
    ['RuntimeDefault', ['must be a valid seccomp profile']],
  ])('ValidateSeccompProfile(%j)', (profile, messages) => {
    expect(seccompAnnotationErrors(profile)).toEqual(messages);
  });

  test('an annotation of no profile is refused on a Pod and in a template, as a child of annotations', () => {
    expect(errorsOf({}, { [POD_KEY]: 'RuntimeDefault' })).toEqual([`metadata.annotations.${POD_KEY}: Invalid value: "RuntimeDefault": must be a valid seccomp profile`]);
    expect(templateErrorsOf({}, { [CTR_KEY]: 'localhost/../x' })).toEqual([`spec.template.annotations.${CTR_KEY}: Invalid value: "localhost/../x": must not contain '..'`]);
  });

  test("an annotation beside a seccompProfile that names another is refused; the pod's profile answers the pod's annotation only", () => {
    const pod = { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } };
    expect(errorsOf(pod, { [POD_KEY]: 'unconfined' })).toEqual(['spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']);
    expect(errorsOf(pod, { [POD_KEY]: 'docker/default', [CTR_KEY]: 'unconfined' })).toEqual([]);
    const own = { containers: [{ ...CONTAINER, securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'a.json' } } }] };
    expect(templateErrorsOf(own, { [CTR_KEY]: 'localhost/b.json' })).toEqual(['spec.template.spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match']);
    expect(templateErrorsOf(own, { [CTR_KEY]: 'localhost/a.json' })).toEqual([]);
  });

  test('the finding names the annotation and the fix', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'shop', annotations: { [POD_KEY]: 'RuntimeDefault' } },
      spec: { containers: [{ name: 'web', image: 'web:1' }] },
    });
    expect(podSpecFindings(app)).toEqual([
      `CAP010 invalid object: 'metadata.annotations["${POD_KEY}"]' ("RuntimeDefault") of Pod shop/web declared by 'shop/Routing/Web' is no seccomp profile: the annotation takes 'runtime/default', 'docker/default', 'unconfined' or 'localhost/<relative path without ..>'; the API server refuses it: metadata.annotations.${POD_KEY}: Invalid value: "RuntimeDefault": must be a valid seccomp profile. Drop the annotation for securityContext.seccompProfile: { type: 'RuntimeDefault' } (or 'Localhost' with localhostProfile), or write one of those values.`,
    ]);
  });
});

describe('the pod deletion cost annotation', () => {
  const KEY = 'controller.kubernetes.io/pod-deletion-cost';

  test.each([
    ['0', true], ['100', true], ['-5', true], ['-0', true], ['2147483647', true], ['-2147483648', true],
    ['', false], ['+10', false], ['008', false], ['2147483648', false], ['-2147483649', false], ['1.5', false], ['1e3', false], ['1_000', false], ['-', false], ['ten', false],
  ])('%j is a deletion cost: %s (GetDeletionCostFromPodAnnotations)', (value, valid) => {
    expect(isDeletionCost(value)).toBe(valid);
  });

  test('one that is no 32-bit integer is refused on a Pod and in a template, named as the API server names it', () => {
    expect(errorsOf({}, { [KEY]: '+10' })).toEqual([`metadata.annotations[${KEY}]: Invalid value: "+10": must be a 32bit integer`]);
    expect(templateErrorsOf({}, { [KEY]: '3000000000' })).toEqual([`spec.template.annotations[${KEY}]: Invalid value: "3000000000": must be a 32bit integer`]);
    expect(templateErrorsOf({}, { [KEY]: '-100' })).toEqual([]);
  });

  test('every decimal 32-bit integer is one (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), (n) => {
      expect(errorsOf({}, { [KEY]: String(n) })).toEqual([]);
    }));
  });
});
