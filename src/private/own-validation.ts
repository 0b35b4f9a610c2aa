import type { IValidation } from 'constructs';
import { brand, hasBrand } from './brand';

/**
 * A validation of cdk-capability's own, branded as such, for `node.addValidation`: a refusal tells it from one the
 * program added (`isOwnValidation`), whose message is the program's, not ours. The brand works across duplicate
 * installs of this package.
 *
 * @param validation the validation, `{ validate: () => problems }`
 * @returns the same object
 */
export function ownValidation<T extends IValidation>(validation: T): T {
  brand(validation, 'Validation');
  return validation;
}

/** True when `validation` is one of cdk-capability's own (`ownValidation`). */
export function isOwnValidation(validation: IValidation): boolean {
  return hasBrand(validation, 'Validation');
}
