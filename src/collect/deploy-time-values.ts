import { Reference, Token, Tokenization } from 'aws-cdk-lib';
import { declarerOf } from './declarer';
import type { DeployTimeValueFact, ObjectFact } from './facts';
import { forEachScalar } from '../private/walk';

/** The text aws-cdk renders for a string token it could not resolve. */
const TOKEN_TEXT = /\$\{Token\[[^\]]*\]\}/;

/**
 * Every aws-cdk token (a deployment-time value) in the runtime manifests,
 * values and map keys, with the construct it refers to when it is a reference.
 * Only the interface contract may carry such a value across; the boundary rule
 * judges what is found here.
 */
export function collectDeployTimeValues(objects: readonly ObjectFact[]): DeployTimeValueFact[] {
  const found: DeployTimeValueFact[] = [];
  objects.forEach((o, object) => {
    if (o.duplicateOf !== undefined) return;
    forEachScalar(o.manifest, (scalar, path, isKey) => {
      if (!isDeploymentTimeValue(scalar)) return;
      const producer = producerOf(scalar);
      found.push({ object, path: [...path], isKey, ...(producer ? { producer } : {}) });
    });
  });
  return found;
}

function isDeploymentTimeValue(value: string | number): boolean {
  if (typeof value === 'string') return Token.isUnresolved(value) || TOKEN_TEXT.test(value);
  return Token.isUnresolved(value);
}

/** The construct a token refers to, when it is a reference (`bucket.bucketName`, `distribution.domainName`). */
function producerOf(value: string | number): string | undefined {
  let tokens: unknown[];
  try {
    tokens = typeof value === 'string' ? Tokenization.reverseString(value).tokens : [Tokenization.reverseNumber(value)];
  } catch {
    // token text this process never made (a manifest written elsewhere): a leak all the same, with no producer to name
    return undefined;
  }
  for (const token of tokens) {
    if (token && Reference.isReference(token)) return declarerOf(token.target).node.path;
  }
  return undefined;
}
