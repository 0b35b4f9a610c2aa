import { callWriter, contributionWriter, declarationWriter, describeWriter, writerName, writerNameWithoutSite } from '../src/collect/ledger/writer';

describe('Writer', () => {
  test('a Contribution is one writer whichever of its props writes', () => {
    // GIVEN / WHEN
    const kinds = (['contribution-fields', 'contribution-patches', 'contribution-write'] as const).map((k) => contributionWriter('cdn/Team/Timers', k));

    // THEN
    expect(new Set(kinds.map((w) => w.id))).toEqual(new Set(['contribution:cdn/Team/Timers']));
    expect(kinds.map((w) => w.kind)).toEqual(['contribution-fields', 'contribution-patches', 'contribution-write']);
  });

  test('the declarer and a Contribution of one path are different writers', () => {
    // GIVEN / WHEN
    const ids = [declarationWriter('cdn/Routing/Web').id, contributionWriter('cdn/Routing/Web').id];

    // THEN
    expect(ids[0]).not.toEqual(ids[1]);
  });

  test('two plain calls on one object are two writers, told apart by their call, not their site', () => {
    // GIVEN / WHEN
    const first = callWriter('json-patch', 'cdn/Routing/Web/Resource', { call: 1, site: 'main.ts:12' });
    const second = callWriter('json-patch', 'cdn/Routing/Web/Resource', { call: 2, site: 'main.ts:13' });
    const moved = callWriter('json-patch', 'cdn/Routing/Web/Resource', { call: 1, site: 'main.ts:40' });

    // THEN
    expect(first.id).not.toEqual(second.id);
    expect(first.id).toEqual(moved.id);
    expect(first).toEqual({ path: 'cdn/Routing/Web/Resource', kind: 'json-patch', call: 1, site: 'main.ts:12', id: 'json-patch:cdn/Routing/Web/Resource#1' });
  });

  test('reports name a writer by its path, and a plain call by what it is and where', () => {
    // GIVEN / WHEN / THEN
    expect(writerName(declarationWriter('cdn/Routing/Web'))).toBe('cdn/Routing/Web');
    expect(writerName(contributionWriter('cdn/Team/Timers', 'contribution-write'))).toBe('cdn/Team/Timers');
    expect(writerName(callWriter('json-patch', 'cdn/Routing/Web/Resource'))).toBe('cdn/Routing/Web/Resource (addJsonPatch)');
    expect(writerName(callWriter('json-patch', 'cdn/Routing/Web/Resource', { call: 2 }))).toBe('cdn/Routing/Web/Resource (addJsonPatch #2)');
    expect(writerName(callWriter('override', 'cdn/Base/Bucket/Resource', { call: 1, site: 'main.ts:9', method: 'addOverride' }))).toBe('cdn/Base/Bucket/Resource (addOverride at main.ts:9)');
    expect(writerName(callWriter('tag', 'cdn/Base', { call: 1, site: 'main.ts:3' }))).toBe('cdn/Base (Tags.of().add at main.ts:3)');
  });

  test('messages quote the construct path alone', () => {
    // GIVEN / WHEN / THEN
    expect(describeWriter(declarationWriter('cdn/Routing/Web'))).toBe("'cdn/Routing/Web'");
    expect(describeWriter(callWriter('json-patch', 'cdn/Routing/Web/Resource', { call: 1, site: 'main.ts:12' }))).toBe("'cdn/Routing/Web/Resource' (addJsonPatch at main.ts:12)");
  });

  test("a call an installed package's code made is named inside the package, reached from the program's line", () => {
    // GIVEN an override the package @acme/queue-capability made, which the program's main.ts:5 called into
    const writer = callWriter('override', 'queues/Base/Table/Resource', {
      call: 1, site: 'main.ts:5', package: { name: '@acme/queue-capability', version: '1.0.0' }, method: 'addPropertyOverride',
    });

    // WHEN / THEN
    expect(describeWriter(writer)).toBe("'queues/Base/Table/Resource' (addPropertyOverride inside the installed package @acme/queue-capability@1.0.0, reached from main.ts:5)");
    // AND a package whose version is unknown is named alone
    expect(writerName(callWriter('aspect', 'queues', { call: 1, site: 'main.ts:5', package: { name: '@acme/queue-capability' } })))
      .toBe('queues (Aspects.of().add inside the installed package @acme/queue-capability, reached from main.ts:5)');
  });

  test("a lock's name of a package's call, without its site, keeps neither the program's line nor the package's release", () => {
    // GIVEN / WHEN / THEN
    expect(writerNameWithoutSite('queues/Routing/Settings (addJsonPatch inside the installed package @acme/queue-capability@1.0.0, reached from main.ts:5)'))
      .toBe('queues/Routing/Settings (addJsonPatch)');
    expect(writerNameWithoutSite('queues/Routing/Settings (addJsonPatch at main.ts:5)')).toBe('queues/Routing/Settings (addJsonPatch)');
  });
});
