import * as fs from 'fs';
import * as path from 'path';
import { parseObject, WAITED_KINDS } from './apply-commands';
import { writerObjectProblems } from './plan-objects';
import { hasIdentity } from './runtime-files';
import { CODE_TITLES, ViolationCode } from '../check/finding';
import { FIELD_MANAGER_PREFIX } from '../cluster/field-manager';
import { parseFieldsV1 } from '../cluster/fields-v1';
import { FIELD_MANAGER_MAX_BYTES, isFieldManagerName } from '../private/field-manager-name';
import { schemaProblems, schemaValidator, shown } from '../private/json-schema';
import { packageRoot } from '../private/package-root';
import type { Plan } from '../render/writers/plan-json';

/** The plan's JSON Schema: the `plan` of `plan --json`'s output (docs/plan-output.schema.json, shipped in the package). */
export const PLAN_SCHEMA_FILE = path.join(packageRoot(), 'docs', 'plan-output.schema.json');

/** The most problems reported for one plan file; the rest are counted in the last one. */
const MAX_PLAN_PROBLEMS = 20;

const validate = schemaValidator(PLAN_SCHEMA_FILE, { pointer: '#/$defs/plan', unionTypes: true });

/**
 * A stack as `cdk deploy` selects it: its path in the construct tree, segments
 * of letters, digits, `.`, `_` and `-`, none starting with `-`, `.` or `_`.
 * Nothing the aws-cdk CLI would read as an option or a glob (`*`, `?`, `[`,
 * `{`, `!`): it passes a selector to minimatch. (The CLI ignores selectors
 * after `--`, so the pattern is what keeps an edited plan from adding options.)
 */
const STACK_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
/** CloudFormation's stack-name pattern. */
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;
/** A runtime file as synth names it. */
const RUNTIME_FILE = /^runtime\/[a-z0-9][a-z0-9._-]*\.yaml$/;
/** A DNS-1123 subdomain, as the names of the objects apply waits for are (kubectl would read a leading `-` as an option). */
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** A plan read from its file, or what is wrong with the file. */
export type PlanFile = { readonly plan: Plan } | { readonly problems: string[] };

/**
 * Reads `<outdir>/plan.json` for `apply`: JSON, valid against the plan's JSON
 * Schema, and holding nothing a command line could take for something else:
 * deploy steps name stacks by a plain path (and CloudFormation stack name),
 * runtime steps name files under `runtime/` and objects by valid names; and
 * each object with writers is one a runtime step lists.
 *
 * @returns the plan, or one problem per violation, each naming its JSON pointer
 */
export function readPlanFile(planFile: string): PlanFile {
  let text: string;
  try {
    text = fs.readFileSync(planFile, 'utf-8');
  } catch (e) {
    return { problems: [`it cannot be read (${(e as Error).message})`] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { problems: [`it is not valid JSON (${(e as Error).message})`] };
  }
  // another tool's JSON: one line saying so, not every field a plan has
  const foreign = foreignPlanProblem(parsed);
  if (foreign) return { problems: [foreign] };
  const problems = schemaProblems(validate(), parsed, 'a plan', MAX_PLAN_PROBLEMS, () => [
    ...commandLineProblems(parsed as Plan),
    ...writerProblems(parsed as Plan),
    ...writerObjectProblems(parsed as Plan),
  ]);
  return problems.length > 0 ? { problems } : { plan: parsed as Plan };
}

/**
 * Why a JSON document is no plan at all, before its schema is checked field by field: not an object, an object
 * with neither a plan's `version` nor its `steps` (another tool's file); undefined for anything else (a plan of
 * another format version is told by its `/version` line).
 */
function foreignPlanProblem(parsed: unknown): string | undefined {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `it holds ${Array.isArray(parsed) ? 'a JSON array' : parsed === null ? 'null' : `a JSON ${typeof parsed}`}, not a plan (an object with version, capabilities, changes and steps)`;
  }
  const o = parsed as Record<string, unknown>;
  if (!('version' in o) && !('steps' in o)) {
    const keys = Object.keys(o);
    return `it is JSON but no plan: a plan has version, capabilities, changes and steps at its top, this has ${keys.length === 0 ? 'nothing' : keys.slice(0, 5).map((k) => shown(k)).join(', ') + (keys.length > 5 ? ` and ${keys.length - 5} more` : '')}`;
  }
  return undefined;
}

/**
 * The refusal of a plan file that is not as synth wrote it: one `CAP016` line per problem.
 *
 * @param planFile the file, as the lines name it
 * @param what what is wrong with it, before each problem (`is not a plan cdk-capability wrote`)
 * @param fix what to do, and what was not done
 */
