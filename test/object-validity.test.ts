import { ApiObject, JsonPatch } from 'cdk8s';
import { Capability, CompositionError, RuntimeRouting, Violation } from '../src';
import { configMap, newApp, removeTempDirs } from './util';
import { objectValidity } from '../src/check/rules/object-validity';

afterAll(removeTempDirs);

/** GIVEN-side helper: an app with one routing chart `cdn/Routing`. */
function routing() {
  const app = newApp();
  return { app, chart: new RuntimeRouting(new Capability(app, 'cdn'), 'Routing') };
}

function object(
  scope: RuntimeRouting, id: string, apiVersion: string, kind: string, metadata: Record<string, unknown>, spec?: Record<string, unknown>,
): ApiObject {
  return new ApiObject(scope, id, { apiVersion, kind, metadata, ...(spec ? { spec } : {}) });
}

/** The CAP010 violations of a synth, messages only. */
function invalid(violations: Violation[]): string[] {
  return violations.filter((v) => v.code === 'CAP010').map((v) => v.message);
}

const SUBDOMAIN = "a DNS-1123 subdomain of at most 253 characters (lowercase letters, digits, '-' and '.', each dot-separated part starting and ending with a letter or digit)";
const LABEL = "a DNS-1123 label of at most 63 characters (lowercase letters, digits and '-', starting and ending with a letter or digit)";

describe('CAP010: names', () => {
  test('a ConfigMap name with uppercase and "_" is refused, quoting it and a valid name close to it', () => {
    // GIVEN
    const { app, chart } = routing();
    configMap(chart, 'Settings', 'My_App', 'edge');

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([
      {
        code: 'CAP010',
        message: `invalid object: 'metadata.name' ("My_App") of ConfigMap edge/My_App declared by 'cdn/Routing/Settings' must be ${SUBDOMAIN} such as "my-app", but it contains "M", "_", "A". Rename the object.`,
        paths: ['cdn/Routing/Settings'],
      },
    ]);
  });

  test('a name with ../ is refused', () => {
    const { app, chart } = routing();
    configMap(chart, 'Escape', '../../etc');

    expect(invalid(app.synthesize().violations)).toEqual([
      `invalid object: 'metadata.name' ("../../etc") of ConfigMap ../../etc declared by 'cdn/Routing/Escape' must be ${SUBDOMAIN} such as "etc", but it contains "/". Rename the object.`,
    ]);
  });

  test('a 254-character ConfigMap name is refused, the name shortened in the message', () => {
    const { app, chart } = routing();
    configMap(chart, 'Long', 'a'.repeat(254));

    expect(invalid(app.synthesize().violations)).toEqual([
      expect.stringMatching(
        /^invalid object: 'metadata\.name' \("a{40}"\.\.\. \(254 characters\)\) of ConfigMap a{40}\.\.\. declared by 'cdn\/Routing\/Long' must be a DNS-1123 subdomain of at most 253 characters .* but it has 254 characters\. Rename the object\.$/,
      ),
    ]);
  });

  test('a 253-character dotted ConfigMap name is accepted', () => {
    const { app, chart } = routing();
    configMap(chart, 'Long', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`);

    expect(invalid(app.synthesize().violations)).toEqual([]);
  });

  test('a Namespace name with a dot is refused: namespaces are DNS-1123 labels', () => {
    const { app, chart } = routing();
    object(chart, 'Ns', 'v1', 'Namespace', { name: 'team.a' });

    expect(invalid(app.synthesize().violations)).toEqual([
      `invalid object: 'metadata.name' ("team.a") of Namespace team.a declared by 'cdn/Routing/Ns' must be ${LABEL} such as "team-a", but it contains ".". Rename the object.`,
    ]);
  });

  test('a Service name starting with a digit is refused: services are DNS-1035 labels', () => {
    const { app, chart } = routing();
    object(chart, 'Svc', 'v1', 'Service', { name: '1web', namespace: 'edge' }, { ports: [{ port: 80 }] });

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'metadata.name' (\"1web\") of Service edge/1web declared by 'cdn/Routing/Svc' must be a DNS-1035 label of at most 63 characters (lowercase letters, digits and '-', starting with a letter and ending with a letter or digit) such as \"web\", but it starts with \"1\". Rename the object.",
    ]);
  });

  test('a 64-character StatefulSet name is refused: pods are named after it', () => {
    const { app, chart } = routing();
    object(chart, 'Db', 'apps/v1', 'StatefulSet', { name: 'd'.repeat(64), namespace: 'edge' });

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringMatching(/^invalid object: 'metadata\.name' .* of apps\/StatefulSet edge\/d{40}\.\.\. .* must be a DNS-1123 label of at most 63 characters .* but it has 64 characters\./)]);
  });

  test('a 53-character CronJob name is refused: job names get an 11-character suffix', () => {
    const { app, chart } = routing();
    object(chart, 'Cron', 'batch/v1', 'CronJob', { name: 'c'.repeat(53), namespace: 'edge' });

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringMatching(/must be a DNS-1123 subdomain of at most 52 characters .* but it has 53 characters\./)]);
  });

  test('a ClusterRole name with ":" is accepted, one with "/" is refused: RBAC names are path segments', () => {
    const { app, chart } = routing();
    object(chart, 'Ok', 'rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'system:controller:edge' });
    object(chart, 'Bad', 'rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'edge/reader' });

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'metadata.name' (\"edge/reader\") of rbac.authorization.k8s.io/ClusterRole edge/reader declared by 'cdn/Routing/Bad' must be a path segment (not '.' or '..', and without '/' or '%') such as \"edge-reader\", but it contains \"/\". Rename the object.",
    ]);
  });

  test('a namespace with uppercase is refused', () => {
    const { app, chart } = routing();
    configMap(chart, 'Settings', 'settings', 'Edge');

    expect(invalid(app.synthesize().violations)).toEqual([
      `invalid object: 'metadata.namespace' ("Edge") of ConfigMap Edge/settings declared by 'cdn/Routing/Settings' must be ${LABEL} such as "edge", but it contains "E". Fix the namespace (or the chart's namespace prop).`,
    ]);
  });
});

