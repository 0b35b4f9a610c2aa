/**
 * A Secret of a built-in type that the API server refuses for what its type requires is CAP010 at synth, not an
 * apply that fails after earlier steps were applied. The cases port Kubernetes' own table tests of `ValidateSecret`
 * (kubernetes/kubernetes `pkg/apis/core/validation/validation_test.go`: `TestValidateDockerConfigSecret`,
 * `TestValidateBasicAuthSecret`, `TestValidateSSHAuthSecret`, `TestValidateTLSSecret`), each valid case checked as
 * accepted and each invalid one as refused with what the API server says; cdk8s-plus's typed Secrets are accepted.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityTesting, RuntimeRouting } from '../src';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const DOCKERCFG = '{"https://index.docker.io/v1/": {"auth": "Y2x1ZWRyb29sZXIwMDAxOnBhc3N3b3Jk","email": "fake@example.com"}}';
const CONFIG_JSON = '{"auths":{"https://index.docker.io/v1/": {"auth": "Y2x1ZWRyb29sZXIwMDAxOnBhc3N3b3Jk","email": "fake@example.com"}}}';

type Maps = { data?: Record<string, string>; stringData?: Record<string, string>; annotations?: Record<string, string> };

/** The CAP010 messages of one Secret `shop/foo` of the type and maps given. */
function refusals(type: string, maps: Maps): string[] {
  const app = CapabilityTesting.app();
  const chart = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(chart, 'Foo', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'foo', namespace: 'shop', ...(maps.annotations ? { annotations: maps.annotations } : {}) },
    type,
    ...(maps.data ? { data: maps.data } : {}),
    ...(maps.stringData ? { stringData: maps.stringData } : {}),
  });
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
}

const HAS = (type: string) => `CAP010 invalid object: Secret shop/foo declared by 'shop/Routing/Foo' has type "${type}"`;
const AFTER = 'after earlier steps were applied.';

