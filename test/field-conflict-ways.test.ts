/**
 * CAP002 names, per writer, how it wrote the contested field (its props, a Contribution's prop, the plain call and
 * where, in the cluster), so the fix "drop it from one of them" points at the line to change; where the ledger does
 * not know how a write was made, it lists every way a writer can write.
 */
import { fieldConflicts } from '../src/check/rules/field-conflicts';
import type { Facts, FieldWrite } from '../src/collect/facts';
import { callWriter, contributionWriter, declarationWriter, runtimeWriter, Writer } from '../src/collect/ledger/writer';

const OBJECT = 'apps/Deployment shop/web';
const REPLICAS = ['spec', 'replicas'];

/** The CAP002 messages of one object written by `writers`, each writing `paths` (spec.replicas by default), in this order. */
function messagesOf(writers: ReadonlyArray<Writer | [Writer, string[]]>, kind: 'k8s' | 'cfn' = 'k8s'): string[] {
  const writes: FieldWrite[] = writers.map((w) => (Array.isArray(w) ? { writer: w[0], path: w[1] } : { writer: w, path: REPLICAS }));
  const facts = { ledger: { objects: [{ label: OBJECT, kind, writes }] } } as unknown as Facts;
  return fieldConflicts.run({ facts } as any).map((f) => f.message);
}

const conflict = (a: string, b: string, ways: string) =>
  `field conflict: ${a} and ${b} both write spec.replicas of ${OBJECT}. Give each field one owner: drop it from one of them (${ways}).`;

const WEB = declarationWriter('shop/Routing/Web');

