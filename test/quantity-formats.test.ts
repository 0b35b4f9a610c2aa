/**
 * Resource quantities (`resources.limits.memory: 1Gb`) the API server cannot parse are refused at synth
 * (`CAP010`), in every field Kubernetes 1.30's schema types `Quantity`, with the nearest text that parses.
 *
 * The parser's cases are ported from kubernetes/apimachinery, `pkg/api/resource/quantity_test.go`,
 * `TestQuantityParse` (the valid table, each also with a leading `-` and `+` as the Go test runs them, and the
 * `invalid` list), at commit eed236ceee2c19c2753a3d93ac0631dc20750454.
 */
import * as path from 'path';
import { ApiObject, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { nearestQuantities } from '../src/check/rules/quantity-formats';
import { parseQuantity } from '../src/private/quantity';

afterAll(removeTempDirs);

/** TestQuantityParse's table: each input parses. */
const GO_VALID = (
  '0 0n 0u 0m 0Ki 0k 0Mi 0M 0Gi 0G 0Ti 0T 1 1Ki 8Ki 7Mi 6Gi 5Ti 4Pi 3Ei 10Ti 100Ti 5n 4u 3m 9 8k 50k 7M 6G 5T 40T 300T 2P 1E 1E-3 '
  + '1e3 1E6 1e9 1E12 1e15 1E18 1e14 1e13 1e3 100.035k 0.001 0.0005k 0.005 0.05 0.5 0.00050k 0.00500 0.05000 0.50000 0.5e0 0.5e-1 '
  + '0.5e-2 0.5e0 10.035M 1.2e3 1.3E+6 1.40e9 1.53E12 1.6e15 1.7E18 9.01 8.1k 7.123456M 6.987654321G 5.444T 40.1T 300.2T 2.5P 1.01E '
  + '3.001n 1.1E-9 0.0000000001 0.0000000005 0.00000000050 0.5e-9 0.9n 0.00000012345 0.00000012354 9Ei 9223372036854775807Ki 12E '
  + '100.035Ki 0.5Mi 0.05Gi 0.025Ti 0.000000000001Ki .001 .0001k 1. 1.G'
).split(' ');

/** TestQuantityParse's `invalid` list (its two white-space cases are ParseQuantity's; the API server's JSON reader trims, below). */
const GO_INVALID = ['1.1.M', '1+1.0M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01i', '-3.01e-'];

describe('parseQuantity, as k8s.io/apimachinery parses a quantity', () => {
  test.each(GO_VALID.flatMap((q) => [q, `-${q}`, `+${q}`]))('%s parses', (q) => {
    expect(parseQuantity(q)).toBeDefined();
  });

  test.each([...GO_INVALID, '', '1Gb', '512MB', '500 m', '1e', '1e1.5', '1e99999999999999999999', '1Kib', '2cores'])('%j is refused', (q) => {
    expect(parseQuantity(q)).toBeUndefined();
  });

  test('what it reads: sign, digits, suffix and its power', () => {
    expect(parseQuantity('1.5Gi')).toEqual({ negative: false, whole: '1', fraction: '5', exp10: 0, exp2: 30 });
    expect(parseQuantity('-007.250m')).toEqual({ negative: true, whole: '7', fraction: '250', exp10: -3, exp2: 0 });
    expect(parseQuantity('1.3E+6')).toEqual({ negative: false, whole: '1', fraction: '3', exp10: 6, exp2: 0 });
    // Go's corners: a sign, a dot or an exponent alone is zero
    expect(parseQuantity('-')).toEqual({ negative: true, whole: '0', fraction: '', exp10: 0, exp2: 0 });
    expect(parseQuantity('.')).toEqual({ negative: false, whole: '0', fraction: '', exp10: 0, exp2: 0 });
    expect(parseQuantity('e3')).toEqual({ negative: false, whole: '0', fraction: '', exp10: 3, exp2: 0 });
  });

  test('white space around the text is trimmed, as Quantity.UnmarshalJSON trims it before parsing', () => {
    expect(parseQuantity(' 1Gi ')).toEqual(parseQuantity('1Gi'));
    expect(parseQuantity('1 Gi')).toBeUndefined();
  });

  test('property: every text the documented grammar makes parses, and no text makes the parser throw', () => {
    const digits = fc.stringMatching(/^[0-9]{1,6}$/);
    const number = fc.oneof(digits, fc.tuple(digits, digits).map(([a, b]) => `${a}.${b}`), digits.map((d) => `${d}.`), digits.map((d) => `.${d}`));
    const signed = fc.tuple(fc.constantFrom('', '+', '-'), number).map(([s, n]) => s + n);
    const suffix = fc.oneof(
      fc.constantFrom('Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', '', 'k', 'M', 'G', 'T', 'P', 'E'),
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits).map(([e, s, d]) => e + s + d),
    );
    fc.assert(fc.property(signed, suffix, (n, s) => parseQuantity(n + s) !== undefined), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ maxLength: 12 }), (text) => {
      parseQuantity(text);
    }), { numRuns: 500 });
  });
});

