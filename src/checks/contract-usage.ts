import { SecretValue, Stack, Token } from 'aws-cdk-lib';
import { FieldMap } from '../contract/field';
import { InterfaceContract } from '../contract/interface-contract';
import { violation, Violation, ViolationCode } from '../violation';
import { Check } from './check';
import { semver } from '../private/lazy';

const SECRET_REFERENCE = /\{\{resolve:(secretsmanager|ssm-secure):/;

/**
 * `CAP009`: the contract used wrongly: an invalid version, more than one
 * contract in a capability, a declared field not published, an undeclared
 * field published, a value of the wrong type, a secret published, a consumer
 * reading an undeclared field. An invalid parameter name is `CAP010`.
 */
export const contractUsage: Check = {
  name: 'contract usage',
  code: ViolationCode.CONTRACT_MISUSE,
  run({ model }) {
    const found: Violation[] = [];
    const contracts = model.contracts;
    for (const capability of model.capabilities) {
      const mine = contracts.filter((c) => c.capability === capability);
      if (mine.length > 1) {
        const paths = mine.map((c) => c.node.path);
        found.push(misuse(`capability '${capability.node.path}' declares ${mine.length} contracts (${paths.map((p) => `'${p}'`).join(', ')}); exactly one interface crosses to runtime. Merge their fields into one InterfaceContract.`, paths));
      }
    }
    for (const contract of contracts) found.push(...contractViolations(contract));
    return found;
  },
};

function contractViolations(contract: InterfaceContract<FieldMap>): Violation[] {
  const path = contract.node.path;
  const found: Violation[] = contract.misuses.map((m) =>
    violation(m.code === 'CAP010' ? ViolationCode.INVALID_OBJECT : ViolationCode.CONTRACT_MISUSE, m.message, m.paths),
  );
  if (!semver().valid(contract.version)) {
    found.push(misuse(`'version' (${JSON.stringify(contract.version)}) of '${path}' must be a semver version such as "1.2.0".`, [path]));
  }
  const [publication] = contract.publications;
  if (!publication) {
    const required = Object.entries(contract.fields).filter(([, f]) => f.required).map(([n]) => n);
    if (required.length > 0) {
      found.push(misuse(`'${path}' is never published, so its fields ${required.join(', ')} reach no consumer. Call contract.publish(sharedBase, values).`, [path]));
    }
    return found;
  }
  const stack = publication.stack;
  const where = [path, stack.node.path];
  for (const [name, field] of Object.entries(contract.fields)) {
    const value = publication.values[name];
    if (value === undefined) {
      if (field.required) found.push(misuse(`'${stack.node.path}' does not publish the declared field '${name}' of '${path}'. Publish a value for it, or declare it with .optional().`, where));
      continue;
    }
    if (isSecret(value, stack)) {
      found.push(misuse(`'${stack.node.path}' publishes a secret as '${name}' of '${path}'; the interface is not a secret store. Publish the secret's name or ARN and read the secret itself at runtime.`, where));
      continue;
    }
    const problem = field.problemWith(value);
    if (problem) found.push(misuse(`'${stack.node.path}' publishes '${name}' of '${path}' with the wrong type: ${problem}.`, where));
  }
  for (const name of Object.keys(publication.values)) {
    if (!(name in contract.fields)) {
      found.push(misuse(`'${stack.node.path}' publishes '${name}', which '${path}' does not declare (declared: ${Object.keys(contract.fields).join(', ')}). Declare the field in the contract or stop publishing it.`, where));
    }
  }
  return found;
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

function misuse(message: string, paths: string[]): Violation {
  return violation(ViolationCode.CONTRACT_MISUSE, `contract misuse: ${message}`, paths);
}
