import { Reference, Token, Tokenization } from 'aws-cdk-lib';
import { Check } from './check';
import { formatPath } from '../ledger/field-path';
import { RuntimeObject } from '../model/composition-model';
import { declarerOf } from '../model/declarer';
import { describeIdentity } from '../model/object-identity';
import { forEachScalar } from '../private/walk';
import { violation, Violation, ViolationCode } from '../violation';

const TOKEN_TEXT = /\$\{Token\[[^\]]*\]\}/;

/**
 * `CAP006`: an aws-cdk token (a deployment-time value) in a runtime manifest.
 * Only the interface contract crosses from deployment time to runtime; without
 * this check the token renders silently as the text `${Token[TOKEN.16]}`.
 */
export const boundaryLeaks: Check = {
  name: 'boundary leaks',
  code: ViolationCode.BOUNDARY_LEAK,
  run({ model }) {
    const found: Violation[] = [];
    for (const object of model.objects) {
      forEachScalar(object.manifest, (scalar, path, isKey) => {
        if (isDeploymentTimeValue(scalar)) found.push(leak(object, [...path], scalar, isKey ? 'key' : 'value'));
      });
    }
    return found;
  },
};

function leak(object: RuntimeObject, path: string[], value: unknown, what: 'value' | 'key'): Violation {
  const declarer = object.declarer.node.path;
  const producer = producerOf(value);
  const where = what === 'key' ? `as a key at ${formatPath(path)}` : `at ${formatPath(path)}`;
  return violation(
    ViolationCode.BOUNDARY_LEAK,
    `boundary leak: ${describeIdentity(object.identity)} declared by '${declarer}' holds a deployment-time value ${where}${producer ? ` produced by '${producer}'` : ''}, which would render as unresolved token text such as "\${Token[TOKEN.16]}". Publish it through the capability's InterfaceContract and read it with contract.consume(chart).`,
    producer ? [declarer, producer] : [declarer],
  );
}

function isDeploymentTimeValue(value: unknown): boolean {
  if (typeof value === 'string') return Token.isUnresolved(value) || TOKEN_TEXT.test(value);
  return typeof value === 'number' && Token.isUnresolved(value);
}

/** The construct a token refers to, when it is a reference (`bucket.bucketName`, `distribution.domainName`). */
function producerOf(value: unknown): string | undefined {
  const tokens = typeof value === 'string' ? Tokenization.reverseString(value).tokens : [Tokenization.reverseNumber(value as number)];
  for (const token of tokens) {
    if (token && Reference.isReference(token)) return declarerOf(token.target).node.path;
  }
  return undefined;
}
