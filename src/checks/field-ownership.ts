import { formatPath } from '../ledger/field-path';
import { violation, ViolationCode } from '../violation';
import { Check } from './check';

const quote = (paths: readonly string[]) => paths.map((p) => `'${p}'`);

/** Lists at most five fields, then how many more. */
function listFields(fields: readonly string[]): string {
  const shown = fields.slice(0, 5).join(', ');
  return fields.length > 5 ? `${shown} and ${fields.length - 5} more` : shown;
}

/** `CAP001`: two constructs declare one object identity. */
export const duplicateObjects: Check = {
  name: 'duplicate objects',
  code: ViolationCode.DUPLICATE_OBJECT,
  run: ({ writes }) =>
    writes.duplicates.map((d) =>
      violation(
        ViolationCode.DUPLICATE_OBJECT,
        `duplicate object: ${d.object} is declared by ${quote(d.declarers).join(' and ')}. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).`,
        d.declarers,
      ),
    ),
};

/** `CAP002`: two writers of one field, or of a field and its ancestor, even with equal values. */
export const fieldConflicts: Check = {
  name: 'field conflicts',
  code: ViolationCode.FIELD_CONFLICT,
  run: ({ writes }) =>
    writes.ledger.conflicts().map((c) =>
      violation(
        ViolationCode.FIELD_CONFLICT,
        `field conflict: ${quote(c.writers).join(' and ')} both write ${listFields(c.fields)} of ${c.object}. Give each field one owner: drop it from one writer (its props, Contribution, addJsonPatch or addPropertyOverride).`,
        c.writers.map((w) => w.replace(/ \((addJsonPatch|addPropertyOverride)\)$/, '')),
      ),
    ),
};

/** `CAP002`: a contribution that would rename or move its target: identity fields belong to the declarer. */
export const identityRewrites: Check = {
  name: 'identity rewrites',
  code: ViolationCode.FIELD_CONFLICT,
  run: ({ writes }) =>
    writes.identityRewrites.map((r) =>
      violation(
        ViolationCode.FIELD_CONFLICT,
        `field conflict: '${r.writer}' writes ${r.field} of ${r.object} as ${JSON.stringify(r.value)}, but identity fields belong to its declarer '${r.declarer}'. Remove ${r.field} from the contribution; to make another object, declare it.`,
        [r.writer, r.declarer],
      ),
    ),
};

/** `CAP002`: two CloudFormation resources claim one physical name. */
export const physicalNameClaims: Check = {
  name: 'physical names',
  code: ViolationCode.FIELD_CONFLICT,
  run: ({ writes }) =>
    writes.physicalNames.map((c) =>
      violation(
        ViolationCode.FIELD_CONFLICT,
        `field conflict: ${quote(c.claimants).join(' and ')} both claim the physical name ${c.claim}. Give each resource its own name, or declare the resource once and share it.`,
        c.claimants,
      ),
    ),
};

/** `CAP003`: `status` belongs to the controllers that run an object; no construct writes it. */
export const statusWrites: Check = {
  name: 'status writes',
  code: ViolationCode.STATUS_WRITE,
  run: ({ writes }) => {
    const found = new Map<string, { writer: string; object: string; fields: Set<string> }>();
    for (const w of writes.ledger.writes()) {
      if (w.path[0] !== 'status' || w.object.startsWith('AWS::')) continue;
      const id = `${w.writer}\u0000${w.object}`;
      const entry = found.get(id) ?? { writer: w.writer, object: w.object, fields: new Set() };
      entry.fields.add(formatPath(w.path));
      found.set(id, entry);
    }
    return [...found.values()].map((s) =>
      violation(
        ViolationCode.STATUS_WRITE,
        `status write: '${s.writer}' writes ${listFields([...s.fields].sort())} of ${s.object}. status belongs to the controllers that run the object: remove it from the manifest.`,
        [s.writer.replace(/ \(addJsonPatch\)$/, '')],
      ),
    );
  },
};
