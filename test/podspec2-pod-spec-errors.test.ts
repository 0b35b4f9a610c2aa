import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';
import { defaultedResourceQuantity, exactQuantity, goQuantityValue, quantityString } from '../src/private/quantity-canonical';

/*
 * The checks the pod spec port gained: whole extended resources, whole hugepages, the resource lists' rounding to the
 * milli scale, and the files of secret, configMap, downwardAPI and projected volumes.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (`ValidateResourceQuantityValue`,
 * `validateResourceQuantityHugePageValue`, `validateDownwardAPIVolumeFile`, `validateObjectFieldSelector` with
 * `validVolumeDownwardAPIFieldPathExpressions`, `validateContainerResourceFieldSelector` with `volume`,
 * `validateKeyToPath`, `validateProjectionSources`) at the commit `pod-spec-errors.ts` names,
 * `pkg/apis/core/helper/helpers.go` (`IsIntegerResourceName`, `IsHugePageResourceValueDivisible`) and
 * `pkg/apis/core/v1/defaults.go` (`SetDefaults_ResourceList`: `val.RoundUp(-3)`), with k8s.io/apimachinery v0.30.14's
 * `resource.Quantity` (its `%#v`: fields i, d, s, Format) and `field.Error`. The Go tests of validation_test.go assert
 * only the error type and field of these; the cases named after them are theirs, the exact texts follow the code.
 */

/** The API server's errors for a Pod of `spec`, as `field.Error.Error()` prints them. */
function podErrors(spec: unknown): string[] {
  return podSpecErrors({ spec }, { at: ['spec'], isPod: true }).map(apiServerText);
}

/** The errors of a Pod of one container with `resources`, named from `containers`. */
function resourceErrors(resources: unknown): string[] {
  return podErrors({ containers: [{ name: 'abc-123', image: 'image', resources }] }).map((e) => e.replace(/^spec\./, ''));
}

/** The errors of a Pod of one container and `volumes`, named from `volumes`. */
function volumeErrors(...volumes: unknown[]): string[] {
  return podErrors({ containers: [{ name: 'abc-123', image: 'image' }], volumes }).map((e) => e.replace(/^spec\./, ''));
}

describe('ValidateResourceQuantityValue: an extended resource is a whole number (IsIntegerResourceName)', () => {
  test.each([
    ['a fraction', '1.5', 'resource.Quantity{i:resource.int64Amount{value:15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}'],
    ['milli units, whose text ParseQuantity keeps', '500m', 'resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}'],
    ['a JSON number', 0.5, 'resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}'],
    ['a fraction finer than milli, rounded up to 1001m before validation', '1.0001', 'resource.Quantity{i:resource.int64Amount{value:1001, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}'],
  ])('%s is refused, the quantity printed as Go\'s %%#v prints the struct', (_name, value, dump) => {
    expect(resourceErrors({ limits: { 'example.com/foo': value } })).toEqual([`containers[0].resources.limits[example.com/foo]: Invalid value: ${dump}: must be an integer`]);
  });

  test.each([
    ['a whole number', '2'], ['a whole number in milli units', '2000m'], ['a binary quantity that is whole', '1.5Ki'], ['zero', '0'], ['an exponent', '1e3'],
  ])('%s is accepted', (_name, value) => {
    expect(resourceErrors({ limits: { 'example.com/foo': value } })).toEqual([]);
  });

  test('a native resource may be a fraction: cpu, memory, ephemeral-storage and a kubernetes.io/ resource', () => {
    expect(resourceErrors({ limits: { 'cpu': '0.5', 'memory': '1.5', 'ephemeral-storage': '0.5', 'kubernetes.io/foo': '0.5' } })).toEqual([]);
  });

  test('a request and its limit are each refused, and equal after rounding they are no request-limit error', () => {
    const dump = 'resource.Quantity{i:resource.int64Amount{value:1001, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}';
    expect(resourceErrors({ requests: { 'example.com/x': '1.0001' }, limits: { 'example.com/x': '1.0002' } })).toEqual([
      `containers[0].resources.limits[example.com/x]: Invalid value: ${dump}: must be an integer`,
      `containers[0].resources.requests[example.com/x]: Invalid value: ${dump}: must be an integer`,
    ]);
  });

  test('a value ParseQuantity holds as an inf.Dec prints its pointer, known only in the API server, as a placeholder', () => {
    expect(goQuantityValue(defaultedResourceQuantity('1.0000000000000000001')!)).toBe(
      'resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(0xc000000000)}, s:"", Format:"DecimalSI"}',
    );
  });
});

