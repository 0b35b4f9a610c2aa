import * as fc from 'fast-check';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * The resource, downward API and mount propagation checks of the pod spec port, against Kubernetes' own tests.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation_test.go` at commit
 * 000f26050b9be6fb3d79fae95e06b47fc96128cd (the copy the index holds), functions named above each table; the Go
 * tests assert the error type and field (and for env, that the error contains a text); the exact texts here are
 * those of `validation.go` at the commit `pod-spec-errors.ts` names, with k8s.io/apimachinery v0.30.14's quantities
 * and messages. A manifest is defaulted before validation: a fieldRef without apiVersion is v1
 * (`SetDefaults_ObjectFieldSelector`), so the Go case that only the missing default makes fail is ported as accepted.
 */

/** The API server's errors for a Pod of `spec`, as `field.Error.Error()` prints them. */
function podErrors(spec: unknown): string[] {
  return podSpecErrors({ spec }, { at: ['spec'], isPod: true }).map(apiServerText);
}

/** The errors of a Pod of one container `c` (a name and image added), named from `containers` as the Go test names them. */
function containerErrors(c: Record<string, unknown>, volumes: unknown[] = []): string[] {
  return podErrors({ containers: [{ name: 'abc-123', image: 'image', ...c }], volumes }).map((e) => e.replace(/^spec\./, ''));
}

