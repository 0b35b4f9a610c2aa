import { formatPath } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { compareText } from '../../private/compare';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { listSome } from './text';

/** `CAP003`: `status` belongs to the controllers that run an object; no construct writes it. */
export const statusWrites = defineRule({
  code: ViolationCode.STATUS_WRITE,
  title: 'status writes',
  explanation: 'status belongs to the controllers that observe an object; a construct that writes it races them and is overwritten on the next reconcile.',
  run({ facts }) {
    const found = new Map<string, { writer: Writer; object: string; fields: Set<string> }>();
    for (const object of facts.ledger.objects) {
      if (object.kind !== 'k8s') continue;
      for (const w of object.writes) {
        if (w.path[0] !== 'status') continue;
        const id = `${w.writer.id}\u0000${object.label}`;
        const entry = found.get(id) ?? { writer: w.writer, object: object.label, fields: new Set() };
        entry.fields.add(formatPath(w.path));
        found.set(id, entry);
      }
    }
    return [...found.values()].map((s) => ({
      message: `${describeWriter(s.writer)} writes ${listSome([...s.fields].sort(compareText))} of ${s.object}. status belongs to the controllers that run the object: remove it from the manifest.`,
      paths: [s.writer.path],
    }));
  },
});
