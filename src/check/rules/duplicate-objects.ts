import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { quoted } from './text';

/** `CAP001`: two constructs declare one object identity (group, kind, namespace, name; the version is not part of it). */
export const duplicateObjects = defineRule({
  code: ViolationCode.DUPLICATE_OBJECT,
  title: 'duplicate objects',
  run({ facts }) {
    const declarers = new Map<number, string[]>();
    facts.objects.forEach((o) => {
      if (o.duplicateOf === undefined) return;
      const list = declarers.get(o.duplicateOf) ?? [facts.objects[o.duplicateOf].declarer];
      list.push(o.declarer);
      declarers.set(o.duplicateOf, list);
    });
    return [...declarers].map(([first, paths]) => ({
      message: `${describeIdentity(facts.objects[first].identity)} is declared by ${quoted(paths).join(' and ')}. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).`,
      paths,
    }));
  },
});
