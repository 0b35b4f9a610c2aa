import type { LockedWriter } from './lock';
import { writerNameWithoutSite } from '../collect/ledger/writer';

/**
 * What tells the writers a lock records apart from release to release: the same for one writer wherever the
 * program makes its call, though the lock's name of a plain call shows where (`main.ts:12`) for messages.
 *
 * A writer of the release is told by its field manager, made of its construct path, how it writes and, for a
 * plain call, which call on its object it is (`cdk-capability:cdn/Routing/Web#json-patch-2`), never of the
 * site. A runtime writer is told by its name (its construct path, with no site), not by its manager, which is
 * its controller's and may be another runtime writer's too. A writer recorded without a manager is told by its
 * name without the site.
 *
 * @param writer a writer of an object, as a lock records it
 */
export function lockedWriterIdentity(writer: LockedWriter): string {
  if (writer.kind !== 'runtime' && writer.manager !== undefined) return writer.manager;
  return writerNameWithoutSite(writer.writer);
}