/** `getResources(cpu, memory, ...)` of the Go test: a resource list of the given cpu and memory. */
function getResources(cpu: string, memory: string): Record<string, string> {
  return { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
}

const STANDARD_TYPE = 'must be a standard resource type or fully qualified';
const STANDARD_CONTAINER = 'must be a standard resource for containers';

describe('TestValidateContainers: the resource error cases', () => {
  test.each([
    ['invalid compute resource', { limits: { disk: '10G' } }, [
      `containers[0].resources.limits[disk]: Invalid value: "disk": ${STANDARD_TYPE}`,
      `containers[0].resources.limits[disk]: Invalid value: "disk": ${STANDARD_CONTAINER}`,
    ]],
    ['Resource CPU invalid', { limits: getResources('-10', '0') }, ['containers[0].resources.limits[cpu]: Invalid value: "-10": must be greater than or equal to 0']],
    ['Resource Requests CPU invalid', { requests: getResources('-10', '0') }, ['containers[0].resources.requests[cpu]: Invalid value: "-10": must be greater than or equal to 0']],
    ['Resource Memory invalid', { limits: getResources('0', '-10') }, ['containers[0].resources.limits[memory]: Invalid value: "-10": must be greater than or equal to 0']],
    ['Request limit simple invalid', { limits: getResources('5', '3'), requests: getResources('6', '3') }, [
      'containers[0].resources.requests: Invalid value: "6": must be less than or equal to cpu limit of 5',
    ]],
    ['Invalid storage limit request', { limits: { 'attachable-volumes-aws-ebs': 10 } }, [
      `containers[0].resources.limits[attachable-volumes-aws-ebs]: Invalid value: "attachable-volumes-aws-ebs": ${STANDARD_TYPE}`,
      `containers[0].resources.limits[attachable-volumes-aws-ebs]: Invalid value: "attachable-volumes-aws-ebs": ${STANDARD_CONTAINER}`,
    ]],
    ['Memory request limit multiple invalid', { limits: getResources('5', '3'), requests: getResources('5', '4') }, [
      'containers[0].resources.requests: Invalid value: "4": must be less than or equal to memory limit of 3',
    ]],
  ])('%s is refused with the API server\'s message', (_name, resources, expected) => {
    expect(containerErrors({ resources })).toEqual(expected);
  });

  test('the success case\'s resources are accepted: requests below limits, an extended resource at its limit, hugepages beside memory', () => {
    expect(containerErrors({
      resources: {
        limits: { 'cpu': '10', 'memory': '10G', 'my.org/resource': '10', 'hugepages-2Mi': '2Mi' },
        requests: { 'cpu': '9', 'memory': '9G', 'my.org/resource': '10' },
      },
    })).toEqual([]);
  });
});

describe('ValidateResourceRequirements (validation.go): requests against limits, with the canonical quantity the message quotes', () => {
  test.each([
    ['a cpu request above its limit, in another notation', { requests: { cpu: '1.5' }, limits: { cpu: '1' } }, [
      'containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1',
    ]],
    ['a memory request above its limit, binary against decimal', { requests: { memory: '0.5Gi' }, limits: { memory: '500M' } }, [
      'containers[0].resources.requests: Invalid value: "512Mi": must be less than or equal to memory limit of 500M',
    ]],
    ['the example of the message', { requests: { cpu: '2' }, limits: { cpu: '1' } }, [
      'containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]],
    ['an extended resource below its limit', { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '2' } }, [
      'containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
    ]],
    ['hugepages below their limit', { requests: { 'hugepages-2Mi': '2Mi', 'memory': '1Gi' }, limits: { 'hugepages-2Mi': '4Mi' } }, [
      'containers[0].resources.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi',
    ]],
    ['an extended resource requested without a limit', { requests: { 'example.com/foo': '1' } }, [
      'containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ]],
    ['hugepages without cpu or memory', { limits: { 'hugepages-2Mi': '2Mi' } }, ['containers[0].resources: Forbidden: HugePages require cpu or memory']],
  ])('%s is refused with the API server\'s message', (_name, resources, expected) => {
    expect(containerErrors({ resources })).toEqual(expected);
  });

  test.each([
    ['equal quantities in other notations', { requests: { cpu: '1000m', memory: '1Gi' }, limits: { cpu: '1', memory: '1024Mi' } }],
    ['a request without a limit of an overcommitable resource', { requests: { 'cpu': '100m', 'memory': '128Mi', 'ephemeral-storage': '1Gi' } }],
    ['an extended resource limited only (the request defaults to it)', { limits: { 'nvidia.com/gpu': 1 } }],
    ['a resource in kubernetes.io/', { requests: { 'kubernetes.io/foo': '2' }, limits: { 'kubernetes.io/foo': '3' } }],
    ['a quantity the API server cannot parse (the quantity-formats rule\'s)', { requests: { cpu: '2 cores' }, limits: { cpu: '1' } }],
    ['a null entry', { requests: { cpu: null }, limits: { cpu: '1' } }],
  ])('%s is accepted', (_name, resources) => {
    expect(containerErrors({ resources })).toEqual([]);
  });

  test('container resource names: a standard name, hugepages, an extended resource; not an unqualified other, nor a quota name', () => {
    const names = (limits: Record<string, string>) => containerErrors({ resources: { limits: { memory: '1Gi', ...limits } } });
    expect(names({ 'cpu': '1', 'ephemeral-storage': '1Gi', 'hugepages-1Gi': '1Gi', 'example.com/widget': '1' })).toEqual([]);
    expect(names({ CPU: '1' })).toEqual([
      `containers[0].resources.limits[CPU]: Invalid value: "CPU": ${STANDARD_TYPE}`,
      `containers[0].resources.limits[CPU]: Invalid value: "CPU": ${STANDARD_CONTAINER}`,
    ]);
    expect(names({ 'requests.cpu': '1' })).toEqual([`containers[0].resources.limits[requests.cpu]: Invalid value: "requests.cpu": ${STANDARD_CONTAINER}`]);
    expect(names({ 'example.com/requests.foo/bar': '1' })).toEqual([
      "containers[0].resources.limits[example.com/requests.foo/bar]: Invalid value: \"example.com/requests.foo/bar\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      "containers[0].resources.limits[example.com/requests.foo/bar]: Invalid value: \"example.com/requests.foo/bar\": doesn't follow extended resource name standard",
    ]);
  });
});

describe('TestRelaxedValidateEnv and TestValidateEnv: the fieldRef error cases', () => {
  const envErrors = (fieldRef: Record<string, unknown>) => containerErrors({ env: [{ name: 'abc', valueFrom: { fieldRef } }] })
    .map((e) => e.replace(/^containers\[0\]\.env/, 'field'));

  test.each([
    ['missing FieldPath on ObjectFieldSelector', { apiVersion: 'v1' }, ['field[0].valueFrom.fieldRef.fieldPath: Required value']],
    ['invalid fieldPath', { fieldPath: 'metadata.whoops', apiVersion: 'v1' }, [
      'field[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.whoops": error converting fieldPath: field label not supported: metadata.whoops',
    ]],
    ['metadata.name with subscript', { fieldPath: "metadata.name['key']", apiVersion: 'v1' }, [
      'field[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name[\'key\']": error converting fieldPath: field label does not support subscript: metadata.name[\'key\']',
    ]],
    ['metadata.labels without subscript', { fieldPath: 'metadata.labels', apiVersion: 'v1' }, [
      'field[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    ]],
    ['metadata.annotations without subscript', { fieldPath: 'metadata.annotations', apiVersion: 'v1' }, [
      'field[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.annotations": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    ]],
    ['metadata.annotations with invalid key', { fieldPath: "metadata.annotations['invalid~key']", apiVersion: 'v1' }, [
      "field[0].valueFrom.fieldRef: Invalid value: \"invalid~key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['metadata.labels with invalid key', { fieldPath: "metadata.labels['Www.k8s.io/test']", apiVersion: 'v1' }, [
      "field[0].valueFrom.fieldRef: Invalid value: \"Www.k8s.io/test\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['unsupported fieldPath', { fieldPath: 'status.phase', apiVersion: 'v1' }, [
      'field[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    ]],
    ['a pod version other than v1', { fieldPath: 'metadata.name', apiVersion: 'v2' }, [
      'field[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
    ]],
  ])('%s is refused with the API server\'s message', (_name, fieldRef, expected) => {
    expect(envErrors(fieldRef)).toEqual(expected);
  });

  test('the success cases are accepted, and missing APIVersion on ObjectFieldSelector is defaulted to v1 before validation', () => {
    for (const fieldPath of [
      "metadata.annotations['key']", "metadata.labels['key']", 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
      'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs', 'spec.host', "metadata.annotations['Example.com/Key']",
    ]) {
      expect(envErrors({ apiVersion: 'v1', fieldPath })).toEqual([]);
    }
    expect(envErrors({ fieldPath: 'metadata.name' })).toEqual([]);
  });
});

describe('TestLocalStorageEnvWithFeatureGate, TestHugePagesEnv and validateContainerResourceFieldSelector: resourceFieldRef', () => {
  const envErrors = (resourceFieldRef: Record<string, unknown>) => containerErrors({ env: [{ name: 'abc', valueFrom: { resourceFieldRef } }] })
    .map((e) => e.replace(/^containers\[0\]\.env/, 'field'));

  test('the success cases are accepted, with the divisors each resource takes (compared by their canonical text)', () => {
    for (const resource of ['limits.ephemeral-storage', 'requests.ephemeral-storage', 'limits.hugepages-2Mi', 'requests.hugepages-2Mi', 'limits.cpu', 'requests.memory']) {
      expect(envErrors({ containerName: 'test-container', resource })).toEqual([]);
    }
    expect(envErrors({ resource: 'limits.cpu', divisor: '1m' })).toEqual([]);
    expect(envErrors({ resource: 'limits.cpu', divisor: '1000m' })).toEqual([]);
    expect(envErrors({ resource: 'limits.memory', divisor: '1Mi' })).toEqual([]);
    expect(envErrors({ resource: 'limits.memory', divisor: '1024Ki' })).toEqual([]);
    expect(envErrors({ resource: 'limits.memory', divisor: '0' })).toEqual([]);
  });

  test.each([
    ['no resource', {}, ['field[0].valueFrom.resourceFieldRef.resource: Required value']],
    ['an unsupported resource', { resource: 'limits.nvidia.com/gpu' }, [
      'field[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.nvidia.com/gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
    ]],
    ['a cpu divisor other than 1m and 1', { resource: 'limits.cpu', divisor: '10m' }, [
      'field[0].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
    ]],
    ['a memory divisor of no unit', { resource: 'requests.memory', divisor: '2Mi' }, [
      'field[0].valueFrom.resourceFieldRef.divisor: Invalid value: "requests.memory": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource',
    ]],
  ])('%s is refused with the API server\'s message', (_name, ref, expected) => {
    expect(envErrors(ref)).toEqual(expected);
  });
});

describe('TestValidateMountPropagation', () => {
  const volumes = [{ name: 'foo', hostPath: { path: '/foo/baz' } }];
  const privileged = { securityContext: { privileged: true } };
  const nonPrivileged = { securityContext: { privileged: false } };
  const mount = (mountPropagation?: string) => ({ volumeMounts: [{ name: 'foo', mountPath: '/foo', ...(mountPropagation ? { mountPropagation } : {}) }] });
  const forbidden = 'containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers';

  test.each([
    ['implicitly non-privileged container + no propagation', {}, undefined, []],
    ['implicitly non-privileged container + HostToContainer', {}, 'HostToContainer', []],
    ['non-privileged container + None', {}, 'None', []],
    ['error: implicitly non-privileged container + Bidirectional', {}, 'Bidirectional', [forbidden]],
    ['explicitly non-privileged container + no propagation', nonPrivileged, undefined, []],
    ['explicitly non-privileged container + HostToContainer', nonPrivileged, 'HostToContainer', []],
    ['explicitly non-privileged container + Bidirectional', nonPrivileged, 'Bidirectional', [forbidden]],
    ['privileged container + no propagation', privileged, undefined, []],
    ['privileged container + HostToContainer', privileged, 'HostToContainer', []],
    ['privileged container + Bidirectional', privileged, 'Bidirectional', []],
    ['error: privileged container + invalid mount propagation', privileged, 'invalid', [
      'containers[0].volumeMounts.mountPropagation: Unsupported value: "invalid": supported values: "Bidirectional", "HostToContainer", "None"',
    ]],
  ])('%s', (_name, container, propagation, expected) => {
    expect(containerErrors({ ...container, ...mount(propagation) }, volumes)).toEqual(expected);
  });
});

describe('properties: what the grammar makes valid gives no error, and nothing crashes', () => {
  const unit = fc.constantFrom('', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e3');
  /** `x` thousandths as a decimal text: 1500 is `1.500`. */
  const milli = (x: number) => `${Math.floor(x / 1000)}.${String(x % 1000).padStart(3, '0')}`;
  /** Two quantity texts of one unit, the second larger by `d` thousandths of it (so at least as large, by construction), and `d`. */
  const ordered = fc.tuple(fc.nat(10 ** 8), fc.nat(10 ** 6), unit).map(([a, d, u]) => [`${milli(a)}${u}`, `${milli(a + d)}${u}`, d, u] as const);
  const standard = fc.constantFrom('cpu', 'memory', 'ephemeral-storage');
  const extended = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,8}(\.[a-z]{2,5}){1,2}$/), fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?$/))
    .map(([domain, name]) => `${domain}/${name}`)
    .filter((n) => !n.includes('kubernetes.io/'));

  test('requests at most their limits, extended resources equal to theirs, cpu or memory beside hugepages', () => {
    fc.assert(fc.property(fc.array(fc.tuple(standard, ordered)), fc.array(fc.tuple(extended, fc.nat(64))), (standards, extendeds) => {
      const requests: Record<string, unknown> = {};
      const limits: Record<string, unknown> = { memory: '64Gi' };
      for (const [name, [low, high]] of standards) {
        requests[name] = low;
        limits[name] = high;
      }
      if (!('memory' in requests)) requests.memory = '1Mi';
      for (const [name, n] of extendeds) {
        requests[name] = String(n);
        limits[name] = n;
      }
      limits['hugepages-2Mi'] = '4Mi';
      expect(containerErrors({ resources: { requests, limits } })).toEqual([]);
    }));
  });

  test('a request is refused exactly when it exceeds its limit, and the message quotes both as String() prints them', () => {
    fc.assert(fc.property(ordered, fc.boolean(), ([low, high, d, u], swap) => {
      const [request, limit] = swap ? [high, low] : [low, high];
      const errors = containerErrors({ resources: { requests: { cpu: request }, limits: { cpu: limit } } });
      // SetDefaults_ResourceList rounds both up to whole millis first: thousandths of a milli can round to one value
      const exceeds = u === 'm' ? Math.ceil(Number(high.slice(0, -1))) > Math.ceil(Number(low.slice(0, -1))) : d > 0;
      expect(errors).toHaveLength(swap && exceeds ? 1 : 0);
      for (const e of errors) expect(e).toMatch(/^containers\[0\]\.resources\.requests: Invalid value: "[^"]+": must be less than or equal to cpu limit of \S+$/);
    }));
  });

  test('the env fieldRef paths and resourceFieldRef resources the API server takes, and a mount propagation of a privileged container', () => {
    const fieldPath = fc.oneof(
      fc.constantFrom('metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'),
      fc.tuple(fc.constantFrom('labels', 'annotations'), fc.stringMatching(/^[a-z0-9]([-a-z0-9_.]{0,30}[a-z0-9])?$/)).map(([m, k]) => `metadata.${m}['${k}']`),
    );
    const resource = fc.oneof(
      fc.constantFrom('limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage'),
      fc.constantFrom('limits.hugepages-', 'requests.hugepages-').chain((p) => fc.constantFrom('2Mi', '1Gi').map((s) => `${p}${s}`)),
    );
    const propagation = fc.constantFrom('None', 'HostToContainer', 'Bidirectional');
    fc.assert(fc.property(fieldPath, resource, propagation, (path, r, p) => {
      const errors = containerErrors({
        env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: path } } }, { name: 'B', valueFrom: { resourceFieldRef: { resource: r, divisor: r.includes('cpu') ? '1m' : '1Mi' } } }],
        volumeMounts: [{ name: 'foo', mountPath: '/foo', mountPropagation: p }],
        securityContext: { privileged: true },
      }, [{ name: 'foo', emptyDir: {} }]);
      expect(errors).toEqual([]);
    }));
  });

  test('any JSON in resources, env and mounts gives errors or none, but never a crash', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(fc.property(json, json, json, (resources, env, mounts) => {
      expect(() => podSpecErrors({ spec: { containers: [{ name: 'a', image: 'b', resources, env, volumeMounts: mounts }] } }, { at: ['spec'], isPod: true })).not.toThrow();
      expect(() => podSpecErrors({ spec: { containers: [{ name: 'a', image: 'b', resources: { limits: resources, requests: env }, env: [{ name: 'x', valueFrom: { fieldRef: mounts, resourceFieldRef: env } }] }] } }, { at: ['spec'], isPod: true })).not.toThrow();
    }));
  });
});