describe('SetDefaults_ResourceList: quantities are rounded up to the milli scale before they are compared and printed', () => {
  test('a request finer than milli is compared and quoted as its rounded value', () => {
    expect(resourceErrors({ requests: { cpu: '1.0001' }, limits: { cpu: '1' } })).toEqual([
      'containers[0].resources.requests: Invalid value: "1001m": must be less than or equal to cpu limit of 1',
    ]);
  });

  test('an extended resource whose request and limit differ below a milli is equal after rounding (only the fraction is refused)', () => {
    expect(resourceErrors({ requests: { 'example.com/x': '2' }, limits: { 'example.com/x': '2' } })).toEqual([]);
    expect(resourceErrors({ requests: { cpu: '0.0001' }, limits: { cpu: '0.0004' } })).toEqual([]);
  });

  test('RoundUp rounds away from zero and drops the kept text only when it rounds', () => {
    expect(quantityString(defaultedResourceQuantity('-0.0001')!)).toBe('-1m');
    expect(quantityString(defaultedResourceQuantity('100m')!)).toBe('100m');
    expect(defaultedResourceQuantity('1.5')).toBe(exactQuantity('1.5'));
    expect(quantityString(defaultedResourceQuantity('1n')!)).toBe('1m');
  });
});

describe('validateResourceQuantityHugePageValue: hugepages are whole pages (IsHugePageResourceValueDivisible)', () => {
  test('a limit and a request that are no multiple of the page size are each refused, quoting the quantity\'s String()', () => {
    expect(resourceErrors({ limits: { 'memory': '1Gi', 'hugepages-2Mi': '3Mi' }, requests: { 'hugepages-2Mi': '3Mi' } })).toEqual([
      'containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
      'containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ]);
  });

  test('the quantity is printed canonical: 1.5Gi of 1Gi pages is 1536Mi', () => {
    expect(resourceErrors({ limits: { 'memory': '1Gi', 'hugepages-1Gi': '1.5Gi' } })).toEqual([
      'containers[0].resources.limits[hugepages-1Gi]: Invalid value: "1536Mi": 1536Mi is not positive integer multiple of hugepages-1Gi',
    ]);
  });

  test('a page size that is no quantity divides nothing', () => {
    expect(resourceErrors({ limits: { 'memory': '1Gi', 'hugepages-big': '1Gi' } })).toEqual([
      'containers[0].resources.limits[hugepages-big]: Invalid value: "1Gi": 1Gi is not positive integer multiple of hugepages-big',
    ]);
  });

  test('the request after the request-limit error, as the API server orders them', () => {
    expect(resourceErrors({ limits: { 'memory': '1Gi', 'hugepages-2Mi': '4Mi' }, requests: { 'hugepages-2Mi': '3Mi' } })).toEqual([
      'containers[0].resources.requests: Invalid value: "3Mi": must be equal to hugepages-2Mi limit of 4Mi',
      'containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ]);
  });

  test('TestValidateResourceRequirements\' success cases: whole pages, in any notation, and zero', () => {
    expect(resourceErrors({ limits: { 'cpu': '10', 'hugepages-2Mi': '2Mi' }, requests: { 'cpu': '10', 'hugepages-2Mi': '2Mi' } })).toEqual([]);
    expect(resourceErrors({ limits: { 'memory': '1Gi', 'hugepages-2Mi': '4194304', 'hugepages-1Gi': '2Gi', 'hugepages-64Ki': 0 } })).toEqual([]);
  });
});

describe('validateDownwardAPIVolumeFile: the files of a downwardAPI volume', () => {
  const volume = (items: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'info', downwardAPI: { items, ...extra } });

  test('a fieldRef reads fewer paths than an env var\'s (validVolumeDownwardAPIFieldPathExpressions); errors name the source, not the item', () => {
    expect(volumeErrors(volume([{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }]))).toEqual([
      'volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
    ]);
  });

  test('labels and annotations whole or by key, the name, namespace and uid are accepted', () => {
    const items = ['metadata.labels', 'metadata.annotations', "metadata.labels['app']", "metadata.annotations['example.com/x']", 'metadata.name', 'metadata.namespace', 'metadata.uid']
      .map((fieldPath, i) => ({ path: `f${i}`, fieldRef: { fieldPath } }));
    expect(volumeErrors(volume(items))).toEqual([]);
  });

  test('a resourceFieldRef must name its container; without one its resource is not checked, its divisor is', () => {
    expect(volumeErrors(volume([{ path: 'cpu', resourceFieldRef: { resource: 'limits.gpu' } }]))).toEqual([
      'volumes[0].downwardAPI.resourceFieldRef.containerName: Required value',
    ]);
    expect(volumeErrors(volume([{ path: 'cpu', resourceFieldRef: { resource: 'limits.cpu', divisor: '10m' } }]))).toEqual([
      'volumes[0].downwardAPI.resourceFieldRef.containerName: Required value',
      "volumes[0].downwardAPI.resourceFieldRef.divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource",
    ]);
    expect(volumeErrors(volume([{ path: 'cpu', resourceFieldRef: { containerName: 'abc-123', resource: 'limits.cpu', divisor: '10m' } }]))).toEqual([
      "volumes[0].downwardAPI.resourceFieldRef.divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource",
    ]);
    expect(volumeErrors(volume([{ path: 'cpu', resourceFieldRef: { containerName: 'abc-123', resource: 'limits.cpu', divisor: '1m' } }]))).toEqual([]);
  });

  test('a file without a source, an absolute or backstepping path, and a mode past 0777', () => {
    expect(volumeErrors(volume([{ path: '/etc/labels' }, { path: '../x', fieldRef: { fieldPath: 'metadata.name' } }, { path: '..x', mode: 0o1000, fieldRef: { fieldPath: 'metadata.name' } }], { defaultMode: 644 }))).toEqual([
      'volumes[0].downwardAPI.defaultMode: Invalid value: 644: must be a number between 0 and 0777 (octal), both inclusive',
      'volumes[0].downwardAPI.path: Invalid value: "/etc/labels": must be a relative path',
      'volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
      'volumes[0].downwardAPI.path: Invalid value: "../x": must not contain \'..\'',
      'volumes[0].downwardAPI.path: Invalid value: "..x": must not start with \'..\'',
      'volumes[0].downwardAPI.mode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
    ]);
  });

  test('a missing path', () => {
    expect(volumeErrors(volume([{ fieldRef: { fieldPath: 'metadata.name' } }]))).toEqual(['volumes[0].downwardAPI.path: Required value']);
  });
});

describe('validateSecretVolumeSource, validateConfigMapVolumeSource, validateKeyToPath', () => {
  test('a secret volume without secretName, a configMap volume without name, an item without key or path', () => {
    expect(volumeErrors({ name: 's', secret: { items: [{ key: 'k', path: '/abs' }] } }, { name: 'c', configMap: { items: [{}], defaultMode: 0o777 } })).toEqual([
      'volumes[0].secret.secretName: Required value',
      'volumes[0].secret.items[0].path: Invalid value: "/abs": must be a relative path',
      'volumes[1].configMap.name: Required value',
      'volumes[1].configMap.items[0].key: Required value',
      'volumes[1].configMap.items[0].path: Required value',
    ]);
  });

  test('what cdk8s-plus writes is accepted: a named source, modes 0644 and 0400, relative paths', () => {
    expect(volumeErrors(
      { name: 's', secret: { secretName: 'db', defaultMode: 0o644, items: [{ key: 'password', path: 'db/password', mode: 0o400 }] } },
      { name: 'c', configMap: { name: 'app', items: [{ key: 'a.yaml', path: 'a.yaml' }] } },
    )).toEqual([]);
  });
});

describe('validateProjectionSources: the files of a projected volume', () => {
  test('two sources projecting one path, a downwardAPI file\'s errors named from its source, a short token lifetime, a token without path', () => {
    expect(volumeErrors({
      name: 'p',
      projected: {
        sources: [
          { downwardAPI: { items: [{ path: 'info', fieldRef: { fieldPath: 'status.podIP' } }] } },
          { configMap: { name: 'app', items: [{ key: 'k', path: 'info' }] } },
          { serviceAccountToken: { expirationSeconds: 60 } },
        ],
      },
    })).toEqual([
      'volumes[0].projected.sources[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "status.podIP": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      'volumes[0].projected: Invalid value: "app": conflicting duplicate paths',
      'volumes[0].projected.sources[2].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'volumes[0].projected.path: Required value',
    ]);
  });

  test('the projected volume a bound service account token mounts is accepted (the expiration defaulted to 3600)', () => {
    expect(volumeErrors({
      name: 'kube-api-access',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
      },
    })).toEqual([]);
  });
});

describe('resources.claims and recursiveReadOnly are left alone: the 1.30 API server drops them (their gates are alpha and off)', () => {
  test('a claim no resourceClaims entry names, and a recursiveReadOnly mount that is not read-only, give no error', () => {
    expect(podErrors({
      containers: [{ name: 'a', image: 'i', resources: { claims: [{ name: 'gpu' }] }, volumeMounts: [{ name: 'v', mountPath: '/v', recursiveReadOnly: 'Enabled' }] }],
      volumes: [{ name: 'v', emptyDir: {} }],
    })).toEqual([]);
  });
});
