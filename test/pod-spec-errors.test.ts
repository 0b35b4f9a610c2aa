import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * The cases of Kubernetes' own tests of pod spec validation, ported as tables: each Go success case must give no
 * error, each Go error case this port covers the API server's exact text (`field.Error.Error()`).
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation_test.go` at commit
 * 000f26050b9be6fb3d79fae95e06b47fc96128cd (the copy the index holds; its cases of these functions are those of the
 * 1.30 line, apart from the image volume source of 1.31, left out), functions named above each table. The messages
 * are k8s.io/apimachinery v0.30.14's. The Go tests call the internal validators on internal types without the
 * API server's defaulting; a manifest is defaulted first (`SetDefaults_ContainerPort`: protocol TCP;
 * `SetDefaults_Container`: imagePullPolicy, terminationMessagePolicy; `SetDefaults_HTTPGetAction`: path "/"), so
 * the cases that only the missing default makes fail are ported as accepted, and said so.
 */

/** The API server's errors for a Pod of `spec`, as `field.Error.Error()` prints them. */
function podErrors(spec: unknown, isPod = true): string[] {
  return podSpecErrors({ spec }, { at: ['spec'], isPod }).map(apiServerText);
}

/** The errors under `prefix`, named from `field` as the Go test's `field.NewPath("field")` names them. */
function under(errors: readonly string[], prefix: string, as = 'field'): string[] {
  return errors.filter((e) => e.startsWith(prefix)).map((e) => as + e.slice(prefix.length));
}

const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const ENV_NAME = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

describe('TestValidatePorts', () => {
  const portErrors = (ports: unknown[]) => under(podErrors({ containers: [{ name: 'ctr', image: 'image', ports }] }), 'spec.containers[0].ports');

  test('the success cases are accepted', () => {
    expect(portErrors([
      { name: 'abc', containerPort: 80, hostPort: 80, protocol: 'TCP' },
      { name: 'easy', containerPort: 82, protocol: 'TCP' },
      { name: 'as', containerPort: 83, protocol: 'UDP' },
      { name: 'do-re-me', containerPort: 84, protocol: 'SCTP' },
      { containerPort: 85, protocol: 'TCP' },
    ])).toEqual([]);
    expect(portErrors([{ containerPort: 80, protocol: 'TCP' }])).toEqual([]); // nonCanonicalCase
  });

  test.each([
    ['name > 15 characters', [{ name: 'a'.repeat(16), containerPort: 80, protocol: 'TCP' }], ['field[0].name: Invalid value: "aaaaaaaaaaaaaaaa": must be no more than 15 characters']],
    ['name contains invalid characters', [{ name: 'a.b.c', containerPort: 80, protocol: 'TCP' }], ['field[0].name: Invalid value: "a.b.c": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
    ['name is a number', [{ name: '80', containerPort: 80, protocol: 'TCP' }], ['field[0].name: Invalid value: "80": must contain at least one letter (a-z)']],
    ['name not unique', [{ name: 'abc', containerPort: 80, protocol: 'TCP' }, { name: 'abc', containerPort: 81, protocol: 'TCP' }], ['field[1].name: Duplicate value: "abc"']],
    ['zero container port', [{ containerPort: 0, protocol: 'TCP' }], ['field[0].containerPort: Required value']],
    ['invalid container port', [{ containerPort: 65536, protocol: 'TCP' }], ['field[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive']],
    ['invalid host port', [{ containerPort: 80, hostPort: 65536, protocol: 'TCP' }], ['field[0].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive']],
    ['invalid protocol case', [{ containerPort: 80, protocol: 'tcp' }], ['field[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"']],
    ['invalid protocol', [{ containerPort: 80, protocol: 'ICMP' }], ['field[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']],
  ])('%s is refused with the API server\'s message', (_name, ports, expected) => {
    expect(portErrors(ports)).toEqual(expected);
  });

  test('protocol required: a manifest\'s port without protocol is defaulted to TCP before validation, so it is accepted', () => {
    expect(portErrors([{ name: 'abc', containerPort: 80 }])).toEqual([]);
  });
});

describe('TestValidateEnv (names as 1.30 checks them: RelaxedEnvironmentVariableValidation is alpha and off)', () => {
  const envErrors = (env: unknown[]) => under(podErrors({ containers: [{ name: 'ctr', image: 'image', env }] }), 'spec.containers[0].env');

  test('the success cases are accepted', () => {
    expect(envErrors([
      { name: 'abc', value: 'value' },
      { name: 'ABC', value: 'value' },
      { name: 'AbC_123', value: 'value' },
      { name: 'abc', value: '' },
      { name: 'a.b.c', value: 'value' },
      { name: 'a-b-c', value: 'value' },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['key']" } } },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['key']" } } },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIPs' } } },
      { name: 'secret_value', valueFrom: { secretKeyRef: { name: 'some-secret', key: 'secret-key' } } },
      { name: 'ENV_VAR_1', valueFrom: { configMapKeyRef: { name: 'some-config-map', key: 'some-key' } } },
    ])).toEqual([]);
  });

  // updateErrorCase: the names that only the relaxed rule takes (the Go test asserts that each error contains its expectedError)
  test.each([
    ['invalid name a', '!"#$%&\'()', 'field[0].name: Invalid value: "!\\"#$%&\'()": a valid environment variable name must consist of'],
    ['invalid name b', '* +,-./0123456789', 'field[0].name: Invalid value: "* +,-./0123456789": a valid environment variable name must consist of'],
    ['invalid name c', ':;<>?@', 'field[0].name: Invalid value: ":;<>?@": a valid environment variable name must consist of'],
    ['invalid name d', '[\\]^_{}|~', 'field[0].name: Invalid value: "[\\\\]^_{}|~": a valid environment variable name must consist of'],
  ])('%s is refused with the API server\'s message', (_name, name, goExpected) => {
    const errors = envErrors([{ name, value: 'value' }]);
    expect(errors).toEqual([`field[0].name: Invalid value: ${JSON.stringify(name)}: ${ENV_NAME}`]);
    expect(errors[0]).toContain(goExpected);
  });

  test.each([
    ['zero-length name', [{ name: '' }], ['field[0].name: Required value']],
    ['valueFrom without a source', [{ name: 'abc', valueFrom: {} }], ['field[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`']],
  ])('%s is refused with the API server\'s message', (_name, env, expected) => {
    expect(envErrors(env)).toEqual(expected);
  });

  test('value beside valueFrom, and two sources of valueFrom, are left to the merged-contradictions rule, which refuses them', () => {
    expect(envErrors([{ name: 'abc', value: 'foo', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }])).toEqual([]);
  });
});

