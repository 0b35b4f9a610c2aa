import * as fs from 'fs';
import * as path from 'path';

/** The variable through which the aws-cdk CLI hands an app its context (`cdk.json`, `cdk.context.json`, `--context`). */
export const CONTEXT_ENV = 'CDK_CONTEXT_JSON';

/**
 * The context an aws-cdk `App` would see, lowest precedence first: the app's
 * `context` prop; when the aws-cdk CLI did not start the program (no
 * `CDK_CONTEXT_JSON`), the `context` of `cdk.json` and then `cdk.context.json`
 * in `dir`, which the CLI would have read; then `CDK_CONTEXT_JSON`, as
 * `App.loadContext` reads it (the CLI's merge of those files and `--context`).
 *
 * @throws when a file or the variable holds JSON that is not an object
 */
export function awsCdkContext(props: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv, dir: string): Record<string, unknown> {
  const context: Record<string, unknown> = { ...props };
  const fromEnv = env[CONTEXT_ENV];
  if (fromEnv === undefined || fromEnv === '') {
    Object.assign(context, readObject(path.join(dir, 'cdk.json'), 'context'));
    Object.assign(context, readObject(path.join(dir, 'cdk.context.json')));
  } else {
    Object.assign(context, parseObject(fromEnv, CONTEXT_ENV));
  }
  return context;
}

function readObject(file: string, key?: string): Record<string, unknown> {
  if (!fs.existsSync(file)) return {};
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
