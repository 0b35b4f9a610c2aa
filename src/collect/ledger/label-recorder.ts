import type { ApiObject } from 'cdk8s';
import type { RenderChange } from './render-delta';
import { compareText } from '../../private/compare';
import { isMap } from '../../private/maps';
import { labelMapsOf, RecordableRender, recordableRenderOf, setLabelMaps } from '../../private/upstream-state';

/**
 * Test seam: whether write callbacks into a plain cdk8s object are followed by
 * recording their label and annotation writes (`LabelRecorder`). Off, every
 * callback renders its target after it runs, so a test can compare the two.
 */
export const recordedCallbacks: { enabled: boolean } = { enabled: true };

/** The two metadata maps the recorder follows, in the order a render's sorted metadata holds them. */
const MAPS = ['annotations', 'labels'] as const;
type MapName = (typeof MAPS)[number];

/** A render as the recorder keeps it: the metadata and its two maps are its own copies. */
interface KeptRender {
  [key: string]: unknown;
  metadata: { [key: string]: unknown; annotations?: Record<string, string>; labels?: Record<string, string> };
}

/**
 * Follows consecutive write callbacks into one plain cdk8s object without
 * rendering it after each: keeps the render from before the first callback,
 * records what each callback writes into the metadata's label and annotation
 * maps (through stand-ins for the two maps while it runs, so `addLabel`,
 * `addAnnotation` and any other write into them are seen), and gives the
 * changes `renderDelta` would give for the renders before and after it.
 *
 * A callback that writes anything else (props, finalizers, `metadata.add`, a
 * value that is not a string, a deletion) is not followed: the caller renders
 * the target after it and `resync`s. At the end of the run the caller renders
 * the target once and asks for the `differenceFrom` that render, which must be none.
 */
export class LabelRecorder {
  /**
   * Starts following `target`, whose render now is `rendered`.
   *
   * @returns undefined when the recorded path is off, or the target's render
   *   cannot be followed by bookkeeping (`recordableRenderOf`)
   */
  public static start(target: ApiObject, rendered: unknown): LabelRecorder | undefined {
    if (!recordedCallbacks.enabled) return undefined;
    const state = recordableRenderOf(target);
    const kept = keep(rendered);
    return state && kept ? new LabelRecorder(target, state, kept) : undefined;
  }

  private state: RecordableRender;
  private kept: KeptRender;
  private recorded = false;

  private constructor(private readonly target: ApiObject, state: RecordableRender, kept: KeptRender) {
    this.state = state;
    this.kept = kept;
  }

  /** True when a callback was recorded since the last render the recorder was given: the caller has to render and check `differenceFrom` at the end of the run. */
  public get pending(): boolean {
    return this.recorded;
  }

  /**
   * Runs one callback with the label and annotation maps of the target
   * recorded.
   *
   * @returns the changes of the target's render, or undefined when the
   *   callback did something the recorder does not follow (the caller renders
   *   the target and calls `resync`)
   * @throws what the callback throws; the recorder is then behind the target
   */
  public record(write: () => void): RenderChange[] | undefined {
    const { metadata, labels, annotations } = this.state;
    const follow: Record<MapName, Following> = { annotations: { writes: new Map(), followed: true }, labels: { writes: new Map(), followed: true } };
    const stand = { labels: standInFor(labels), annotations: standInFor(annotations) };
    following.set(labels, follow.labels);
    following.set(annotations, follow.annotations);
    let restored = true;
    setLabelMaps(metadata, stand);
    try {
      write();
    } finally {
      following.delete(labels);
      following.delete(annotations);
      const now = labelMapsOf(metadata);
      restored = now.labels === stand.labels && now.annotations === stand.annotations;
      if (restored) setLabelMaps(metadata, { labels, annotations }); // else the callback set maps of its own: leave them
    }
    const state = recordableRenderOf(this.target, this.state);
    if (!restored || !follow.labels.followed || !follow.annotations.followed || state?.rest !== this.state.rest) return undefined;
    this.recorded = true;
    return this.apply({ labels: follow.labels.writes, annotations: follow.annotations.writes });
  }

  /**
   * The kept render, ordered as a render is (its metadata's keys and its
   * maps' keys sorted), so `renderDelta` from it gives what it gives from the
   * render itself.
   */
  public ordered(): unknown {
    const metadata: Record<string, unknown> = {};
    for (const k of Object.keys(this.kept.metadata).sort(compareText)) {
      const v = this.kept.metadata[k];
      metadata[k] = MAPS.includes(k as MapName) ? sortedMap(v as Record<string, string>) : v;
    }
    return { ...this.kept, metadata };
  }

  /**
   * Takes a render of the target after a callback that was not followed.
   *
   * @returns false when the target can no longer be followed by bookkeeping
   *   (the run goes on rendering after each callback)
   */
  public resync(rendered: unknown): boolean {
    const state = recordableRenderOf(this.target);
    const kept = keep(rendered);
    if (!state || !kept) return false;
    this.state = state;
    this.kept = kept;
    this.recorded = false;
    return true;
  }

