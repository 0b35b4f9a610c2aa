import * as path from 'path';
import { ApiObject, Yaml } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { declaredApiObjectProps, includedTemplateOf } from './upstream-state';

/**
 * Which file each included object came from, so a message can name the file to edit rather than "its props".
 *
 * cdk8s' `Include` reads its file with `Yaml.load(url)` and declares each document as an `ApiObject` whose props
 * are that document (the same object); aws-cdk's `CfnInclude` reads its template with its `readYamlSync(file)`
 * and keeps the result as its `template`. Neither keeps the path, so the two loaders are wrapped, once, to
 * remember the path of each document and template they return.
 */
const files = new WeakMap<object, string>();

/** Whether any file was read: a composition that includes none skips looking. */
let anyRead = false;

let yamlWrapped = false;
let templatesWrapped = false;

/** Starts remembering the file of each document cdk8s' `Yaml.load` returns (what `Include` declares). Idempotent. */
export function recordIncludedFiles(): void {
  if (yamlWrapped) return;
  yamlWrapped = true;
  const original = Yaml.load;
  Yaml.load = function load(urlOrFile: string): any[] {
    const documents = original.call(Yaml, urlOrFile);
    for (const d of documents) {
      if (d !== null && typeof d === 'object') files.set(d, urlOrFile);
    }
    anyRead ||= documents.length > 0;
    return documents;
  };
}

/**
 * Starts remembering the template file of each aws-cdk `CfnInclude` (its `readYamlSync`, which the
 * construct calls through the module object, so replacing the export reaches it). Idempotent; a no-op when the
 * installed aws-cdk-lib has no such module.
 */
export function recordIncludedTemplates(): void {
  if (templatesWrapped) return;
  templatesWrapped = true;
  let utils: { readYamlSync?: (file: string) => unknown };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- not in aws-cdk-lib's exports: by its file
    utils = require(path.join(awsCdkLibFolder(), 'cloudformation-include', 'lib', 'file-utils.js'));
  } catch {
    return;
  }
  const original = utils.readYamlSync;
  if (typeof original !== 'function') return;
  utils.readYamlSync = function readYamlSync(file: string): unknown {
    const template = original(file);
    if (template !== null && typeof template === 'object') {
      files.set(template, file);
      anyRead = true;
    }
    return template;
  };
}

/** aws-cdk-lib's folder: from the loaded copy's index when it is loaded (resolving it anew takes milliseconds). */
function awsCdkLibFolder(): string {
  const index = `${path.sep}aws-cdk-lib${path.sep}index.js`;
  const loaded = Object.keys(require.cache).find((f) => f.endsWith(index));
  return path.dirname(loaded ?? require.resolve('aws-cdk-lib'));
}

/** The jsii type of a construct (`cdk8s.Include`), which tells cdk8s' and aws-cdk's classes apart across copies. */
function fqnOf(c: IConstruct | undefined): string | undefined {
  const rtti = (c?.constructor as { [k: symbol]: { fqn?: string } } | undefined)?.[Symbol.for('jsii.rtti')];
  return rtti?.fqn;
}

/**
 * The file an object of the composition was read from, as the program gave it: a cdk8s `Include`'s `url`
 * (not `Helm`'s, whose file is a temporary rendering), or the `templateFile` of the aws-cdk `CfnInclude` that
 * declared a CloudFormation resource. Undefined for anything else.
 */
export function includedFileOf(construct: IConstruct): string | undefined {
  const scope = construct.node.scope;
  const fqn = fqnOf(scope);
  if (fqn === 'cdk8s.Include' && ApiObject.isApiObject(construct)) {
    const props = declaredApiObjectProps(construct);
    return props !== null && typeof props === 'object' ? files.get(props) : undefined;
  }
  if (fqn === 'aws-cdk-lib.cloudformation_include.CfnInclude' && scope) {
    const template = includedTemplateOf(scope);
    return template !== undefined ? files.get(template) : undefined;
  }
  return undefined;
}

/** True once an `Include` or `CfnInclude` has read a file in this process. */
export function anyIncludedFile(): boolean {
  return anyRead;
}
