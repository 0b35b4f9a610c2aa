import { sep } from 'path';
import { aws_ssm as ssm, CfnElement, CfnResource, Reference, SecretValue, Stack, Token } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { declarerOf } from './declarer';
import { moduleFileExporting } from './duplicate-packages';
import type { ContractFact, ContractFieldFact, ObjectFact, PublishedParameterFact, PublishedValueFact, ReferenceFact } from './facts';
import { visitTokens } from './token-walk';
import type { FieldMap } from '../contract/field';
import type { InterfaceContract, Publication } from '../contract/interface-contract';
import { publishedSize } from '../contract/parameter-size';
import { creationSite, installedPackage, InstalledPackage } from '../private/creation-site';
import { shapeOf } from '../private/field-value';
import { lazily } from '../private/lazy';
import { RuntimeRouting } from '../routing/runtime-routing';
import { TENANT_HEADER_FIELD, tenantHeaderOf } from '../routing/tenant-header';

const SECRET_REFERENCE = /\{\{resolve:(secretsmanager|ssm-secure):/;

/**
 * Resource attributes that hold a secret, by CloudFormation type, for an L1
 * attribute read without its L2 (`CfnAccessKey.attrSecretAccessKey`). The L2s
 * mark theirs by wrapping them in a `SecretValue`, found by `secretAttributes`.
 */
const SECRET_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  'AWS::IAM::AccessKey': ['SecretAccessKey'],
  'AWS::Cognito::UserPoolClient': ['ClientSecret'],
};

/** The attributes aws-cdk marks secret, as the reference tokens inside each `SecretValue` a construct holds. */
export type SecretAttributes = ReadonlyMap<unknown, string>;

/**
 * The facts of every contract: its fields, what each `publish` call gave, its
 * consumers, and who reads which field. A field is read by an object whose
 * manifest renders a handle of it (a `secretKeyRef` to the bound Secret, or the
 * whole Secret through `envFrom` or a volume), and by the tenant routes of a
 * `RuntimeRouting`, which match on the published `tenantHeader`.
 *
 * The `ExternalSecret` a consumption creates is the contract's: each consumer
 * records it as its `binding`, so the lock can tell the binding of a major from
 * an object of a reader, and deletion safety judges its removal by the readers
 * of that major (`CAP008` when a major is retired while a locked reader remains).
 *
 * @param indexOf the index of an `ApiObject` in `objects`
 */
export function collectContracts(
  contracts: readonly InterfaceContract<FieldMap>[],
  objects: readonly ObjectFact[],
  references: readonly ReferenceFact[],
  routings: readonly RuntimeRouting[],
  indexOf: ReadonlyMap<ApiObject, number>,
  constructs: readonly IConstruct[] = [],
): ContractFact[] {
  // walked on first need: a published value that holds no token (a header name, a literal) never asks
  const secrets = lazily(() => secretAttributes(constructs));
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
    return withPackage(contract, {
      path: contract.node.path,
      name: contract.contractName,
      capability: contract.capability.node.path,
      capabilityId: contract.capability.node.id,
      version: contract.version,
      parameterName: contract.parameterName,
      fields,
      publications: contract.publications.map((p) => ({
        stack: p.stack.node.path,
        values: publishedValues(p.values, p.stack, secrets),
        ...(p.parameter ? { parameter: parameterOf(p, p.parameter) } : {}),
      })),
      consumers: contract.consumptions.map((c) => {
        const binding = indexOf.get(c.externalSecret);
        return {
          chart: c.chart.node.path,
          secretName: c.secretName,
          ...(c.namespace ? { namespace: c.namespace } : {}),
          ...(binding !== undefined ? { binding } : {}),
        };
      }),
      readers: readersOf(contract, objects, references, routings, indexOf),
      undeclaredReads: contract.undeclaredReads.map((r) => ({ chart: r.chart.node.path, field: r.field })),
      earlyValueReads: contract.earlyValueReads.map((r) => ({ chart: r.chart.node.path, field: r.field })),
    });
  });
}

/**
 * The fact with its `package`: the installed package that made the contract, if one did. Found on first read,
 * which only a refusal of the contract's change makes (a lookup over the loaded modules, about 0.4 ms): the
 * package of the creation site when sites are recorded (the frame in `node_modules` the program called), else
 * the package whose module exports the class of the contract's capability or of a construct between them (the
 * package's `QueueWorkerCapability`).
 */
function withPackage(contract: InterfaceContract<FieldMap>, fact: Omit<ContractFact, 'package'>): ContractFact {
  let found: InstalledPackage | null | undefined;
  return Object.defineProperty(fact, 'package', {
    enumerable: true,
    get: () => (found ??= creationSite(contract)?.package ?? classPackage(contract) ?? null) ?? undefined,
  });
}

/** The installed package of each class looked up so far (null: none), for a process that synthesizes again. */
const classPackages = new WeakMap<Function, InstalledPackage | null>();

