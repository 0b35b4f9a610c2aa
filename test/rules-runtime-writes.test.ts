import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { LedgerBuilder } from '../src/collect/ledger/field-ledger';
import { FieldSet } from '../src/collect/ledger/field-set';
import { recordRuntimeWrites } from '../src/collect/ledger/runtime-writes';

/** A ConfigMap declared by `app/Chart/Config`, recorded with one Contribution's annotation; `patch` adds a plain JSON patch first. */
function recordConfigMap(patch: boolean) {
  const chart = new Chart(new App(), 'Chart');
  const apiObject = new ApiObject(chart, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config' }, data: { mode: 'fast' } });
  if (patch) apiObject.addJsonPatch(JsonPatch.replace('/data/mode', 'slow'));
  const manifest = apiObject.toJson();
  const ledger = new LedgerBuilder();
  const contribution = { writer: 'team/Extra', fields: { metadata: { annotations: { 'team.example.com/on-call': 'team-1' } } } };
  recordRuntimeWrites({ apiObject, declarer: 'app/Chart/Config', key: 'cm', label: 'ConfigMap config', manifest }, [contribution], ledger);
  return ledger.facts();
}

describe('the writes of an object with a Contribution', () => {
  test('without a JSON patch, no index of escape hatches is made, and the declarer writes every leaf it rendered (identity fields are no writes)', () => {
    // the index is the declared leaves as sets, which `EscapeHatchWrites` makes when a plain write first asks
    const made = jest.spyOn(FieldSet, 'of');
    try {
      // WHEN
      const facts = recordConfigMap(false);

      // THEN
      expect(made).not.toHaveBeenCalled();
      expect(facts.objects[0].writes.map((w) => [w.writer.kind, w.path.join('.')])).toEqual([
        ['declaration', 'data.mode'],
        ['contribution-fields', 'metadata.annotations.team.example.com/on-call'],
      ]);
    } finally {
      made.mockRestore();
    }
  });

  test("with a plain JSON patch of a declared value, the patch is the declarer's override and the declarer's write gives way", () => {
    const facts = recordConfigMap(true);
    expect(facts.objects[0].writes.map((w) => [w.writer.kind, w.path.join('.')])).toEqual([
      ['json-patch', 'data.mode'],
      ['contribution-fields', 'metadata.annotations.team.example.com/on-call'],
    ]);
    expect(facts.overrides.map((o) => [o.path.join('.'), o.rendered, o.patched])).toEqual([['data.mode', 'fast', 'slow']]);
  });
});
