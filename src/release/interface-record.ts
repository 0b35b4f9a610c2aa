import type { RuntimeWriterRecord } from './runtime-writer-record';
import type { ContractFact } from '../collect/facts';

/** One contract as `interface.json` records it. */
export interface InterfaceRecord {
  /** The capability's path. */
  readonly capability: string;
  /** The contract's name (its construct id). */
  readonly name: string;
  /** Its semver version. */
  readonly version: string;
  /** Where the values are published. */
  readonly parameter: {
    /** The store that holds the values. */
    readonly store: 'aws-ssm-parameter-store';
    /** The fully qualified parameter name. */
    readonly name: string;
    /** The parameter type. */
    readonly type: 'String';
    /** How the values are encoded in the parameter: one JSON object. */
    readonly encoding: 'json';
  };
  /**
   * The JSON Schema (draft 2020-12) of the published JSON: each field's type and format, and the required ones. It
   * leaves other properties allowed, so that the values of a later minor version, which may add optional fields,
   * still pass the schema a reader of an earlier minor was built against (docs/releases.md).
   */
  readonly schema: Record<string, unknown>;
  /** Who produces and who consumes each field, by construct path. */
  readonly fields: Record<string, {
    /** The stacks that publish the field, by construct path. */
    readonly producedBy: string[];
    /** The charts that read the field, by construct path. */
    readonly consumedBy: string[];
    /**
     * The objects that read the field (their declaring constructs), by construct
     * path: those whose manifests render a handle of it, and the tenant routes
     * that match on a published `tenantHeader`. Absent in locks written before it was recorded.
     */
    readonly readBy?: string[];
  }>;
}

/** The content of `interface.json`: the versioned interface of every capability, one file. */
export interface InterfaceArtifact {
  /** Format version of this file. */
  readonly formatVersion: 1;
  /** One record per contract, in creation order. */
  readonly interfaces: InterfaceRecord[];
  /**
   * The controllers that write objects of the composition in the cluster (`RuntimeWriter`), in creation
   * order: the fields the deployer does not own, by whom, as whom and under which field manager. Absent
   * when the composition declares none.
   */
  readonly runtimeWriters?: RuntimeWriterRecord[];
}

/**
 * Builds `interface.json` from the contracts: name, version, the JSON Schema
 * of the fields, the parameter, and producers and consumers per field; and the
 * runtime writers, when there are any. Values are never written: the artifact
 * describes the interface, it does not carry it.
 *
 * @param runtimeWriters the records of the composition's runtime writers (`runtimeWriterRecords`)
 */
export function interfaceArtifact(contracts: readonly ContractFact[], runtimeWriters: readonly RuntimeWriterRecord[] = []): InterfaceArtifact {
  return {
    formatVersion: 1,
    interfaces: contracts.map(interfaceRecord),
    ...(runtimeWriters.length > 0 ? { runtimeWriters: [...runtimeWriters] } : {}),
  };
}

/** One contract as `interface.json` (and the lock) records it. */
export function interfaceRecord(contract: ContractFact): InterfaceRecord {
  const names = Object.keys(contract.fields);
  const properties: Record<string, unknown> = {};
  for (const name of names) {
    const f = contract.fields[name];
    properties[name] = { type: f.type, ...(f.format ? { format: f.format } : {}), ...(f.description ? { description: f.description } : {}) };
  }
  const fields: InterfaceRecord['fields'] = {};
  for (const name of names) {
    const readers = contract.readers.filter((r) => r.field === name);
    fields[name] = {
      producedBy: contract.publications.filter((p) => p.values[name] !== undefined).map((p) => p.stack),
      consumedBy: [...new Set(readers.map((r) => r.chart))],
      readBy: [...new Set(readers.map((r) => r.reader))],
    };
  }
  return {
    capability: contract.capability,
    name: contract.name,
    version: contract.version,
    parameter: { store: 'aws-ssm-parameter-store', name: contract.parameterName, type: 'String', encoding: 'json' },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: `${contract.capabilityId}/${contract.name} ${contract.version}`,
      type: 'object',
      properties,
      required: names.filter((n) => contract.fields[n].required),
    },
    fields,
  };
}