function classPackage(contract: InterfaceContract<FieldMap>): InstalledPackage | undefined {
  const scopes = contract.node.scopes;
  const capability = scopes.indexOf(contract.capability);
  for (let i = scopes.length - 2; i >= Math.max(capability, 0); i--) {
    const ctor = scopes[i].constructor;
    let found = classPackages.get(ctor);
    if (found === undefined) {
      const file = moduleFileExporting(ctor);
      found = (file !== undefined && file.includes(`${sep}node_modules${sep}`) ? installedPackage(file) : undefined) ?? null;
      classPackages.set(ctor, found);
    }
    if (found) return found;
  }
  return undefined;
}

/** The parameter a publication created: its tier and the size of what it holds. */
function parameterOf(p: Publication, parameter: ssm.StringParameter): PublishedParameterFact {
  const cfn = parameter.node.defaultChild as ssm.CfnParameter;
  return { path: parameter.node.path, tier: typeof cfn.tier === 'string' ? cfn.tier : 'Standard', ...publishedSize(p.values) };
}

/** What each published value is, and what makes it a secret; `secrets` is called only for a value that holds a token. */
function publishedValues(
  values: Readonly<Record<string, unknown>>,
  stack: Stack,
  secrets: () => SecretAttributes,
): Record<string, PublishedValueFact> {
  const out: Record<string, PublishedValueFact> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const source = secretSourceOf(value, stack, secrets);
    out[name] = { ...shapeOf(value, Token.isUnresolved(value)), secret: source !== undefined, ...(source ? { secretSource: source } : {}) };
  }
  return out;
}

/**
 * What makes a published value a secret, or undefined when nothing does: a
 * `SecretValue` in any form (itself, `unsafeUnwrap()`, `toString()`, inside a
 * longer string or an `Fn.join`), a reference to a `CfnParameter` with
 * `noEcho`, an attribute aws-cdk marks secret (`AccessKey.secretAccessKey`,
 * also unwrapped), or a Secrets Manager or SecureString dynamic reference.
 */
function secretSourceOf(value: unknown, stack: Stack, secrets: () => SecretAttributes): string | undefined {
  if (SecretValue.isSecretValue(value)) return 'a SecretValue';
  if (!Token.isUnresolved(value) && typeof value !== 'string') return undefined;
  let source: string | undefined;
  const resolved = visitTokens(value, stack, (t) => {
    if (source) return 'stop';
    if (SecretValue.isSecretValue(t)) source = 'a SecretValue';
    else if (secrets().has(t)) source = secrets().get(t);
    else if (Reference.isReference(t)) source = secretReferenceSource(t);
    return source ? 'stop' : 'descend';
  });
  if (source) return source;
  let text: string;
  try {
    text = typeof resolved === 'string' ? resolved : JSON.stringify(resolved) ?? '';
  } catch {
    return undefined;
  }
  const reference = SECRET_REFERENCE.exec(text);
  return reference ? `a {{resolve:${reference[1]}:...}} dynamic reference` : undefined;
}

/** The secret a reference names: a NoEcho parameter, or a secret attribute of an L1 resource. */
function secretReferenceSource(t: Reference): string | undefined {
  const target = t.target;
  if (!CfnElement.isCfnElement(target)) return undefined;
  if ((target as { noEcho?: unknown }).noEcho === true) return `the NoEcho CfnParameter '${target.node.path}'`;
  if (CfnResource.isCfnResource(target) && (SECRET_ATTRIBUTES[target.cfnResourceType] ?? []).includes(t.displayName)) {
    return `attribute ${t.displayName} of '${declarerOf(target).node.path}', a secret`;
  }
  return undefined;
}

/**
 * Every reference token inside a `SecretValue` that a construct holds
 * (`AccessKey.secretAccessKey` wraps `Fn::GetAtt SecretAccessKey`), to how
 * messages name it: the attributes aws-cdk marks secret, found where aws-cdk
 * puts them rather than listed.
 */
function secretAttributes(constructs: readonly IConstruct[]): Map<unknown, string> {
  const found = new Map<unknown, string>();
  // indexed loops, not `for...of` (V8 optimizes this walk in a synth's one run: the iterator protocol's implicit
  // try/finally cost more to compile than the loop); the keys, not `Object.entries`: a pair per property of every
  // construct was most of this walk's cost
  for (let i = 0; i < constructs.length; i++) {
    const c = constructs[i];
    const properties = Object.keys(c);
    for (let k = 0; k < properties.length; k++) {
      const property = properties[k];
      const held: unknown = (c as unknown as Record<string, unknown>)[property];
      if (!SecretValue.isSecretValue(held)) continue;
      const name = `${property.replace(/^_+/, '')} of '${declarerOf(c).node.path}', which aws-cdk marks secret`;
      // the wrapped value, not the SecretValue itself, which refuses to resolve under @aws-cdk/core:checkSecretUsage;
      // only the tokens it is made of: not their parts (the ARN inside a Secrets Manager reference is no secret)
      visitTokens(held.unsafeUnwrap(), c, (t) => {
        if (!found.has(t)) found.set(t, name);
        return 'stop';
      });
    }
  }
  return found;
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