  /**
   * Where the kept render and a render of the target at the end of the run
   * differ (deep equality, key order aside): a write the recorder did not see
   * (into the object's private state, through a reference kept from before
   * the callbacks ran).
   *
   * @returns undefined when they are equal, else the first difference as the
   *   message names it: `metadata.labels (recorded nothing, rendered {...})`
   */
  public differenceFrom(rendered: unknown): string | undefined {
    const at = firstDifference(this.kept, rendered, []);
    return at === undefined ? undefined : `${at.path.join('.') || 'its root'} (recorded ${describe(at.kept)}, rendered ${describe(at.rendered)})`;
  }

  /** The changes of one callback's writes, as `renderDelta` gives them, applied to the kept render. */
  private apply(writes: Record<MapName, Map<string, string>>): RenderChange[] {
    const changes: RenderChange[] = [];
    for (const name of MAPS) {
      const written = writes[name];
      if (written.size === 0) continue;
      const map = this.kept.metadata[name];
      if (map === undefined) {
        // the map was empty, so the render had none: a change of the map itself
        const created = sortedMap(Object.fromEntries(written));
        this.kept.metadata[name] = created;
        changes.push({ path: ['metadata', name], before: undefined, after: { ...created } });
        continue;
      }
      // in the order renderDelta visits them: the keys of the sorted map, as Object.keys gives them
      for (const key of Object.keys(sortedMap(Object.fromEntries(written)))) {
        const value = written.get(key)!;
        if (map[key] === value) continue;
        changes.push({ path: ['metadata', name, key], before: map[key], after: value });
        map[key] = value;
      }
    }
    return changes;
  }
}

/** What a callback running now writes into one map: the last value of each key, and false once a write is not followed. */
interface Following {
  readonly writes: Map<string, string>;
  followed: boolean;
}

/** The callback running now, by the map it writes (a metadata's own label or annotation map). */
const following = new WeakMap<object, Following>();

/** The stand-in of each map, made once (one a callback keeps and writes later reaches the callback running then: `following` is keyed by the map). */
const standIns = new WeakMap<object, object>();

/**
 * The stand-in for a label or annotation map while a callback runs: it writes
 * through to the map and records each write for the callback running now (a
 * string value under a key, the last one kept); a deletion, a value that is
 * not a string or a property defined otherwise is not followed. A write when no
 * callback of a recorder runs is the map's alone, as without the stand-in.
 */
function standInFor(map: Record<string, string>): object {
  let standIn = standIns.get(map);
  if (!standIn) {
    const unfollowed = (target: object) => {
      const f = following.get(target);
      if (f) f.followed = false;
    };
    standIn = new Proxy(map, {
      set: (target, key, value) => {
        const f = following.get(target);
        if (f && typeof key === 'string' && key !== '__proto__' && typeof value === 'string') f.writes.set(key, value);
        else unfollowed(target);
        return Reflect.set(target, key, value);
      },
      defineProperty: (target, key, descriptor) => {
        unfollowed(target);
        return Reflect.defineProperty(target, key, descriptor);
      },
      deleteProperty: (target, key) => {
        unfollowed(target);
        return Reflect.deleteProperty(target, key);
      },
      setPrototypeOf: (target, proto) => {
        unfollowed(target);
        return Reflect.setPrototypeOf(target, proto);
      },
    });
    standIns.set(map, standIn);
  }
  return standIn;
}

/** A copy of a render that the recorder may write: its metadata and two maps copied, the rest shared. Undefined when it has no metadata map. */
function keep(rendered: unknown): KeptRender | undefined {
  if (!isMap(rendered) || !isMap(rendered.metadata)) return undefined;
  const metadata: KeptRender['metadata'] = { ...rendered.metadata };
  for (const name of MAPS) {
    const map = metadata[name];
    if (map === undefined) continue;
    if (!isMap(map)) return undefined;
    metadata[name] = { ...(map as Record<string, string>) };
  }
  return { ...rendered, metadata };
}

/** The map with its keys inserted in sorted order, as a render builds it. */
function sortedMap(map: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(map).sort(compareText)) sorted[k] = map[k];
  return sorted;
}

/** Where two JSON values first differ, key order aside; undefined when they are equal. */
function firstDifference(kept: unknown, rendered: unknown, path: string[]): { path: string[]; kept: unknown; rendered: unknown } | undefined {
  if (kept === rendered) return undefined;
  if (Array.isArray(kept) && Array.isArray(rendered)) {
    if (kept.length !== rendered.length) return { path, kept, rendered };
    for (let i = 0; i < kept.length; i++) {
      const d = firstDifference(kept[i], rendered[i], [...path, String(i)]);
      if (d) return d;
    }
    return undefined;
  }
  if (isMap(kept) && isMap(rendered)) {
    for (const k of new Set([...Object.keys(kept), ...Object.keys(rendered)])) {
      const d = firstDifference(kept[k], rendered[k], [...path, k]);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(kept, rendered) ? undefined : { path, kept, rendered };
}

function describe(x: unknown): string {
  return x === undefined ? 'nothing' : JSON.stringify(x);
}
