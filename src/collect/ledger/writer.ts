import { callPlace, InstalledPackage } from '../../private/creation-site';

/**
 * How a writer writes: the write paths of the field ledger, a closed union.
 *
 * - `declaration`: the object's declaring construct (its props, and its own typed API used outside a Contribution);
 * - `contribution-fields`, `contribution-patches`, `contribution-write`: a `Contribution` and which of its
 *   props wrote (`fields`, `patches`, the `write` callback); one Contribution is one writer, whatever it uses;
 * - `json-patch`: a plain `ApiObject.addJsonPatch` call outside any Contribution;
 * - `override`: a plain `addOverride` / `addPropertyOverride` / `addDeletionOverride` call outside any Contribution;
 * - `tag`: a `Tags.of(scope).add(key, value)` (or `remove`) call, for the tag keys it writes;
 * - `aspect`: an aspect the program added (`Aspects.of(scope).add`, aws-cdk's `PermissionsBoundary.of(scope).apply`),
 *   for the resource properties its visits set, changed or removed;
 * - `runtime`: a controller that writes the object in the cluster, declared as a runtime writer.
 */
export type WriterKind =
  | 'declaration'
  | 'contribution-fields'
  | 'contribution-patches'
  | 'contribution-write'
  | 'json-patch'
  | 'override'
  | 'tag'
  | 'aspect'
  | 'runtime';

/**
 * A writer of the field ledger, as structured-merge-diff keeps a field
 * manager: who (a construct path), how (`kind`) and, for calls a program makes
 * directly on an object, which call and where. Writers are compared by `id`
 * only; `writerName` formats one for messages and reports.
 *
 * A field-manager name is derived from `path` and `kind` (with `call` where
 * one construct makes several calls), never from `site`, which moves when the
 * program is edited.
 */
export interface Writer {
  /**
   * The construct path that names the writer: the declaring construct, the
   * Contribution, the object a plain patch or override is called on, the scope
   * a Tag or an aspect was added to, the runtime writer.
   */
  readonly path: string;
  /** How it writes. */
  readonly kind: WriterKind;
  /**
   * For a plain patch, override or Tag: which call on its object or scope it
   * is, counted from 1 in call order, telling two calls apart. Absent for the
   * other kinds, which write as one.
   */
  readonly call?: number;
  /** Where the call was made (`main.ts:12`), for a plain patch, override or Tag when it is known. */
  readonly site?: string;
  /**
   * The installed package whose code made the call, when the program did not make it itself (a capability package
   * from npm that patches its own object): `site` is then the program's line that called into the package.
   */
  readonly package?: InstalledPackage;
  /** The API a plain call used, for messages: `addJsonPatch`, `addPropertyOverride`, `Tags.of().add`. */
  readonly method?: string;
  /**
   * The identity: equal for the same writer, different otherwise. Every kind
   * of Contribution write of one Contribution has one identity.
   */
  readonly id: string;
}

/** The writer of everything an object's declaring construct renders. */
export function declarationWriter(path: string): Writer {
  return { path, kind: 'declaration', id: `declaration:${path}` };
}

/** The writer of the leaves a `RuntimeWriter` declares: a controller that writes them in the cluster. */
export function runtimeWriter(path: string): Writer {
  return { path, kind: 'runtime', id: `runtime:${path}` };
}

/** A Contribution's writer; `kind` says which of its props wrote. */
export function contributionWriter(path: string, kind: 'contribution-fields' | 'contribution-patches' | 'contribution-write' = 'contribution-fields'): Writer {
  return { path, kind, id: `contribution:${path}` };
}

/** What identifies a plain call among its object's calls, and what messages say of it. */
export interface CallOptions {
  /** Which call it is on its object or scope, from 1; absent when every such call of the object is taken as one. */
  readonly call?: number;
  /** Where the call was made, when known. */
  readonly site?: string;
  /** The installed package whose code made the call, reached from `site`, when the program did not make it itself. */
  readonly package?: InstalledPackage;
  /** The API called. */
  readonly method?: string;
}

/** The API each kind of plain call uses unless a call says otherwise. */
const METHODS: Readonly<Partial<Record<WriterKind, string>>> = {
  'json-patch': 'addJsonPatch',
  'override': 'addPropertyOverride',
  'tag': 'Tags.of().add',
  'aspect': 'Aspects.of().add',
  'runtime': 'RuntimeWriter',
};