export function planFileRefusal(planFile: string, what: string, problems: readonly string[], fix: string): string {
  const title = CODE_TITLES[ViolationCode.PLAN_FILE];
  return problems.map((p) => `${ViolationCode.PLAN_FILE} ${title}: '${planFile}' ${what}: ${p}. ${fix}\n`).join('');
}

/** What the schema cannot say: the values apply puts on command lines are what synth writes there. */
function commandLineProblems(plan: Plan): string[] {
  const problems: string[] = [];
  plan.steps.forEach((s, i) => {
    const at = `/steps/${i}`;
    if (s.lifecycle === 'deploy') {
      if (!STACK_PATH.test(s.id)) problems.push(`${at}/id (${shown(s.id)}) must be a stack's path: segments of letters, digits, '.', '_' and '-', each starting with a letter or digit`);
      if (s.stackName !== undefined && !STACK_NAME.test(s.stackName)) problems.push(`${at}/stackName (${shown(s.stackName)}) must be a CloudFormation stack name: a letter, then letters, digits and '-'`);
      return;
    }
    s.files.forEach((f, k) => {
      if (!RUNTIME_FILE.test(f)) problems.push(`${at}/files/${k} (${shown(f)}) must be a manifest under runtime/: 'runtime/<name>.yaml'`);
    });
    (s.objects ?? []).forEach((label, k) => {
      const o = parseObject(label);
      if (!WAITED_KINDS.has(o.type)) return;
      if (!NAME.test(o.name) || (o.namespace !== undefined && !NAME.test(o.namespace))) {
        problems.push(`${at}/objects/${k} (${shown(label)}) must be '<kind> <name>' or '<kind> <namespace>/<name>' with valid Kubernetes names`);
      }
    });
  });
  return problems;
}

/**
 * What the schema cannot say about the writers: apply puts each field manager on kubectl's command line, so
 * each is a name the API server accepts, and it cuts each writer's leaves out of the manifests by their
 * `fieldsV1`, so each set parses; a hand-over applies its object, so each is a manifest's identity.
 */
function writerProblems(plan: Plan): string[] {
  const problems: string[] = [];
  const manager = (at: string, name: unknown) => {
    if (!isFieldManagerName(name)) problems.push(`${at} (${shown(name)}) must be a field manager's name: 1 to ${FIELD_MANAGER_MAX_BYTES} bytes of printable characters`);
  };
  (plan.writers ?? []).forEach((o, i) => {
    const at = `/writers/${i}`;
    o.writers.forEach((w, k) => {
      if (w.manager !== undefined) manager(`${at}/writers/${k}/manager`, w.manager);
      // apply applies a writer's leaves under its manager, so only a manager of ours: a runtime writer's is its controller's
      if (w.kind !== 'runtime' && isFieldManagerName(w.manager) && !w.manager.startsWith(FIELD_MANAGER_PREFIX)) {
        problems.push(`${at}/writers/${k} ('${w.writer}', kind ${shown(w.kind)}) has the field manager ${shown(w.manager)}, which is not one of ours ('${FIELD_MANAGER_PREFIX}<construct path>'): apply would apply its fields under it, and only a runtime writer's manager is another's`);
      }
      for (const key of ['fields', 'presence'] as const) {
        const problem = w[key] === undefined ? undefined : fieldsV1Problem(w[key]);
        if (problem) problems.push(`${at}/writers/${k}/${key} is not a fieldsV1 set as the API server records one: ${problem}`);
      }
    });
    (o.handOver ?? []).forEach((h, k) => {
      manager(`${at}/handOver/${k}/manager`, h.manager);
      if (!hasIdentity(h.object)) problems.push(`${at}/handOver/${k}/object (${shown(h.object)}) must be a manifest with its apiVersion, kind and metadata.name`);
    });
    (o.releaseFirst ?? []).forEach((name, k) => manager(`${at}/releaseFirst/${k}`, name));
    (o.released ?? []).forEach((name, k) => manager(`${at}/released/${k}`, name));
  });
  return problems;
}

/** Why a value is not a `fieldsV1` set, or undefined when it is one. */
function fieldsV1Problem(value: unknown): string | undefined {
  try {
    parseFieldsV1(value);
    return undefined;
  } catch (e) {
    // a FieldsV1Error says which element; anything else (a set nested past the stack) is refused all the same
    return e instanceof Error ? e.message : String(e);
  }
}
