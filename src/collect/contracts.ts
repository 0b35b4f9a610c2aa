import { SecretValue, Stack, Token } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import type { ContractFact, ContractFieldFact, ObjectFact, PublishedValueFact, ReferenceFact } from './facts';
import type { FieldMap } from '../contract/field';
import type { InterfaceContract } from '../contract/interface-contract';
import { shapeOf } from '../private/field-value';
import { RuntimeRouting } from '../routing/runtime-routing';
import { TENANT_HEADER_FIELD, tenantHeaderOf } from '../routing/tenant-header';

const SECRET_REFERENCE = /\{\{resolve:(secretsmanager|ssm-secure):/;

/**
 * The facts of every contract: its fields, what each `publish` call gave, its
 * consumers, and who reads which field. A field is read by an object whose
 * manifest renders a handle of it (a `secretKeyRef` to the bound Secret, or the
 * whole Secret through `envFrom` or a volume), and by the tenant routes of a
 * `RuntimeRouting`, which match on the published `tenantHeader`.
 *
 * @param indexOf the index of an `ApiObject` in `objects`
 */
export function collectContracts(
  contracts: readonly InterfaceContract<FieldMap>[],
  objects: readonly ObjectFact[],
  references: readonly ReferenceFact[],
  routings: readonly RuntimeRouting[],
  indexOf: ReadonlyMap<ApiObject, number>,
): ContractFact[] {
  return contracts.map((contract) => {
    const fields: Record<string, ContractFieldFact> = {};
    for (const [name, field] of Object.entries(contract.fields)) {
      fields[name] = {
        type: field.type,
        required: field.required,
        ...(field.format ? { format: field.format } : {}),
        ...(field.description ? { description: field.description } : {}),
      };
    }
    return {
      path: contract.node.path,
      name: contract.contractName,
      capability: contract.capability.node.path,
      capabilityId: contract.capability.node.id,
      version: contract.version,
      parameterName: contract.parameterName,
      fields,
      publications: contract.publications.map((p) => ({ stack: p.stack.node.path, values: publishedValues(p.values, p.stack) })),
      consumers: contract.consumptions.map((c) => ({
        chart: c.chart.node.path,
        secretName: c.secretName,
        ...(c.namespace ? { namespace: c.namespace } : {}),
      })),
      readers: readersOf(contract, objects, references, routings, indexOf),
      undeclaredReads: contract.undeclaredReads.map((r) => ({ chart: r.chart.node.path, field: r.field })),
    };
  });
}

function publishedValues(values: Readonly<Record<string, unknown>>, stack: Stack): Record<string, PublishedValueFact> {
  const out: Record<string, PublishedValueFact> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out[name] = { ...shapeOf(value, Token.isUnresolved(value)), secret: isSecret(value, stack) };
  }
  return out;
}

function isSecret(value: unknown, stack: Stack): boolean {
  if (SecretValue.isSecretValue(value)) return true;
  if (!Token.isUnresolved(value) && typeof value !== 'string') return false;
  try {
    return SECRET_REFERENCE.test(JSON.stringify(stack.resolve(value)));
  } catch {
    return false;
  }
}

/** Who reads which field: references to a binding's Secret in its namespace, and tenant routes. */
function readersOf(
  contract: InterfaceContract<FieldMap>,
  objects: readonly ObjectFact[],
  references: readonly ReferenceFact[],
  routings: readonly RuntimeRouting[],
  indexOf: ReadonlyMap<ApiObject, number>,
): ContractFact['readers'] {
  const bindings = new Set(contract.consumptions.map((c) => `${c.namespace ?? ''}\u0000${c.secretName}`));
  const names = Object.keys(contract.fields);
  const readers: Array<ContractFact['readers'][number]> = [];
  const seen = new Set<string>();
  const add = (field: string, o: ObjectFact) => {
    const id = `${field}\u0000${o.declarer}`;
    if (seen.has(id)) return;
    seen.add(id);
    readers.push({ field, reader: o.declarer, chart: o.chart });
  };
  for (const r of references) {
    if (r.target.group !== '' || r.target.kind !== 'Secret') continue;
    if (!bindings.has(`${r.target.namespace ?? ''}\u0000${r.target.name}`)) continue;
    const o = objects[r.from];
    if (r.key === undefined) names.forEach((n) => add(n, o));
    else if (names.includes(r.key)) add(r.key, o);
  }
  if (TENANT_HEADER_FIELD in contract.fields) {
    for (const routing of routings) {
      if (tenantHeaderOf(routing.capability).contract !== contract) continue;
      for (const route of routing.tenantRoutes) {
        const index = indexOf.get(route);
        if (index !== undefined) add(TENANT_HEADER_FIELD, objects[index]);
      }
    }
  }
  return readers;
}

/** The charts of the composition that are a `RuntimeRouting`. */
export function routingsOf(charts: readonly Chart[]): RuntimeRouting[] {
  return charts.filter((c): c is RuntimeRouting => RuntimeRouting.isRuntimeRouting(c));
}