/**
 * The writer of one plain call on an object (`addJsonPatch`, `addOverride`) or
 * scope (`Tags.of(scope).add`, `Aspects.of(scope).add`).
 *
 * @param path the object's (or the scope's) construct path
 */
export function callWriter(kind: 'json-patch' | 'override' | 'tag' | 'aspect', path: string, options: CallOptions = {}): Writer {
  const { call, site, method } = options;
  return {
    path,
    kind,
    ...(call !== undefined ? { call } : {}),
    ...(site !== undefined ? { site } : {}),
    ...(site !== undefined && options.package !== undefined ? { package: options.package } : {}),
    ...(method !== undefined ? { method } : {}),
    id: call === undefined ? `${kind}:${path}` : `${kind}:${path}#${call}`,
  };
}

/** The API a plain call used (`addJsonPatch`, `Tags.of().add`, ...); undefined for a writer that makes no call (a declaration, a Contribution). */
export function writerMethod(writer: Writer): string | undefined {
  return writer.method ?? METHODS[writer.kind];
}

/**
 * How reports and sorting name a writer, unquoted: its construct path, and for
 * a plain call what the call is and where
 * (`cdn/Routing/Web/Resource (addJsonPatch at main.ts:12)`; a call an installed package's code made,
 * `queues/Routing/Settings (addJsonPatch inside the installed package @acme/queue-capability@1.0.0, reached from main.ts:5)`).
 */
export function writerName(writer: Writer): string {
  const method = writerMethod(writer);
  const who = writer.path === '' ? THE_APP : writer.path;
  if (!method) return who;
  return `${who} (${method}${writerCallPlace(writer)})`;
}

/**
 * Where a writer's plain call was made, as its name says it after the API, a space first: ` at main.ts:12`,
 * ` inside the installed package @acme/queue-capability@1.0.0, reached from main.ts:5`, or, where the site is not
 * known, which call on its object it is (` #2`); nothing for a writer that makes no numbered call.
 */
export function writerCallPlace(writer: Writer): string {
  if (writer.site !== undefined) return ` ${callPlace(writer.site, writer.package)}`;
  return writer.call !== undefined ? ` #${writer.call}` : '';
}

/**
 * A writer's name as `writerName` gives it, without where the call was made: the same for one writer
 * wherever the program makes its call (`cdn/Routing/Web (addJsonPatch at main.ts:12)` and `(... at main.ts:13)`
 * are both `cdn/Routing/Web (addJsonPatch)`). For a name kept as text only (a lock's `owners`): it no longer
 * tells two plain calls on one object apart, which a lock's field managers do.
 */
export function writerNameWithoutSite(name: string): string {
  const cut = PACKAGE_SITE_AT_END.test(name) ? ' inside the installed package ' : SITE_AT_END.test(name) ? ' at ' : undefined;
  return cut === undefined ? name : `${name.slice(0, name.lastIndexOf(cut))})`;
}

/** The end of a name that `writerName` gave a call site, `... at <file>:<line>)`. */
const SITE_AT_END = / at [^\n]*:\d+\)$/;

/**
 * The end of a name that `writerName` gave the site of a call an installed package made,
 * `... inside the installed package <name>@<version>, reached from <file>:<line>)`: the package's release is no more
 * the writer's identity than the program's line is.
 */
const PACKAGE_SITE_AT_END = / inside the installed package [^ \n]+, reached from [^\n]*:\d+\)$/;

/** How a writer at the root of the construct tree (a `Tags.of(app)` call), whose path is empty, is named. */
const THE_APP = 'the app';

/**
 * How messages name a writer: its construct path quoted, and for a plain call
 * what the call is and where (`'cdn/Routing/Web/Resource' (addJsonPatch at main.ts:12)`); the root of the tree,
 * whose path is empty, as `the app`.
 */
export function describeWriter(writer: Writer): string {
  const name = writerName(writer);
  if (writer.path === '') return name;
  return name === writer.path ? `'${writer.path}'` : `'${writer.path}'${name.slice(writer.path.length)}`;
}
