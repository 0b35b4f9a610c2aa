import { Capability, CapabilityApp, Field, FieldMap, InterfaceContract, SharedBase } from '../src';
import { coded, literal, lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';

afterAll(removeReleaseDirs);

interface EdgeVariant {
  /** The contract's version. */
  readonly version: string;
  /** The contract's fields. */
  readonly fields: FieldMap;
  /** The values `Base` publishes. */
  readonly values: Record<string, unknown>;
}

/** GIVEN-side builder: capability `cdn`, contract `Edge` with the variant's fields, published by shared base `Base`. */
function edge(app: CapabilityApp, v: EdgeVariant): void {
  const cdn = new Capability(app, 'cdn');
  const contract = new InterfaceContract(cdn, 'Edge', { version: v.version, fields: v.fields });
  contract.publish(new SharedBase(cdn, 'Base'), v.values);
}

/** Release 1.0.0 of the edge contract: two required strings, one a DNS name. */
const V1: EdgeVariant = {
  version: '1.0.0',
  fields: { originDnsName: Field.dnsName(), tenantHeader: Field.string() },
  values: { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id' },
};

/** The CAP007 message for a change that needs a bigger bump than the version got: breaking only when it needs a major one. */
function needsBump(changes: string, needs: string, from: string, to: string, suggested: string): string {
  const title = needs === 'major' ? 'breaking interface change' : 'interface change without its version bump';
  return `${title}: 'cdn/Edge' changed (${changes}), which needs a ${needs} version bump, but the version went from ${from} to ${to}. Set the version to ${suggested}, or undo the change.`;
}

describe('CAP007: interface compatibility against the lock', () => {
  describe('removing a field needs a major bump', () => {
    const removed = { fields: { originDnsName: Field.dnsName() }, values: { originDnsName: 'origin.example.com' } };

    test('removing tenantHeader with 1.0.0 -> 1.1.0 is refused, naming the field, the versions and 2.0.0', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 1.1.0 drops tenantHeader
      const { violations } = nextRelease(series, edge, { version: '1.1.0', ...removed });

      // THEN one CAP007 says the field was removed and the version must be 2.0.0
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'tenantHeader' removed (needs major)", 'major', '1.0.0', '1.1.0', '2.0.0'), paths: ['cdn/Edge'] },
      ]);
    });

    test('removing tenantHeader with 1.0.0 -> 2.0.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 2.0.0 drops tenantHeader
      const { violations, plan } = nextRelease(series, edge, { version: '2.0.0', ...removed });

      // THEN it is accepted and the plan records the removal
      expect(violations).toEqual([]);
      expect(plan?.changes.interface).toEqual([{ contract: 'cdn/Edge', field: 'tenantHeader', change: 'removed', needs: 'major' }]);
    });
  });

  describe('retyping a field needs a major bump', () => {
    const retyped = { fields: { originDnsName: Field.dnsName(), tenantHeader: Field.number() }, values: { originDnsName: 'origin.example.com', tenantHeader: 42 } };

    test('tenantHeader string -> number with 1.0.0 -> 1.1.0 is refused', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 1.1.0 makes tenantHeader a number
      const { violations } = nextRelease(series, edge, { version: '1.1.0', ...retyped });

      // THEN one CAP007 names the old and new types
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'tenantHeader' retyped from string to number (needs major)", 'major', '1.0.0', '1.1.0', '2.0.0'), paths: ['cdn/Edge'] },
      ]);
    });

    test('tenantHeader string -> number with 1.0.0 -> 2.0.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 2.0.0 makes tenantHeader a number
      const { violations } = nextRelease(series, edge, { version: '2.0.0', ...retyped });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });
  });

  describe('making an optional field required needs a major bump', () => {
    const optional: EdgeVariant = {
      version: '1.0.0',
      fields: { ...V1.fields, maxTenants: Field.number().optional() },
      values: { ...V1.values, maxTenants: 10 },
    };
    const required = { fields: { ...V1.fields, maxTenants: Field.number() }, values: { ...V1.values, maxTenants: 10 } };

    test('maxTenants optional -> required with 1.0.0 -> 1.1.0 is refused', () => {
      // GIVEN the real lock of 1.0.0 with maxTenants optional
      const series = lockedSeries(edge, optional);

      // WHEN 1.1.0 makes maxTenants required
      const { violations } = nextRelease(series, edge, { version: '1.1.0', ...required });

      // THEN one CAP007 says it was made required
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'maxTenants' made required (needs major)", 'major', '1.0.0', '1.1.0', '2.0.0'), paths: ['cdn/Edge'] },
      ]);
    });

    test('maxTenants optional -> required with 1.0.0 -> 2.0.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0 with maxTenants optional
      const series = lockedSeries(edge, optional);

      // WHEN 2.0.0 makes maxTenants required
      const { violations } = nextRelease(series, edge, { version: '2.0.0', ...required });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });
  });

  describe('tightening a field needs a major bump', () => {
    const loose: EdgeVariant = { ...V1, fields: { originDnsName: Field.string(), tenantHeader: Field.string() } };
    const tight = { fields: { originDnsName: Field.dnsName(), tenantHeader: Field.string() }, values: V1.values };

    test('originDnsName Field.string() -> Field.dnsName() with 1.0.0 -> 1.1.0 is refused', () => {
      // GIVEN the real lock of 1.0.0 with originDnsName any string
      const series = lockedSeries(edge, loose);

      // WHEN 1.1.0 declares it a DNS name
      const { violations } = nextRelease(series, edge, { version: '1.1.0', ...tight });

      // THEN one CAP007 says it was tightened to hostname
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'originDnsName' tightened from any string to hostname (needs major)", 'major', '1.0.0', '1.1.0', '2.0.0'), paths: ['cdn/Edge'] },
      ]);
    });

    test('originDnsName Field.string() -> Field.dnsName() with 1.0.0 -> 2.0.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0 with originDnsName any string
      const series = lockedSeries(edge, loose);

      // WHEN 2.0.0 declares it a DNS name
      const { violations } = nextRelease(series, edge, { version: '2.0.0', ...tight });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });

    test('loosening Field.dnsName() -> Field.string() with a patch bump is refused: it needs a minor bump', () => {
      // GIVEN the real lock of 1.0.0 with originDnsName a DNS name
      const series = lockedSeries(edge, V1);

      // WHEN 1.0.1 declares it any string
      const { violations } = nextRelease(series, edge, { ...loose, version: '1.0.1' });

      // THEN one CAP007 says it was loosened and suggests 1.1.0
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'originDnsName' loosened from hostname to any string (needs minor)", 'minor', '1.0.0', '1.0.1', '1.1.0'), paths: ['cdn/Edge'] },
      ]);
    });
  });

  describe('adding a field needs at least a minor bump', () => {
    const withOptional = { fields: { ...V1.fields, maxTenants: Field.number().optional() }, values: V1.values };
    const withRequired = { fields: { ...V1.fields, maxTenants: Field.number() }, values: { ...V1.values, maxTenants: 10 } };

    test('adding optional maxTenants with 1.0.0 -> 1.0.1 is refused, suggesting 1.1.0', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 1.0.1 adds an optional field
      const { violations } = nextRelease(series, edge, { version: '1.0.1', ...withOptional });

      // THEN one CAP007 says a minor bump is needed
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'maxTenants' added (optional) (needs minor)", 'minor', '1.0.0', '1.0.1', '1.1.0'), paths: ['cdn/Edge'] },
      ]);
    });

    test('adding optional maxTenants with 1.0.0 -> 1.1.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 1.1.0 adds an optional field
      const { violations, plan } = nextRelease(series, edge, { version: '1.1.0', ...withOptional });

      // THEN it is accepted and the plan records the addition
      expect(violations).toEqual([]);
      expect(plan?.changes.interface).toEqual([{ contract: 'cdn/Edge', field: 'maxTenants', change: 'added (optional)', needs: 'minor' }]);
    });

    test('adding optional maxTenants with a major bump 1.0.0 -> 2.0.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 2.0.0 adds an optional field
      const { violations } = nextRelease(series, edge, { version: '2.0.0', ...withOptional });

      // THEN a bigger bump than needed is accepted
      expect(violations).toEqual([]);
    });

    test('adding required maxTenants with 1.0.0 -> 1.0.1 is refused, suggesting 1.1.0', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 1.0.1 adds a required field
      const { violations } = nextRelease(series, edge, { version: '1.0.1', ...withRequired });

      // THEN one CAP007 says a minor bump is needed
      expect(coded(violations)).toEqual([
        { code: 'CAP007', message: needsBump("field 'maxTenants' added (required) (needs minor)", 'minor', '1.0.0', '1.0.1', '1.1.0'), paths: ['cdn/Edge'] },
      ]);
    });

    test('adding required maxTenants with 1.0.0 -> 1.1.0 is accepted', () => {
      // GIVEN the real lock of 1.0.0
      const series = lockedSeries(edge, V1);

      // WHEN 1.1.0 adds a required field
      const { violations } = nextRelease(series, edge, { version: '1.1.0', ...withRequired });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });
  });

  describe('versions only go up', () => {
    test('1.2.0 -> 1.1.0 with no field change is refused as going backwards', () => {
      // GIVEN the real lock of 1.2.0
      const series = lockedSeries(edge, { ...V1, version: '1.2.0' });

      // WHEN the same contract is released as 1.1.0
      const { violations } = nextRelease(series, edge, { ...V1, version: '1.1.0' });

      // THEN one CAP007 says the version went backwards
      expect(coded(violations)).toEqual([
        {
          code: 'CAP007',
          message: "breaking interface change: the version of 'cdn/Edge' went backwards from 1.2.0 to 1.1.0. Versions only go up: set it to 1.2.0 or higher.",
          paths: ['cdn/Edge'],
        },
      ]);
    });

    test('a lower version is refused as going backwards even with a compatible field change', () => {
      // GIVEN the real lock of 1.2.0
      const series = lockedSeries(edge, { ...V1, version: '1.2.0' });

      // WHEN 1.1.0 adds an optional field
      const { violations } = nextRelease(series, edge, { version: '1.1.0', fields: { ...V1.fields, maxTenants: Field.number().optional() }, values: V1.values });

      // THEN the violation is the backwards one
      expect(violations.map((v) => v.code)).toEqual(['CAP007']);
      expect(violations[0].message).toMatch(literal('went backwards from 1.2.0 to 1.1.0'));
    });

    test('no change with the same version is accepted', () => {
      // GIVEN the real lock of 1.2.0
      const series = lockedSeries(edge, { ...V1, version: '1.2.0' });

      // WHEN the same contract is released again as 1.2.0
      const { violations, plan } = nextRelease(series, edge, { ...V1, version: '1.2.0' });

      // THEN it is accepted with no interface change
      expect(violations).toEqual([]);
      expect(plan?.changes.interface).toEqual([]);
    });

    test('no change with a patch bump is accepted', () => {
      // GIVEN the real lock of 1.2.0
      const series = lockedSeries(edge, { ...V1, version: '1.2.0' });

      // WHEN the same contract is released as 1.2.1
      const { violations } = nextRelease(series, edge, { ...V1, version: '1.2.1' });

      // THEN it is accepted
      expect(violations).toEqual([]);
    });
  });

  test('several changes are listed largest bump first in one violation', () => {
    // GIVEN the real lock of 1.0.0
    const series = lockedSeries(edge, V1);

    // WHEN 1.1.0 removes tenantHeader and adds optional maxTenants
    const { violations } = nextRelease(series, edge, {
      version: '1.1.0',
      fields: { originDnsName: Field.dnsName(), maxTenants: Field.number().optional() },
      values: { originDnsName: 'origin.example.com' },
    });

    // THEN one CAP007 lists the removal (major) before the addition (minor) and asks for 2.0.0
    expect(coded(violations)).toEqual([
      {
        code: 'CAP007',
        message: needsBump("field 'tenantHeader' removed (needs major); field 'maxTenants' added (optional) (needs minor)", 'major', '1.0.0', '1.1.0', '2.0.0'),
        paths: ['cdn/Edge'],
      },
    ]);
  });
});
