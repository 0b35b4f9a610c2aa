import { ApiObject, Include, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Construct } from 'constructs';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting } from '../src';

/**
 * A JSON patch `add` or `replace` of a whole map deletes the keys of it its value lacks. A key another writer
 * declared there is then written by both (one declares it, the other removes it), as a `remove` of the key is:
 * CAP002, naming both and the map, never an accepted manifest that lost the key.
 */

function messages(app: ReturnType<typeof CapabilityTesting.app>): string[] {
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
}

function configMap(scope: Construct): ApiObject {
  return new ApiObject(scope, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
}

function setup() {
  const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  return { app, routing };
}

/** The CAP002 of a Contribution that replaced data, by its `prop` (`patches`, `write callback`), over the declarer's data.a. */
const dropsA = (prop: string) => "CAP002 field conflict: 'shop/Routing/Other' replaces the map data of ConfigMap cm, which drops data.a, written by 'shop/Routing/Cm'. "
  + 'Give each field one owner: write the keys of data one by one instead of the whole map, or leave the map to one writer '
  + `('shop/Routing/Cm' declares data.a in its props or methods; 'shop/Routing/Other' sets the map data as a Contribution, in its ${prop}).`;

describe('a Contribution patch that sets a whole map over a key the declarer wrote there is CAP002', () => {
  test('JsonPatch.replace of the map', () => {
    // GIVEN a ConfigMap that declares data.a, and a Contribution that replaces data with a map without it
    const { app, routing } = setup();
    const cm = configMap(routing);
    new Contribution(routing, 'Other', { target: cm, patches: [JsonPatch.replace('/data', { c: '3' })] });

    // THEN both writers are named, and the map
    expect(messages(app)).toEqual([dropsA('patches')]);
  });

  test('JsonPatch.add of the map (add over an existing member replaces it)', () => {
    const { app, routing } = setup();
    const cm = configMap(routing);
    new Contribution(routing, 'Other', { target: cm, patches: [JsonPatch.add('/data', { c: '3' })] });

    expect(messages(app)).toEqual([dropsA('patches')]);
  });

  test('a write callback that adds the map with addJsonPatch', () => {
    const { app, routing } = setup();
    const cm = configMap(routing);
    new Contribution(routing, 'Other', { target: cm, write: (o) => o.addJsonPatch(JsonPatch.add('/data', { c: '3' })) });

    expect(messages(app)).toEqual([dropsA('write callback')]);
  });

  test('a replace with a map that keeps the declared key, with its value, and adds one: still CAP002', () => {
    // The patch writes data.a again (its value holds it): two writers of one field, which this library refuses
    // whatever the values (`JsonPatch.replace('/data/a', '1')` is CAP002 already). Applied as two field managers,
    // server-side apply would share data.a between them, and the declarer could never drop it: the patch still
    // sets it. So this stays the plain two-writers conflict, not a removal.
    const { app, routing } = setup();
    const cm = configMap(routing);
    new Contribution(routing, 'Other', { target: cm, patches: [JsonPatch.replace('/data', { a: '1', c: '3' })] });

    expect(messages(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Cm' and 'shop/Routing/Other' both write data.a of ConfigMap cm. "
      + "Give each field one owner: drop it from one of them ('shop/Routing/Cm' declares it in its props or methods; 'shop/Routing/Other' writes it as a Contribution, in its patches).",
    ]);
  });

  test("an Include'd object's map", () => {
    const { app, routing } = setup();
    const included = new Include(routing, 'App', { url: 'test/fixtures/adopt2/config.yaml' });
    new Contribution(routing, 'Other', { target: included.apiObjects[0], patches: [JsonPatch.replace('/data', { c: '3' })] });

    expect(messages(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Other' replaces the map data of ConfigMap shop/orders-config, which drops data.LOG_LEVEL, "
      + "written by 'shop/Routing/App/orders-config-configmap-shop'. Give each field one owner: write the keys of data one by one instead of the whole map, or leave the map to one writer "
      + "('shop/Routing/App/orders-config-configmap-shop' declares data.LOG_LEVEL in the file 'test/fixtures/adopt2/config.yaml' (read by an Include): drop the field from its document in that file; "
      + "'shop/Routing/Other' sets the map data as a Contribution, in its patches).",
    ]);
  });

  test("a cdk8s-plus Deployment's pod template labels", () => {
    const { app, routing } = setup();
    const web = new kplus.Deployment(routing, 'Web', { containers: [{ image: 'ghcr.io/example/web:1.0.0', portNumber: 8080 }] });
    new Contribution(routing, 'Other', { target: web, write: (d) => ApiObject.of(d).addJsonPatch(JsonPatch.replace('/spec/template/metadata/labels', { team: 'a' })) });

    // THEN the label the Deployment's selector matches is the one dropped
    expect(messages(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/Other' replaces the map spec.template.metadata.labels of apps/Deployment routing-web-c802ecf1, "
      + 'which drops spec.template.metadata.labels["cdk8s.io/metadata.addr"], written by \'shop/Routing/Web\'. '
      + 'Give each field one owner: write the keys of spec.template.metadata.labels one by one instead of the whole map, or leave the map to one writer '
      + '(\'shop/Routing/Web\' declares spec.template.metadata.labels["cdk8s.io/metadata.addr"] in its props or methods; '
      + '\'shop/Routing/Other\' sets the map spec.template.metadata.labels as a Contribution, in its write callback).',
    ]);
  });
});

describe('the one writer of a map replaces it freely', () => {
  test("the declarer's own plain patch of the map it declared is its escape hatch, and the plan credits no deleted key", () => {
    // GIVEN a ConfigMap whose own plain patch replaces the data it declared
    const { app, routing } = setup();
    const cm = configMap(routing);
    cm.addJsonPatch(JsonPatch.replace('/data', { c: '3' }));

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN accepted; the manifest holds the patched map, and the declarer no longer writes data.a
    expect(result.violations).toEqual([]);
    const written = result.runtimeObjects.find((o: any) => o.kind === 'ConfigMap');
    expect(written.data).toEqual({ c: '3' });
    const declarer = result.plan!.writers.find((o: any) => o.label === 'ConfigMap cm')!.writers.find((w: any) => w.kind === 'declaration');
    expect(declarer?.fields?.['f:data']).toBeUndefined();
  });
});
