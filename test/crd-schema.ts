// Compiles a CRD's published OpenAPI v3 schema with ajv, so tests check our custom resources against the
// schema their project ships (something we did not write).
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const INT32 = 2 ** 31;

/**
 * The validator of `schema` (a CRD version's `schema.openAPIV3Schema`). Kubernetes' own keywords (`nullable`,
 * `x-kubernetes-*`) are ignored (strict: false); the formats are checked, not warned about once per use:
 * ajv-formats' (`date-time`, ...) and OpenAPI's integer formats, `int32` and `int64`, as the API server's
 * validation reads them (kube-openapi `validate/formats.go`: an integer in the signed range of its width).
 *
 * @param schema the OpenAPI v3 schema
 * @returns ajv's validate function, with all errors
 */
export function crdSchemaValidator(schema: object): ValidateFunction {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  return ajv.compile(schema);
}
