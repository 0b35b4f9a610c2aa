import type { FieldPath } from './field-path';
import { FieldIndex, FieldSet } from './field-set';
import type { Writer } from './writer';

/**
 * The leaves earlier calls wrote, to find what a later call replaces, and so writes too: a value set at a path
 * drops every value below it. aws-cdk's `addOverride(path, value)` sets the raw override at `path`, dropping every
 * override below it (`addOverride('Properties', {...})` after a Contribution's `VersioningConfiguration`), which
 * its merge onto the rendered resource does not bring back; a JSON patch `add` or `replace` of a map drops the
 * keys earlier patches set in the map it replaces.
 */
export class ReplacedWrites {
  /** Each leaf an earlier call wrote, with the ids of the writers that wrote it. */
  private readonly written = new FieldIndex<{ readonly path: FieldPath; readonly writers: Set<string> }>();

  /**
   * The leaves other writers' earlier calls wrote at or below `at` that this
   * call, writing `leaves`, drops: its writer writes them too (one of them
   * loses its value). Notes this call's leaves for the calls after it. Costs
   * the leaves at or below `at`, not all the calls made before.
   *
   * @param at where the call sets its value
   * @param leaves the leaves the call writes (at or below `at`)
   * @param mayReplace a writer whose earlier leaves this call may drop: a plain call's object's declarer, whose
   *   library's own calls are part of the declaration a plain call escapes
   */
  public by(writer: Writer, at: FieldPath, leaves: readonly FieldPath[], mayReplace?: Writer): FieldPath[] {
    const below: FieldPath[] = [];
    // by id: the plain calls of one line (a loop) share a name, yet each is a writer of its own
    const visit = (e: { readonly path: FieldPath; readonly writers: Set<string> }) => {
      for (const id of e.writers) {
        if (id === writer.id || id === mayReplace?.id) continue;
        below.push(e.path);
        return;
      }
    };
    const here = this.written.get(at);
    if (here) visit(here);
    this.written.forEachBelow(at, visit);
    const own = below.length > 0 ? new FieldSet() : undefined;
    for (const leaf of own ? leaves : []) own!.insert(leaf);
    const dropped = below.filter((path) => !own!.has(path));
    for (const path of leaves) this.written.upsert(path, () => ({ path, writers: new Set() })).writers.add(writer.id);
    return dropped;
  }
}