describe('nearestQuantities: what the message offers', () => {
  test.each([
    ['1Gb', ['1G', '1Gi']],
    ['512MB', ['512M', '512Mi']],
    ['100kb', ['100k', '100Ki']],
    ['2GiB', ['2Gi']],
    ['500 m', ['500m']],
    ['1,5Gi', ['1.5Gi']],
    ['1gi', ['1Gi']],
    ['2 cores', ['2']],
    ['1cpu', ['1']],
    ['lots', []],
  ])('%j -> %j', (text, nearest) => {
    expect(nearestQuantities(text)).toEqual(nearest);
  });

  test('property: each text offered parses and differs from the text given', () => {
    const offersOnlyQuantities = (text: string) => nearestQuantities(text).every((q) => q !== text && parseQuantity(q) !== undefined);
    fc.assert(fc.property(fc.string({ maxLength: 10 }), offersOnlyQuantities), { numRuns: 500 });
  });
});

describe('the rule, on manifests', () => {
  function shop(): { app: CapabilityApp; routing: RuntimeRouting } {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    return { app, routing: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
  }
  const messages = (app: CapabilityApp) => app.synthesize().violations.map((v) => `${v.code} ${v.message}`);
  const grammar = 'a quantity is a number with an optional suffix: n, u, m, k, M, G, T, P, E (powers of 10), Ki, Mi, Gi, Ti, Pi, Ei (powers of 2), or an exponent such as e3.';

  test('a container\'s limits and requests, a volume\'s sizeLimit, a PVC\'s storage and a ResourceQuota\'s hard are each checked, named as the ledger names them', () => {
    const { app, routing } = shop();
    new ApiObject(routing, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [{ name: 'web', image: 'nginx:1.27', resources: { limits: { memory: '1Gb', cpu: 2 }, requests: { cpu: '500 m', memory: '512Mi' } }, volumeMounts: [{ name: 'scratch', mountPath: '/tmp' }] }],
            volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '1,5Gi' } }],
          },
        },
      },
    });
    new ApiObject(routing, 'Data', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10 GB' } } } });
    new ApiObject(routing, 'Quota', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota' }, spec: { hard: { 'requests.cpu': '4 cores', 'pods': '10' } } });

    expect(messages(app)).toEqual([
      `CAP010 invalid object: 'spec.hard["requests.cpu"]' ("4 cores") of ResourceQuota quota declared by 'shop/Routing/Quota' is no quantity the API server can parse: ${grammar} Write "4".`,
      `CAP010 invalid object: 'spec.resources.requests.storage' ("10 GB") of PersistentVolumeClaim data declared by 'shop/Routing/Data' is no quantity the API server can parse: ${grammar} Write "10G" or "10Gi".`,
      `CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.limits.memory' ("1Gb") of apps/Deployment web declared by 'shop/Routing/Web' is no quantity the API server can parse: ${grammar} Write "1G" or "1Gi".`,
      `CAP010 invalid object: 'spec.template.spec.containers[name=web].resources.requests.cpu' ("500 m") of apps/Deployment web declared by 'shop/Routing/Web' is no quantity the API server can parse: ${grammar} Write "500m".`,
      `CAP010 invalid object: 'spec.template.spec.volumes[name=scratch].emptyDir.sizeLimit' ("1,5Gi") of apps/Deployment web declared by 'shop/Routing/Web' is no quantity the API server can parse: ${grammar} Write "1.5Gi".`,
    ]);
  });

  test('cdk8s-plus workloads with Cpu and Size, numbers, and a quantity text with white space around it are accepted', () => {
    const { app, routing } = shop();
    const web = new kplus.Deployment(routing, 'Web');
    const cpu = { request: kplus.Cpu.millis(250), limit: kplus.Cpu.units(1) };
    web.addContainer({ name: 'web', image: 'nginx:1.27', resources: { cpu, memory: { request: Size.mebibytes(256), limit: Size.gibibytes(1) } } });
    new ApiObject(routing, 'Quota', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota' }, spec: { hard: { 'requests.cpu': 4, 'limits.memory': ' 8Gi ', 'pods': '10' } } });

    expect(messages(app)).toEqual([]);
  });

  test('a string field is no quantity: a ConfigMap value "1Gb" is not judged', () => {
    const { app, routing } = shop();
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { memory: '1Gb' } });
    expect(messages(app)).toEqual([]);
  });
});