describe('CAP010: shape', () => {
  test('an object without kind is refused', () => {
    const { app, chart } = routing();
    object(chart, 'Nameless', 'v1', '', { name: 'x' });

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'kind' (\"\") of (no kind) x declared by 'cdn/Routing/Nameless' must be a non-empty kind such as \"ConfigMap\". Set kind.",
    ]);
  });

  test('an apiVersion with two slashes (cdk8s refuses it at construction; a patch can still write it) is refused', () => {
    const { app, chart } = routing();
    object(chart, 'Odd', 'example.com/v1', 'Widget', { name: 'w' }).addJsonPatch(JsonPatch.replace('/apiVersion', 'example.com/v1/beta'));

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'apiVersion' (\"example.com/v1/beta\") of example.com/Widget w declared by 'cdn/Routing/Odd' must be a version such as \"v1\", or a group and version such as \"apps/v1\". Set apiVersion.",
    ]);
  });

  test('a valid object of every kind in the name table passes', () => {
    const { app, chart } = routing();
    object(chart, 'Ns', 'v1', 'Namespace', { name: 'edge' });
    // (the API server refuses a Service without ports: podspec3-services)
    object(chart, 'Svc', 'v1', 'Service', { name: 'web', namespace: 'edge' }, { ports: [{ port: 80 }] });
    object(chart, 'Db', 'apps/v1', 'StatefulSet', { name: 'db', namespace: 'edge' });
    object(chart, 'Cron', 'batch/v1', 'CronJob', { name: 'nightly', namespace: 'edge' });
    object(chart, 'Role', 'rbac.authorization.k8s.io/v1', 'Role', { name: 'edge:reader', namespace: 'edge' });
    object(chart, 'Widget', 'example.com/v1', 'Widget', { name: 'w.1', namespace: 'edge', labels: { 'app.kubernetes.io/name': 'Web_1' } });

    expect(invalid(app.synthesize().violations)).toEqual([]);
  });
});