describe('TestValidateDockerConfigSecret', () => {
  test.each([
    ['valid dockercfg', 'kubernetes.io/dockercfg', { '.dockercfg': b64(DOCKERCFG) }],
    ['valid config.json', 'kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64(CONFIG_JSON) }],
  ])('%s is accepted', (_name, type, data) => {
    expect(refusals(type, { data })).toEqual([]);
  });

  test.each([
    ['missing dockercfg', 'kubernetes.io/dockercfg', '.dockercfg', {}, 'but no data[".dockercfg"]: the API server refuses it (data[.dockercfg]: Required value)',
      'Set data[".dockercfg"] (or the same keys of stringData). It holds a legacy ~/.dockercfg file, a JSON object.'],
    ['empty dockercfg', 'kubernetes.io/dockercfg', '.dockercfg', { '.dockercfg': '' }, 'but data[".dockercfg"] is no JSON object: the API server refuses it (data[.dockercfg]: Invalid value: "<secret contents redacted>")',
      'Give data[".dockercfg"] a JSON object. It holds a legacy ~/.dockercfg file, a JSON object.'],
    ['invalid dockercfg', 'kubernetes.io/dockercfg', '.dockercfg', { '.dockercfg': b64('bad') }, 'but data[".dockercfg"] is no JSON object: the API server refuses it (data[.dockercfg]: Invalid value: "<secret contents redacted>")',
      'Give data[".dockercfg"] a JSON object. It holds a legacy ~/.dockercfg file, a JSON object.'],
    ['missing config.json', 'kubernetes.io/dockerconfigjson', '.dockerconfigjson', {}, 'but no data[".dockerconfigjson"]: the API server refuses it (data[.dockerconfigjson]: Required value)',
      'Set data[".dockerconfigjson"] (or the same keys of stringData). It holds a Docker config.json: {"auths": {...}}.'],
    ['empty config.json', 'kubernetes.io/dockerconfigjson', '.dockerconfigjson', { '.dockerconfigjson': '' },
      'but data[".dockerconfigjson"] is no JSON object: the API server refuses it (data[.dockerconfigjson]: Invalid value: "<secret contents redacted>")',
      'Give data[".dockerconfigjson"] a JSON object. It holds a Docker config.json: {"auths": {...}}.'],
    ['invalid config.json', 'kubernetes.io/dockerconfigjson', '.dockerconfigjson', { '.dockerconfigjson': b64('bad') },
      'but data[".dockerconfigjson"] is no JSON object: the API server refuses it (data[.dockerconfigjson]: Invalid value: "<secret contents redacted>")',
      'Give data[".dockerconfigjson"] a JSON object. It holds a Docker config.json: {"auths": {...}}.'],
  ])('%s is refused', (_name, type, _key, data, what, fix) => {
    expect(refusals(type, { data })).toEqual([`${HAS(type)} ${what}, ${AFTER} ${fix}`]);
  });

  test('a JSON array is refused as Go refuses to unmarshal it into a map; stringData is read as plain text', () => {
    expect(refusals('kubernetes.io/dockerconfigjson', { stringData: { '.dockerconfigjson': '[]' } })).toHaveLength(1);
    expect(refusals('kubernetes.io/dockerconfigjson', { stringData: { '.dockerconfigjson': CONFIG_JSON } })).toEqual([]);
  });
});

describe('TestValidateBasicAuthSecret', () => {
  test('valid, and one key alone, even empty, is accepted', () => {
    expect(refusals('kubernetes.io/basic-auth', { data: { username: b64('username'), password: b64('password') } })).toEqual([]);
    expect(refusals('kubernetes.io/basic-auth', { data: { password: '' } })).toEqual([]);
  });

  test('missing username and password is refused', () => {
    expect(refusals('kubernetes.io/basic-auth', { data: { user: b64('u') } })).toEqual([
      `${HAS('kubernetes.io/basic-auth')} but neither data["username"] nor data["password"]: the API server refuses it (data[username]: Required value, data[password]: Required value), ${AFTER} `
      + 'Set data["username"] or data["password"] (or the same keys of stringData). Either key may be empty, but one must be there.',
    ]);
  });
});

describe('TestValidateSSHAuthSecret', () => {
  test('valid is accepted', () => {
    expect(refusals('kubernetes.io/ssh-auth', { data: { 'ssh-privatekey': b64('foo-bar-baz') } })).toEqual([]);
  });

  test('missing private key is refused, and so is an empty one', () => {
    const fix = 'Set data["ssh-privatekey"] (or the same keys of stringData). It holds the private key, and must not be empty.';
    expect(refusals('kubernetes.io/ssh-auth', { data: {} })).toEqual([
      `${HAS('kubernetes.io/ssh-auth')} but no data["ssh-privatekey"]: the API server refuses it (data[ssh-privatekey]: Required value), ${AFTER} ${fix}`,
    ]);
    expect(refusals('kubernetes.io/ssh-auth', { stringData: { 'ssh-privatekey': '' } })).toEqual([
      `${HAS('kubernetes.io/ssh-auth')} but an empty data["ssh-privatekey"]: the API server refuses it (data[ssh-privatekey]: Required value), ${AFTER} ${fix}`,
    ]);
  });
});

describe('TestValidateTLSSecret', () => {
  const HINT = 'A Secret a controller issues (a cert-manager Certificate names it in spec.secretName) is made by that controller: declare no Secret for it.';

  test('both keys, even empty, from data and stringData together, are accepted', () => {
    expect(refusals('kubernetes.io/tls', { data: { 'tls.crt': b64('public key'), 'tls.key': b64('private key') } })).toEqual([]);
    expect(refusals('kubernetes.io/tls', { data: { 'tls.crt': '' }, stringData: { 'tls.key': '' } })).toEqual([]);
  });

  test('missing private key is refused, naming the key', () => {
    expect(refusals('kubernetes.io/tls', { data: { 'tls.crt': b64('public key') } })).toEqual([
      `${HAS('kubernetes.io/tls')} but no data["tls.key"]: the API server refuses it (data[tls.key]: Required value), ${AFTER} Set data["tls.key"] (or the same keys of stringData). ${HINT}`,
    ]);
  });

  test("an empty TLS Secret meant for cert-manager to fill is refused, naming both keys and cert-manager's way", () => {
    expect(refusals('kubernetes.io/tls', {})).toEqual([
      `${HAS('kubernetes.io/tls')} but no data["tls.crt"] and no data["tls.key"]: the API server refuses it (data[tls.crt]: Required value, data[tls.key]: Required value), ${AFTER} `
      + `Set data["tls.crt"] and data["tls.key"] (or the same keys of stringData). ${HINT}`,
    ]);
  });
});

describe('a service account token Secret', () => {
  test('without the annotation naming its ServiceAccount is refused; with it, accepted', () => {
    expect(refusals('kubernetes.io/service-account-token', {})).toEqual([
      `${HAS('kubernetes.io/service-account-token')} but no annotation kubernetes.io/service-account.name: the API server refuses it `
      + `(metadata.annotations[kubernetes.io/service-account.name]: Required value), ${AFTER} Set the annotation to the name of the ServiceAccount whose token it holds; the token controller fills data.token.`,
    ]);
    expect(refusals('kubernetes.io/service-account-token', { annotations: { 'kubernetes.io/service-account.name': 'web' } })).toEqual([]);
  });
});

test("cdk8s-plus's typed Secrets and an Opaque Secret with any keys are accepted", () => {
  const app = CapabilityTesting.app();
  const chart = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const sa = new kplus.ServiceAccount(chart, 'Sa', { metadata: { namespace: 'shop' } });
  new kplus.TlsSecret(chart, 'Tls', { metadata: { namespace: 'shop' }, tlsCert: 'cert', tlsKey: 'key' });
  new kplus.BasicAuthSecret(chart, 'Basic', { metadata: { namespace: 'shop' }, username: 'u', password: 'p' });
  new kplus.SshAuthSecret(chart, 'Ssh', { metadata: { namespace: 'shop' }, sshPrivateKey: 'k' });
  new kplus.DockerConfigSecret(chart, 'Docker', { metadata: { namespace: 'shop' }, data: { auths: {} } });
  new kplus.ServiceAccountTokenSecret(chart, 'Token', { metadata: { namespace: 'shop' }, serviceAccount: sa });
  new kplus.Secret(chart, 'Opaque', { metadata: { namespace: 'shop' }, stringData: { anything: 'x' } });
  expect(CapabilityTesting.synth(app).violations.filter((v) => v.code === 'CAP010')).toEqual([]);
});
