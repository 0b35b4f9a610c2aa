import * as path from 'path';
import { parseObject } from './apply-commands';
import { appliedLeaves } from '../cluster/apply-sequence';
import { isAppliedWriter, leavesOf, planIdentitiesOf } from '../cluster/object-writers';
import { PartialObjectError, partialObject } from '../cluster/partial-object';
import { formatPath } from '../collect/ledger/field-path';
import { describeIdentity, identityKey, ObjectIdentity } from '../collect/object-identity';
import { appendAll } from '../private/append';
import { atMost } from '../private/at-most';
import { shown } from '../private/json-schema';
import type { Plan } from '../render/writers/plan-json';

/** The id prefix of an object in the lock and in the plan's writers (`object:<group>|<kind>|<namespace>|<name>`). */
const OBJECT_ID = 'object:';

/**
 * The objects of a plan against its runtime files, before `apply` runs a step: every object a runtime step
 * lists is in that step's files, and every object of those files is one the step lists. A plan.json copied
 * from another outdir, or edited, names objects its files do not hold: `apply` would apply the files and
 * find no writers for their objects, and drop each writer's own apply without a word.
 *
 * @param outdir the synth's output folder, as the problems name the files
 * @param documents the objects of a file (relative to the outdir), as `readRuntimeFiles` read them
 * @param fromStep the first step that runs (1-based); the files of earlier steps are not read
 * @param max the most problems reported; the rest are counted in the last one
 * @returns one problem per object listed and not in the files, or in the files and not listed
 */
export function planObjectProblems(plan: Plan, outdir: string, documents: (file: string) => readonly unknown[], fromStep = 1, max = 20): string[] {
  const problems: string[] = [];
  plan.steps.forEach((step, i) => {
    if (i + 1 < fromStep || step.lifecycle !== 'runtime') return;
    const listed = new Map<string, number>();
    (step.objects ?? []).forEach((label, k) => {
      const key = identityKey(labelIdentity(label));
      if (!listed.has(key)) listed.set(key, k);
    });
    const held = new Set<string>();
    const unlisted: string[] = [];
    for (const file of step.files) {
      for (const manifest of documents(file)) {
        const candidates = planIdentitiesOf(manifest);
        const key = candidates.map(identityKey).find((c) => listed.has(c));
        if (key !== undefined) held.add(key);
        else unlisted.push(`'${path.join(outdir, file)}' (step ${i + 1}) holds ${describeIdentity(candidates[0])}, which /steps/${i}/objects does not list`);
      }
    }
    const files = step.files.map((f) => `'${path.join(outdir, f)}'`).join(', ');
    for (const [key, k] of listed) {
      if (!held.has(key)) problems.push(`/steps/${i}/objects/${k} (${shown(step.objects![k])}) is not in the files of step ${i + 1}: ${files === '' ? 'it has none' : files}`);
    }
    appendAll(problems, unlisted);
  });
  return atMost(problems, max);
}

/**
 * The leaves of each writer against the manifest it cuts them out of, before `apply` runs a step: each leaf a
 * writer applies under its own manager is in its object as the step's file holds it. A runtime file edited by
 * hand (a field deleted, a list made a map), or a plan.json whose writers were edited, would otherwise stop
 * the release halfway, at the step whose writer's apply cannot be made.
 *
 * @param outdir the synth's output folder, as the problems name the files
 * @param documents the objects of a file (relative to the outdir), as `readRuntimeFiles` read them
 * @param fromStep the first step that runs (1-based); the files of earlier steps are not read
 * @returns one problem per writer of an object whose leaves the object does not hold, naming the file, the
 *   object, where the object stops matching, and the writer with its JSON pointer
 */
export function writerLeafProblems(plan: Plan, outdir: string, documents: (file: string) => readonly unknown[], fromStep = 1): string[] {
  const writers = plan.writers ?? [];
  if (writers.length === 0) return [];
  const byId = new Map(writers.map((o, i) => [o.object, i]));
  const problems: string[] = [];
  plan.steps.forEach((step, s) => {
    if (s + 1 < fromStep || step.lifecycle !== 'runtime') return;
    for (const file of step.files) {
      for (const manifest of documents(file)) {
        const candidates = planIdentitiesOf(manifest);
        const i = candidates.map((id) => byId.get(`${OBJECT_ID}${identityKey(id)}`)).find((x) => x !== undefined);
        if (i === undefined) continue;
        writers[i].writers.forEach((w, k) => {
          if (!isAppliedWriter(w)) return;
          try {
            partialObject(manifest, appliedLeaves(leavesOf(w)));
          } catch (e) {
            if (!(e instanceof PartialObjectError)) throw e;
            const where = e.problem === 'missing' ? `without ${formatPath(e.path)}, where` : `with a value at ${formatPath(e.path)}, below which`;
            problems.push(`'${path.join(outdir, file)}' (step ${s + 1}) holds ${describeIdentity(candidates[0])} ${where} its writer '${w.writer}' (/writers/${i}/writers/${k}) writes`);
          }
        });
      }
    }
  });
  return problems;
}

/**
 * What the plan's writers name that its steps do not: each `writers[].object` is an object of a runtime step,
 * or its writers' applies would never run.
 */
export function writerObjectProblems(plan: Plan): string[] {
  const objects = new Set(plan.steps.filter((s) => s.lifecycle === 'runtime').flatMap((s) => (s.objects ?? []).map((label) => `${OBJECT_ID}${identityKey(labelIdentity(label))}`)));
  const problems: string[] = [];
  (plan.writers ?? []).forEach((o, i) => {
    if (!objects.has(o.object)) problems.push(`/writers/${i}/object (${shown(o.object)}) must be an object of a runtime step, but no step lists ${describeIdentity(idIdentity(o.object))}`);
  });
  return problems;
}

/** The identity a step's label names: `apps/Deployment edge/web`, `Namespace edge`. */
function labelIdentity(label: string): ObjectIdentity {
  const { type, namespace, name } = parseObject(label);
  const slash = type.lastIndexOf('/');
  return { group: slash < 0 ? '' : type.slice(0, slash), kind: type.slice(slash + 1), namespace: namespace ?? '', name };
}

/** The identity an object's id names: `object:apps|Deployment|edge|web`. */
function idIdentity(id: string): ObjectIdentity {
  const [group = '', kind = '', namespace = '', ...name] = id.slice(OBJECT_ID.length).split('|');
  return { group, kind, namespace, name: name.join('|') };
}
