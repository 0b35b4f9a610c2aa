import { Token } from 'aws-cdk-lib';
export { TIER_LIMITS } from '../private/ssm-tier';

/** aws-cdk token text in a string: it stands for a value whose length is known only at deploy time. */
const TOKEN_TEXT = /[$#]\{Token\[[^\]]*\]\}/g;

/** The size of the JSON a contract publishes: exact when no value is a token, else a lower bound (tokens counted as empty). */
export interface PublishedSize {
  /** Bytes of the JSON, UTF-8, tokens counted as empty. */
  readonly bytes: number;
  /** False when some value is a token, so the real size is larger. */
  readonly exact: boolean;
}

/**
 * The size of the JSON of `values` as `publish` writes it into its parameter
 * (`stack.toJsonString`), known at synth or bounded from below.
 */
export function publishedSize(values: Readonly<Record<string, unknown>>): PublishedSize {
  let exact = true;
  let json: string | undefined;
  try {
    json = JSON.stringify(values, (_, v) => {
      if (typeof v === 'string' && Token.isUnresolved(v)) {
        exact = false;
        return v.replace(TOKEN_TEXT, '');
      }
      if (typeof v === 'number' && Token.isUnresolved(v)) {
        exact = false;
        return 0;
      }
      if (v !== null && typeof v === 'object' && Token.isUnresolved(v)) {
        exact = false;
        return '';
      }
      return v;
    });
  } catch {
    return { bytes: 0, exact: false };
  }
  return { bytes: Buffer.byteLength(json ?? ''), exact };
}