describe('TestValidateEnvFrom', () => {
  const envFromErrors = (envFrom: unknown[]) => under(podErrors({ containers: [{ name: 'ctr', image: 'image', envFrom }] }), 'spec.containers[0].envFrom');

  test('the success cases with names 1.30 takes are accepted', () => {
    expect(envFromErrors([
      { configMapRef: { name: 'abc' } },
      { prefix: 'pre_', configMapRef: { name: 'abc' } },
      { prefix: 'a.b', configMapRef: { name: 'abc' } },
      { secretRef: { name: 'abc' } },
      { prefix: 'pre_', secretRef: { name: 'abc' } },
    ])).toEqual([]);
  });

  test.each([
    ['no refs', [{}], ['field: Invalid value: "": must specify one of: `configMapRef` or `secretRef`']],
    // the Go case runs with relaxed names; 1.30's default refuses "=abc" with the strict rule's message
    ['invalid prefix', [{ prefix: '=abc', configMapRef: { name: 'abc' } }], [`field[0].prefix: Invalid value: "=abc": ${ENV_NAME}`]],
  ])('%s is refused with the API server\'s message', (_name, envFrom, expected) => {
    expect(envFromErrors(envFrom)).toEqual(expected);
  });
});

describe('TestValidateVolumeMounts', () => {
  const volumes = [
    { name: 'abc', persistentVolumeClaim: { claimName: 'testclaim1' } },
    { name: 'abc-123', persistentVolumeClaim: { claimName: 'testclaim2' } },
    { name: '123', hostPath: { path: '/foo/baz', type: '' } },
    { name: 'ephemeral', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10G' } } } } } },
  ];
  const mountErrors = (volumeMounts: unknown[], volumeDevices: unknown[]) =>
    under(podErrors({ volumes, containers: [{ name: 'ctr', image: 'image', volumeMounts, volumeDevices }] }), 'spec.containers[0].volumeMounts');

  test('the volumes are valid, and the success mounts are accepted', () => {
    expect(podErrors({ volumes, containers: [{ name: 'ctr', image: 'image' }] })).toEqual([]);
    expect(mountErrors([
      { name: 'abc', mountPath: '/foo' },
      { name: '123', mountPath: '/bar' },
      { name: 'abc-123', mountPath: '/baz' },
      { name: 'abc-123', mountPath: '/baa', subPath: '' },
      { name: 'abc-123', mountPath: '/bab', subPath: 'baz' },
      { name: 'abc-123', mountPath: 'd:', subPath: '' },
      { name: 'abc-123', mountPath: 'F:', subPath: '' },
      { name: 'abc-123', mountPath: 'G:\\mount', subPath: '' },
      { name: 'abc-123', mountPath: '/bac', subPath: '.baz' },
      { name: 'abc-123', mountPath: '/bad', subPath: '..baz' },
      { name: 'ephemeral', mountPath: '/foobar' },
      // recursiveReadOnly is behind RecursiveReadOnlyMounts, alpha and off in 1.30 (the API server drops the field)
      { name: '123', mountPath: '/rro-nil', readOnly: true },
      { name: '123', mountPath: '/rro-disabled', readOnly: true, recursiveReadOnly: 'Disabled' },
    ], [{ name: 'xyz', devicePath: '/foofoo' }, { name: 'uvw', devicePath: '/foofoo/share/test' }])).toEqual([]);
  });

  const badDevices = [{ name: 'xyz', devicePath: '/mnt/exists' }];
  test.each([
    ['empty name', [{ name: '', mountPath: '/foo' }], ['field[0].name: Required value', 'field[0].name: Not found: ""']],
    ['empty mountpath', [{ name: 'abc', mountPath: '' }], ['field[0].mountPath: Required value']],
    ['absolute subpath', [{ name: 'abc', mountPath: '/bar', subPath: '/baz' }], ['field.subPath: Invalid value: "/baz": must be a relative path']],
    ['subpath in ..', [{ name: 'abc', mountPath: '/bar', subPath: '../baz' }], ['field.subPath: Invalid value: "../baz": must not contain \'..\'']],
    ['subpath contains ..', [{ name: 'abc', mountPath: '/bar', subPath: 'baz/../bat' }], ['field.subPath: Invalid value: "baz/../bat": must not contain \'..\'']],
    ['subpath ends in ..', [{ name: 'abc', mountPath: '/bar', subPath: './..' }], ['field.subPath: Invalid value: "./..": must not contain \'..\'']],
    ['name exists in volumeDevice', [{ name: 'xyz', mountPath: '/bar' }], ['field[0].name: Not found: "xyz"', 'field[0].name: Invalid value: "xyz": must not already exist in volumeDevices']],
    ['mountpath exists in volumeDevice', [{ name: 'uvw', mountPath: '/mnt/exists' }], ['field[0].name: Not found: "uvw"', 'field[0].mountPath: Invalid value: "/mnt/exists": must not already exist as a path in volumeDevices']],
    ['both exist in volumeDevice', [{ name: 'xyz', mountPath: '/mnt/exists' }], [
      'field[0].name: Not found: "xyz"',
      'field[0].name: Invalid value: "xyz": must not already exist in volumeDevices',
      'field[0].mountPath: Invalid value: "/mnt/exists": must not already exist as a path in volumeDevices',
    ]],
  ])('%s is refused with the API server\'s message', (_name, mounts, expected) => {
    expect(mountErrors(mounts, badDevices)).toEqual(expected);
  });

  test('mountpath collision is a duplicate key of server-side apply (volumeMounts are keyed by mountPath), the merged-contradictions rule\'s', () => {
    expect(mountErrors([{ name: 'abc', mountPath: '/path/a' }, { name: 'abc-123', mountPath: '/path/a' }], [])).toEqual([]);
  });

  // TestValidateSubpathMutuallyExclusive
  test('subPath beside subPathExpr is refused; either alone is accepted', () => {
    expect(mountErrors([{ name: 'abc-123', mountPath: '/bab', subPathExpr: '$(POD_NAME)' }], [])).toEqual([]);
    expect(mountErrors([{ name: 'abc-123', mountPath: '/bab', subPath: 'baz' }], [])).toEqual([]);
    expect(mountErrors([{ name: 'abc-123', mountPath: '/bab', subPath: 'baz', subPathExpr: '$(POD_NAME)' }], []))
      .toEqual(['field[0].subPathExpr: Invalid value: "$(POD_NAME)": subPathExpr and subPath are mutually exclusive']);
  });

  // validatePathNoBacksteps splits `filepath.ToSlash(targetPath)` on '/': on the Linux API server ToSlash changes
  // nothing, so a backslash is part of a name, and `a\..\b` holds no '..' element (validation.go, v1.30).
  test('a backslash is no separator to the API server: a\\..\\b is accepted as a subPath and a devicePath', () => {
    expect(mountErrors([{ name: 'abc-123', mountPath: '/bab', subPath: 'a\\..\\b' }], [])).toEqual([]);
    expect(under(podErrors({
      volumes: [{ name: 'abc', persistentVolumeClaim: { claimName: 'c' } }],
      containers: [{ name: 'ctr', image: 'image', volumeDevices: [{ name: 'abc', devicePath: 'dev\\..\\sda' }] }],
    }), 'spec.containers[0].volumeDevices')).toEqual([]);
  });
});

describe('TestAlphaValidateVolumeDevices', () => {
  const volumes = [
    { name: 'abc', persistentVolumeClaim: { claimName: 'testclaim1' } },
    { name: 'abc-123', persistentVolumeClaim: { claimName: 'testclaim2' } },
    { name: 'def', hostPath: { path: '/foo/baz', type: '' } },
    { name: 'ephemeral', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10G' } } } } } },
  ];
  const deviceErrors = (volumeDevices: unknown[], volumeMounts: unknown[]) =>
    under(podErrors({ volumes, containers: [{ name: 'ctr', image: 'image', volumeMounts, volumeDevices }] }), 'spec.containers[0].volumeDevices');
  const goodMounts = [{ name: 'xyz', mountPath: '/foofoo' }, { name: 'ghi', mountPath: '/foo/usr/share/test' }];
  const badMounts = [{ name: 'abc', mountPath: '/foo' }, { name: 'abc-123', mountPath: '/this/path/exists' }];

  test('the success cases are accepted', () => {
    expect(deviceErrors([{ name: 'abc', devicePath: '/foo' }, { name: 'abc-123', devicePath: '/usr/share/test' }, { name: 'ephemeral', devicePath: '/disk' }], goodMounts)).toEqual([]);
  });

  test.each([
    ['empty name', [{ name: '', devicePath: '/foo' }], ['field[0].name: Required value', 'field[0].name: Not found: ""', 'field[0].devicePath: Invalid value: "/foo": must not already exist as a path in volumeMounts']],
    ['duplicate name', [{ name: 'abc', devicePath: '/foo' }, { name: 'abc', devicePath: '/foo/bar' }], [
      'field[0].name: Invalid value: "abc": must not already exist in volumeMounts',
      'field[0].devicePath: Invalid value: "/foo": must not already exist as a path in volumeMounts',
      'field[1].name: Invalid value: "abc": must be unique',
      'field[1].name: Invalid value: "abc": must not already exist in volumeMounts',
    ]],
    ['name not found', [{ name: 'not-found', devicePath: '/usr/share/test' }], ['field[0].name: Not found: "not-found"']],
    ['name found but invalid source', [{ name: 'def', devicePath: '/usr/share/test' }], ['field[0].name: Invalid value: "def": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode']],
    ['empty devicepath', [{ name: 'abc', devicePath: '' }], ['field[0].devicePath: Required value', 'field[0].name: Invalid value: "abc": must not already exist in volumeMounts']],
    ['relative devicepath', [{ name: 'abc-123', devicePath: 'baz' }], ['field[0].name: Invalid value: "abc-123": must not already exist in volumeMounts']],
    ['no backsteps', [{ name: 'def', devicePath: '/baz/../' }], [
      'field[0].name: Invalid value: "def": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      'field[0].devicePath: Invalid value: "/baz/../": can not contain backsteps (\'..\')',
    ]],
    ['path exists in volumemounts', [{ name: 'xyz', devicePath: '/this/path/exists' }], ['field[0].name: Not found: "xyz"', 'field[0].devicePath: Invalid value: "/this/path/exists": must not already exist as a path in volumeMounts']],
  ])('%s is refused with the API server\'s message', (_name, devices, expected) => {
    expect(deviceErrors(devices, badMounts)).toEqual(expected);
  });
});

describe('Test_validateProbe and TestValidateHandler', () => {
  const probeErrors = (startupProbe: unknown) => under(podErrors({ containers: [{ name: 'ctr', image: 'image', startupProbe }] }), 'spec.containers[0].startupProbe', 'test');
  const exec = { exec: { command: ['echo'] } };

  test.each([
    ['no handler', {}, ['test: Required value: must specify a handler type']],
    ['an exec handler', exec, []],
    ['initialDelaySeconds -1', { ...exec, initialDelaySeconds: -1 }, ['test.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0']],
    ['timeoutSeconds -1', { ...exec, timeoutSeconds: -1 }, ['test.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0']],
    ['periodSeconds -1', { ...exec, periodSeconds: -1 }, ['test.periodSeconds: Invalid value: -1: must be greater than or equal to 0']],
    // validateStartupProbe adds its own "must be 1" to validateProbe's error
    ['successThreshold -1', { ...exec, successThreshold: -1 }, ['test.successThreshold: Invalid value: -1: must be greater than or equal to 0', 'test.successThreshold: Invalid value: -1: must be 1']],
    ['failureThreshold -1', { ...exec, failureThreshold: -1 }, ['test.failureThreshold: Invalid value: -1: must be greater than or equal to 0']],
    ['terminationGracePeriodSeconds -1', { ...exec, terminationGracePeriodSeconds: -1 }, ['test.terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0']],
    ['terminationGracePeriodSeconds 0', { ...exec, terminationGracePeriodSeconds: 0 }, ['test.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0']],
    ['terminationGracePeriodSeconds 1', { ...exec, terminationGracePeriodSeconds: 1 }, []],
  ])('%s: %j', (_name, probe, expected) => {
    expect(probeErrors(probe)).toEqual(expected);
  });

  test('the handlers of TestValidateHandler\'s success cases are accepted', () => {
    for (const h of [
      { exec: { command: ['echo'] } },
      { httpGet: { path: '/', port: 1, host: '', scheme: 'HTTP' } },
      { httpGet: { path: '/foo', port: 65535, host: 'host', scheme: 'HTTP' } },
      { httpGet: { path: '/', port: 'port', host: '', scheme: 'HTTP' } },
      { httpGet: { path: '/', port: 'port', host: '', scheme: 'HTTP', httpHeaders: [{ name: 'Host', value: 'foo.example.com' }] } },
    ]) expect(probeErrors(h)).toEqual([]);
  });

  test.each([
    ['no handler', {}, ['test: Required value: must specify a handler type']],
    ['an empty command', { exec: { command: [] } }, ['test.exec.command: Required value']],
    // path "" is defaulted to "/" before validation
    ['port 0', { httpGet: { path: '', port: 0, host: '' } }, ['test.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive']],
    ['port 65536', { httpGet: { path: '/foo', port: 65536, host: 'host' } }, ['test.httpGet.port: Invalid value: 65536: must be between 1 and 65535, inclusive']],
    ['port ""', { httpGet: { path: '', port: '', host: '' } }, [
      'test.httpGet.port: Invalid value: "": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'test.httpGet.port: Invalid value: "": must contain at least one letter (a-z)',
    ]],
  ])('TestValidateHandler error case %s is refused with the API server\'s message', (_name, handler, expected) => {
    expect(probeErrors(handler)).toEqual(expected);
  });
});

describe('TestValidateEphemeralContainers', () => {
  const base = {
    containers: [{ name: 'ctr', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
    initContainers: [{ name: 'ictr', image: 'iimage', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
  };
  /** The errors of the ephemeral containers, without the one every Pod with any gets at create: they are the subresource's. */
  const ephemeralErrors = (ephemeralContainers: unknown[]) =>
    under(podErrors({ ...base, ephemeralContainers }), 'spec.ephemeralContainers', 'ephemeralContainers')
      .filter((e) => e !== 'ephemeralContainers: Forbidden: cannot be set on create');
  const debug = (name: string, more = {}) => ({ name, image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...more });

  test('the success cases are accepted, and any ephemeral container is refused on create, as ValidatePodCreate does', () => {
    expect(ephemeralErrors([debug('debug')])).toEqual([]);
    expect(ephemeralErrors([debug('debug1'), debug('debug2')])).toEqual([]);
    expect(ephemeralErrors([debug('debug', { targetContainerName: 'ctr' })])).toEqual([]);
    expect(podErrors({ ...base, ephemeralContainers: [debug('debug')] })).toEqual(['spec.ephemeralContainers: Forbidden: cannot be set on create']);
    expect(podErrors({ ...base, ephemeralContainers: [debug('debug')] }, false)).toEqual(['spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template']);
  });

  test.each([
    ['Name Collision with Container.Containers', [debug('ctr'), debug('debug1')], ['ephemeralContainers[0].name: Duplicate value: "ctr"']],
    ['Name Collision with Container.InitContainers', [debug('ictr'), debug('debug1')], ['ephemeralContainers[0].name: Duplicate value: "ictr"']],
    // imagePullPolicy and terminationMessagePolicy are defaulted before validation
    ['empty Container', [{}], ['ephemeralContainers[0].name: Required value', 'ephemeralContainers[0].image: Required value']],
    ['empty Container Name', [debug('')], ['ephemeralContainers[0].name: Required value']],
    ['whitespace padded image name', [{ ...debug('debug'), image: ' image' }], ['ephemeralContainers[0].image: Invalid value: " image": must not have leading or trailing whitespace']],
    ['invalid image pull policy', [{ ...debug('debug'), imagePullPolicy: 'PullThreeTimes' }], ['ephemeralContainers[0].imagePullPolicy: Unsupported value: "PullThreeTimes": supported values: "Always", "IfNotPresent", "Never"']],
    ['TargetContainerName doesn\'t exist', [debug('debug', { targetContainerName: 'bogus' })], ['ephemeralContainers[0].targetContainerName: Not found: "bogus"']],
    ['Targets an ephemeral container', [debug('debug'), debug('debugception', { targetContainerName: 'debug' })], ['ephemeralContainers[1].targetContainerName: Not found: "debug"']],
  ])('%s is refused with the API server\'s message', (_name, ephemeral, expected) => {
    expect(ephemeralErrors(ephemeral)).toEqual(expected);
  });
});

describe('TestValidateVolumes', () => {
  const volumeErrors = (volume: Record<string, unknown>) => under(podErrors({ volumes: [volume], containers: [{ name: 'ctr', image: 'image' }] }), 'spec.volumes[0]', 'vol');

  test('the success cases of the sources this port reads are accepted', () => {
    for (const volume of [
      { name: 'hostpath', hostPath: { path: '/mnt/path', type: 'Directory' } },
      { name: 'hostpath', hostPath: { path: '/mnt/path', type: 'Socket' } },
      { name: 'gce-pd', gcePersistentDisk: { pdName: 'my-PD', fsType: 'ext4', partition: 1, readOnly: false } },
      { name: 'aws-ebs', awsElasticBlockStore: { volumeID: 'my-PD', fsType: 'ext4', partition: 1, readOnly: false } },
      { name: 'git-repo', gitRepo: { repository: 'my-repo', revision: 'hashstring', directory: 'target' } },
      { name: 'git-repo-dot', gitRepo: { repository: 'my-repo', directory: '.' } },
      { name: 'git-repo-dot-dot-foo', gitRepo: { repository: 'my-repo', directory: '..foo' } },
      { name: 'iscsi', iscsi: { targetPortal: '127.0.0.1', iqn: 'iqn.2015-02.example.com:test', lun: 1, fsType: 'ext4', readOnly: false } },
      { name: 'secret', secret: { secretName: 'my-secret' } },
      { name: 'secret', secret: { secretName: 'my-secret', defaultMode: 0o644 } },
      { name: 'secret', secret: { secretName: 'my-secret', items: [{ key: 'key', path: 'filename', mode: 0o644 }] } },
      { name: 'secret', secret: { secretName: 'my-secret', items: [{ key: 'key', path: 'dir/filename' }] } },
      { name: 'cfgmap', configMap: { name: 'my-cfgmap' } },
      { name: 'cfgmap', configMap: { name: 'my-cfgmap', defaultMode: 0o644 } },
      { name: 'cfgmap', configMap: { name: 'my-cfgmap', items: [{ key: 'key', path: 'filename', mode: 0o644 }] } },
      { name: 'cfgmap', configMap: { name: 'my-cfgmap', items: [{ key: 'key', path: 'dir/filename' }] } },
    ]) expect(volumeErrors(volume)).toEqual([]);
  });

  test.each([
    ['zero-length name', { name: '', emptyDir: {} }, ['vol.name: Required value']],
    ['name > 63 characters', { name: 'a'.repeat(64), emptyDir: {} }, [`vol.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
    ['name has dots', { name: 'a.b.c', emptyDir: {} }, ['vol.name: Invalid value: "a.b.c": must not contain dots']],
    ['name not a DNS label', { name: 'Not a DNS label!', emptyDir: {} }, [`vol.name: Invalid value: "Not a DNS label!": ${DNS_LABEL}`]],
  ])('%s is refused with the API server\'s message', (_name, volume, expected) => {
    expect(volumeErrors(volume)).toEqual(expected);
  });

  test('more than one source is a one-of contradiction, the merged-contradictions rule\'s; the sources\' own fields are not read', () => {
    expect(volumeErrors({ name: 'dups', emptyDir: {}, hostPath: { path: '/mnt/path', type: 'Directory' } })).toEqual([]);
  });
});

describe('TestValidateContainers and TestValidateInitContainers', () => {
  const app = { name: 'app', image: 'nginx', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' };
  const init = (more: Record<string, unknown>) => ({ name: 'init', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...more });

  test.each(['Always', 'OnFailure', 'Never', 'invalid', ''])('Forbidden RestartPolicy: %j on a container', (restartPolicy) => {
    expect(podErrors({ containers: [{ ...app, name: 'foo', image: 'image', restartPolicy }] })).toEqual(['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']);
  });

  test('the init containers of the success case are accepted: one host port over two protocols, a sidecar with hooks and probes', () => {
    const tcpProbe = { tcpSocket: { port: 80 } };
    expect(podErrors({
      containers: [app],
      initContainers: [
        init({ name: 'container-1-same-host-port-different-protocol', ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }] }),
        init({ name: 'container-2-same-host-port-different-protocol', ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }] }),
        init({
          name: 'container-3-restart-always-with-lifecycle-hook-and-probes',
          restartPolicy: 'Always',
          lifecycle: { postStart: { exec: { command: ['echo', 'post start'] } }, preStop: { exec: { command: ['echo', 'pre stop'] } } },
          livenessProbe: { ...tcpProbe, successThreshold: 1 },
          readinessProbe: tcpProbe,
          startupProbe: { ...tcpProbe, successThreshold: 1 },
        }),
      ],
    })).toEqual([]);
  });

  test.each([
    ['empty name', [init({ name: '' })], ['spec.initContainers[0].name: Required value']],
    ['name collision with regular container', [init({ name: 'app' })], ['spec.initContainers[0].name: Duplicate value: "app"']],
    ['invalid termination message policy', [init({ terminationMessagePolicy: 'Unknown' })], ['spec.initContainers[0].terminationMessagePolicy: Unsupported value: "Unknown": supported values: "File", "FallbackToLogsOnError"']],
    ['uses disallowed field: Lifecycle', [init({ lifecycle: { preStop: { exec: { command: ['ls', '-l'] } } } })], ['spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always']],
    ['uses disallowed field: LivenessProbe', [init({ livenessProbe: { tcpSocket: { port: 80 }, successThreshold: 1 } })], ['spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always']],
    ['Disallowed field with other errors should only return a single Forbidden', [init({ startupProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: -1, timeoutSeconds: -1, periodSeconds: -1, successThreshold: -1, failureThreshold: -1, terminationGracePeriodSeconds: -1 } })],
      ['spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always']],
    ['Not supported RestartPolicy: OnFailure', [init({ restartPolicy: 'OnFailure' })], ['spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']],
    ['Not supported RestartPolicy: empty', [init({ restartPolicy: '' })], ['spec.initContainers[0].restartPolicy: Unsupported value: "": supported values: "Always"']],
  ])('%s is refused with the API server\'s message', (_name, initContainers, expected) => {
    expect(podErrors({ containers: [app], initContainers })).toEqual(expected);
  });

  test('duplicate names and duplicate ports of one key are server-side apply\'s duplicate keys, the merged-contradictions rule\'s', () => {
    expect(podErrors({ containers: [app], initContainers: [init({}), init({})] })).toEqual([]);
    expect(podErrors({ containers: [app], initContainers: [init({ name: 'abc', ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }, { containerPort: 8080, hostPort: 8080, protocol: 'TCP' }] })] })).toEqual([]);
  });
});

describe('validateContainers, validateInitContainers and ValidateVolumes (validation.go)', () => {
  test.each([
    ['no containers', { containers: [] }, ['spec.containers: Required value']],
    ['a container without a name', { containers: [{ image: 'image' }] }, ['spec.containers[0].name: Required value']],
    ['an upper-case container name', { containers: [{ name: 'Web', image: 'image' }] }, [`spec.containers[0].name: Invalid value: "Web": ${DNS_LABEL}`]],
    ['a container name of 64 characters', { containers: [{ name: 'a'.repeat(64), image: 'image' }] }, [`spec.containers[0].name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
    ['a container name with a dot', { containers: [{ name: 'a.b', image: 'image' }] }, ['spec.containers[0].name: Invalid value: "a.b": must not contain dots']],
    ['a container without an image', { containers: [{ name: 'web' }] }, ['spec.containers[0].image: Required value']],
    ['an init container named as a container', { containers: [{ name: 'web', image: 'image' }], initContainers: [{ name: 'web', image: 'image' }] }, ['spec.initContainers[0].name: Duplicate value: "web"']],
    ['a restartPolicy on a container', { containers: [{ name: 'web', image: 'image', restartPolicy: 'Always' }] }, ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']],
    ['a probe on an init container', { containers: [{ name: 'web', image: 'image' }], initContainers: [{ name: 'init', image: 'image', readinessProbe: { exec: { command: ['true'] } } }] }, ['spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always']],
    ['an init container restartPolicy Never', { containers: [{ name: 'web', image: 'image' }], initContainers: [{ name: 'init', image: 'image', restartPolicy: 'Never' }] }, ['spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['a volume without a source', { containers: [{ name: 'web', image: 'image' }], volumes: [{ name: 'data' }] }, ['spec.volumes[0]: Required value: must specify a volume type']],
    ['a volume name with a dot', { containers: [{ name: 'web', image: 'image' }], volumes: [{ name: 'configmap-app.config', configMap: { name: 'app.config' } }] }, ['spec.volumes[0].name: Invalid value: "configmap-app.config": must not contain dots']],
    ['two containers with one host port', { containers: [{ name: 'a', image: 'image', ports: [{ containerPort: 80, hostPort: 8080 }] }, { name: 'b', image: 'image', ports: [{ containerPort: 81, hostPort: 8080 }] }] }, ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"']],
  ])('%s is refused with the API server\'s message', (_name, spec, expected) => {
    expect(podErrors(spec)).toEqual(expected);
  });

  test('a sidecar (an init container with restartPolicy: Always) takes probes, and a template may hold an image of spaces', () => {
    expect(podErrors({ containers: [{ name: 'web', image: ' ' }], initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', readinessProbe: { tcpSocket: { port: 9901 } } }] }, false)).toEqual([]);
  });
});
