import * as fs from 'fs';
import * as path from 'path';

/** The variable through which the aws-cdk CLI hands an app its context (`cdk.json`, `cdk.context.json`, `--context`). */
export const CONTEXT_ENV = 'CDK_CONTEXT_JSON';

/**
 * The variable naming the file where the aws-cdk CLI puts the context that does not fit in `CDK_CONTEXT_JSON`
 * (a large `cdk.context.json` of lookups); aws-cdk-lib's `cxapi.CONTEXT_OVERFLOW_LOCATION_ENV`, spelled so.
 */
export const CONTEXT_OVERFLOW_ENV = 'CONTEXT_OVERFLOW_LOCATION_ENV';

/**
 * The context an aws-cdk `App` would see, lowest precedence first: the app's
 * `context` prop; when the aws-cdk CLI did not start the program (no
 * `CDK_CONTEXT_JSON`), the `context` of `cdk.json` and then `cdk.context.json`
 * in `dir`, which the CLI would have read; then `CDK_CONTEXT_JSON`, as
 * `App.loadContext` reads it (the CLI's merge of those files and `--context`),
 * and the file `CONTEXT_OVERFLOW_LOCATION_ENV` names, where the CLI puts what
 * does not fit in the variable.
 *
 * @throws when a file or the variable holds JSON that is not an object
 */
export function awsCdkContext(props: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv, dir: string): Record<string, unknown> {
  const context: Record<string, unknown> = { ...props };
  const fromEnv = env[CONTEXT_ENV];
  const overflow = env[CONTEXT_OVERFLOW_ENV];
  if ((fromEnv === undefined || fromEnv === '') && !overflow) {
    Object.assign(context, readObject(path.join(dir, 'cdk.json'), 'context'));
    Object.assign(context, readObject(path.join(dir, 'cdk.context.json')));
  } else {
    if (fromEnv) Object.assign(context, parseObject(fromEnv, CONTEXT_ENV));
    if (overflow) Object.assign(context, readObject(overflow, undefined, `${CONTEXT_OVERFLOW_ENV} (${overflow})`));
  }
  return context;
}

function readObject(file: string, key?: string, required?: string): Record<string, unknown> {
  if (!fs.existsSync(file)) {
    if (required) throw new Error(`${required} names no file: it must be the context file the aws-cdk CLI wrote`);
    return {};
  }
  const parsed = parseObject(fs.readFileSync(file, 'utf-8'), file);
  if (key === undefined) return parsed;
  const inner = parsed[key];
  if (inner === undefined) return {};
  if (!isObject(inner)) throw new Error(`'${key}' in ${file} must be an object of context values, such as { "@aws-cdk/core:target-partitions": ["aws"] }`);
  return inner;
}

function parseObject(text: string, where: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`${where} is not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(parsed)) throw new Error(`${where} must hold a JSON object`);
  return parsed;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