describe('CAP002 names how each writer wrote the field', () => {
  test.each<[string, Writer, string, string]>([
    ['a Contribution\'s fields', contributionWriter('shop/Team/Scale', 'contribution-fields'),
      "'shop/Team/Scale'", "'shop/Team/Scale' writes it as a Contribution, in its fields"],
    ['a Contribution\'s patches', contributionWriter('shop/Team/Scale', 'contribution-patches'),
      "'shop/Team/Scale'", "'shop/Team/Scale' writes it as a Contribution, in its patches"],
    ['a Contribution\'s write callback', contributionWriter('shop/Team/Scale', 'contribution-write'),
      "'shop/Team/Scale'", "'shop/Team/Scale' writes it as a Contribution, in its write callback"],
    ['a plain addJsonPatch, with its site', callWriter('json-patch', 'shop/Team/Web', { call: 1, site: 'main.ts:12', method: 'addJsonPatch' }),
      "'shop/Team/Web' (addJsonPatch at main.ts:12)", "'shop/Team/Web' writes it through addJsonPatch at main.ts:12"],
    ['a plain override, without a site: its call', callWriter('override', 'shop/Team/Web', { call: 2, method: 'addOverride' }),
      "'shop/Team/Web' (addOverride #2)", "'shop/Team/Web' writes it through addOverride #2"],
    ['a Tag', callWriter('tag', 'shop/Team', { call: 1, site: 'main.ts:9', method: 'Tags.of().add' }),
      "'shop/Team' (Tags.of().add at main.ts:9)", "'shop/Team' writes it through Tags.of().add at main.ts:9"],
    ['a Tag of the app itself', callWriter('tag', '', { call: 1, site: 'main.ts:3', method: 'Tags.of().add' }),
      'the app (Tags.of().add at main.ts:3)', 'the app writes it through Tags.of().add at main.ts:3'],
  ])('%s, beside the declarer\'s props', (_, other, named, way) => {
    // the declarer's name sorts first
    expect(messagesOf([WEB, other])).toEqual([conflict("'shop/Routing/Web'", named, `'shop/Routing/Web' declares it in its props or methods; ${way}`)]);
  });

  test('an aspect: how it wrote, and the aspect kept off the resource', () => {
    const aspect = callWriter('aspect', 'shop/Base', { call: 1, site: 'main.ts:13', method: 'Aspects.of().add' });
    expect(messagesOf([declarationWriter('shop/Base/Bucket'), aspect])).toEqual([
      `field conflict: 'shop/Base' (Aspects.of().add at main.ts:13) and 'shop/Base/Bucket' both write spec.replicas of ${OBJECT}. `
      + "Give each field one owner: drop it from one of them ('shop/Base' writes it through Aspects.of().add at main.ts:13; 'shop/Base/Bucket' declares it in its props or methods), "
      + 'or keep the aspect off the resource (its visit skips it, or it is added to a scope that does not hold it).',
    ]);
  });

  test('a runtime writer: in the cluster, and what that does to the deploy-time value', () => {
    expect(messagesOf([WEB, runtimeWriter('shop/Routing/Scaler')])).toEqual([
      `field conflict: 'shop/Routing/Scaler' (RuntimeWriter) and 'shop/Routing/Web' both write spec.replicas of ${OBJECT}. `
      + "Give each field one owner: drop it from one of them ('shop/Routing/Scaler' writes it in the cluster, as a RuntimeWriter; 'shop/Routing/Web' declares it in its props or methods): "
      + 'the deploy-time value would be overwritten or would overwrite the controller.',
    ]);
  });

  test('a stack\'s own tags, named apart from a Tag added to the stack', () => {
    const stackTags: Writer = { ...declarationWriter('shop/Base'), method: 'stack tags' };
    const tag = callWriter('tag', 'shop/Base', { call: 1, site: 'main.ts:9', method: 'Tags.of().add' });
    expect(messagesOf([[stackTags, ['Tags', 'team']], [tag, ['Tags', 'team']]], 'cfn')).toEqual([
      `field conflict: 'shop/Base' (Tags.of().add at main.ts:9) and 'shop/Base' (stack tags) both write Tags.team of ${OBJECT}. `
      + "Give each field one owner: drop it from one of them ('shop/Base' writes it through Tags.of().add at main.ts:9; 'shop/Base' declares it in its stack tags).",
    ]);
  });

  test('a Contribution that wrote the fields with two of its props names both', () => {
    // the Contribution writes spec.replicas with its fields and spec.paused with its patches: one writer, two ways
    const fields = contributionWriter('shop/Team/Tune', 'contribution-fields');
    const patches = contributionWriter('shop/Team/Tune', 'contribution-patches');
    expect(messagesOf([[WEB, REPLICAS], [WEB, ['spec', 'paused']], [fields, REPLICAS], [patches, ['spec', 'paused']]])).toEqual([
      `field conflict: 'shop/Routing/Web' and 'shop/Team/Tune' both write spec.paused, spec.replicas of ${OBJECT}. `
      + "Give each field one owner: drop it from one of them ('shop/Routing/Web' declares it in its props or methods; 'shop/Team/Tune' writes it as a Contribution, in its fields and patches).",
    ]);
  });

  test('writers that wrote the same way are named together; more than three by their number', () => {
    const scale = ['A', 'B', 'C', 'D'].map((id) => contributionWriter(`shop/Team/${id}`));
    expect(messagesOf([WEB, ...scale.slice(0, 2)])).toEqual([
      `field conflict: 'shop/Routing/Web', 'shop/Team/A' and 'shop/Team/B' all write spec.replicas of ${OBJECT}. `
      + "Give each field one owner: drop it from all of them but one ('shop/Routing/Web' declares it in its props or methods; 'shop/Team/A' and 'shop/Team/B' write it as a Contribution, in its fields).",
    ]);
    expect(messagesOf([WEB, ...scale])).toEqual([
      `field conflict: 'shop/Routing/Web', 'shop/Team/A', 'shop/Team/B', 'shop/Team/C' and 'shop/Team/D' all write spec.replicas of ${OBJECT}. `
      + "Give each field one owner: drop it from all of them but one ('shop/Routing/Web' declares it in its props or methods; 4 of them write it as a Contribution, in its fields).",
    ]);
  });

  test('where the ledger does not know how a writer wrote (an override no call was recorded for), every way a writer can write', () => {
    const unrecorded = callWriter('override', 'shop/Base/Bucket/Resource');
    expect(messagesOf([declarationWriter('shop/Base/Bucket'), contributionWriter('shop/Base/Ops/Name'), unrecorded].map((w) => [w, ['BucketName']] as [Writer, string[]]), 'cfn')).toEqual([
      `field conflict: 'shop/Base/Bucket', 'shop/Base/Bucket/Resource' (addPropertyOverride) and 'shop/Base/Ops/Name' all write BucketName of ${OBJECT}. `
      + 'Give each field one owner: drop it from all writers but one (its props, Contribution, addJsonPatch or addPropertyOverride).',
    ]);
  });
});