describe('CAP010: labels and annotations', () => {
  test('a label key with two slashes is refused', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', labels: { 'a/b/c': 'x' } });

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'metadata.labels' key \"a/b/c\" of ConfigMap cm declared by 'cdn/Routing/Cm' must be a qualified name: an optional DNS-1123 subdomain prefix of at most 253 characters and '/', then a name of at most 63 characters (letters, digits, '-', '_' and '.', starting and ending with a letter or digit) such as \"example.com/my-key\", but it has more than one '/'. Rename the key.",
    ]);
  });

  test('a label key with an uppercase prefix is refused, naming the prefix', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', labels: { 'Example.com/app': 'x' } });

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringContaining('but its prefix "Example.com" is not a DNS-1123 subdomain: it contains "E". Rename the key.')]);
  });

  test('a label key name of 64 characters is refused', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', labels: { [`example.com/${'k'.repeat(64)}`]: 'x' } });

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringMatching(/but its name "k{40}"\.\.\. \(64 characters\) is not valid: it has 64 characters\. Rename the key\.$/)]);
  });

  test('a label value with a space is refused and an empty one accepted', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', labels: { team: 'edge team', empty: '' } });

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'metadata.labels.team' (\"edge team\") of ConfigMap cm declared by 'cdn/Routing/Cm' must be empty or a label value of at most 63 characters (letters, digits, '-', '_' and '.', starting and ending with a letter or digit) such as \"edge-team\", but it contains \" \". Shorten or clean the value; put free text in an annotation.",
    ]);
  });

  test('a label value of 64 characters is refused', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', labels: { v: 'v'.repeat(64) } });

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringMatching(/^invalid object: 'metadata\.labels\.v' .* but it has 64 characters\./)]);
  });

  test('a label value that is a number is refused', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', labels: { replicas: 3 } });

    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'metadata.labels.replicas' (number 3) of ConfigMap cm declared by 'cdn/Routing/Cm' must be a string. Quote the value.",
    ]);
  });

  test('an annotation key starting with "-" is refused, while its free-text value is fine', () => {
    const { app, chart } = routing();
    object(chart, 'Cm', 'v1', 'ConfigMap', { name: 'cm', annotations: { '-note': 'any text: at all / really' } });

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringMatching(/^invalid object: 'metadata\.annotations' key "-note" .* but its name "-note" is not valid: it starts with "-"\. Rename the key\.$/)]);
  });

  test('annotations over 256 KiB in total are refused, exactly at the limit accepted', () => {
    // GIVEN two objects: keys plus values of 262,144 and 262,145 bytes
    const { app, chart } = routing();
    object(chart, 'AtLimit', 'v1', 'ConfigMap', { name: 'at', annotations: { a: 'x'.repeat(256 * 1024 - 1) } });
    object(chart, 'Over', 'v1', 'ConfigMap', { name: 'over', annotations: { a: 'x'.repeat(256 * 1024) } });

    // THEN only the second is refused
    expect(invalid(app.synthesize().violations)).toEqual([
      "invalid object: 'metadata.annotations' (262145 bytes) of ConfigMap over declared by 'cdn/Routing/Over' must be at most 262144 bytes in total, keys and values. Move large data into a ConfigMap.",
    ]);
  });

  test('labels written by a JSON patch are checked as emitted', () => {
    const { app, chart } = routing();
    configMap(chart, 'Cm', 'cm').addJsonPatch(JsonPatch.add('/metadata/labels', { 'bad key!': 'x' }));

    expect(invalid(app.synthesize().violations)).toEqual([expect.stringMatching(/^invalid object: 'metadata\.labels' key "bad key!" of ConfigMap cm declared by 'cdn\/Routing\/Cm'/)]);
  });
});

describe('CAP010: the check', () => {
  test('is a pure function: it returns violations for an odd manifest and does not throw', () => {
    // GIVEN a context whose one object has a manifest of the wrong shape
    const facts: any = {
      objects: [{ path: 'cdn/Routing/Cm', declarer: 'cdn/Routing/Cm', chart: 'cdn/Routing', identity: { group: '', kind: '', name: '' }, key: '', manifest: { metadata: ['not', 'a', 'map'] } }],
    };

    // WHEN run
    const found = objectValidity.run({ facts, claims: [] });

    // THEN apiVersion, kind and metadata are reported
    expect(found.map((v) => v.message.split(' of ')[0])).toEqual([
      "invalid object: 'apiVersion' (missing)",
      "invalid object: 'kind' (missing)",
      "invalid object: 'metadata' (a list)",
    ]);
  });

  test('app.synth() refuses an invalid object with a CompositionError', () => {
    const { app, chart } = routing();
    configMap(chart, 'Settings', 'Bad Name');

    expect(() => app.synth()).toThrow(CompositionError);
    expect(() => app.synth()).toThrow(/^The composition was refused with 1 violation:\nCAP010 invalid object: 'metadata\.name' \("Bad Name"\)/);
  });
});

describe('a generated name names what the user can change', () => {
  test('CAP010 for a name cdk8s generated names the construct path it came from and metadata.name', () => {
    // GIVEN a Service whose construct ids make a name the API server refuses for a Service (a DNS-1035 label: no '.')
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    new ApiObject(chart, 'echo.v1', { apiVersion: 'v1', kind: 'Service', spec: { ports: [{ port: 80 }] } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the fix points at the construct ids and at metadata.name, not at "the object"
    expect(violations.map((v) => v.message)).toEqual([
      expect.stringMatching(/^invalid object: 'metadata\.name' \("routing-echo\.v1-c8[0-9a-f]{6}"\) of Service routing-echo\.v1-c8[0-9a-f]{6} declared by 'cdn\/Routing\/echo\.v1' must be a DNS-1035 label .* cdk8s generated the name from the construct path 'cdn\/Routing\/echo\.v1': change those construct ids, or set metadata\.name\.$/),
    ]);
  });
});
