import { isDeepStrictEqual } from 'util';
import type { Facts, ObjectFact } from '../../collect/facts';
import { EdgeReason } from '../../collect/graph/composition-graph';
import { isExportImportReason } from '../../collect/graph/export-imports';
import { describeIdentity, groupKind } from '../../collect/object-identity';
import { appendAll, appendTo } from '../../private/append';
import type { InstalledPackage } from '../../private/creation-site';
import { lockedReaders, majorOf, matchInterfaces } from '../../release/interface-compatibility';
import { interfaceRecord, InterfaceRecord } from '../../release/interface-record';
import { Lock, LockedUnit, objectUnitId, stackUnitId } from '../../release/lock';
import { routeWeights } from '../../release/release-diff';
import { lockedExports, lockedImports, StackExport, StackImport, templateExports, TemplateExports } from '../../release/stack-exports';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { contractFix, contractPackage, PackageRemedy } from './contract-advice';

/**
 * Edges that only order two lifecycles: a runtime object does not need every
 * stack of its capability, so removing a tenant stack does not break it.
 */
const ORDER_ONLY: ReadonlySet<string> = new Set([EdgeReason.DEPLOY_BEFORE_RUNTIME, EdgeReason.INTERFACE]);

/** A removal that leaves something behind that still needs what was removed. */
interface UnsafeDeletion {
  /** What was removed, for example `CustomResourceDefinition widgets.example.com`. */
  readonly removed: string;
  /** What this release does to it, when it is not removing it: `changes the value of`. */
  readonly change?: string;
  /** What still needs it. */
  readonly neededBy: string;
  /** Why, for example `custom resource of its kind`. */
  readonly why: string;
  /** Construct paths involved (the remaining dependents, the removed declarer). */
  readonly paths: string[];
  /** How to fix it, when it is not removing or moving the dependent in the same release. */
  readonly fix?: string;
  /** What tells two findings of one removal and one dependent apart, when `removed` and `neededBy` say more than their labels. */
  readonly key?: string;
}

const RELEASES_DOC = 'docs/releases.md';

/** The start of a stack's unit id (`stackUnitId`). */
const STACK = stackUnitId('');

/**
 * `CAP008`: a removal against the locked release that breaks what remains: a
 * CRD while custom resources of its kind remain, a Namespace while objects in it
 * remain, a stack or object that a remaining one depends on (through the locked
 * graph), an interface field that a remaining reader still reads, a
 * contract major retired while the lock shows a reader of it that remains, and
 * a CloudFormation export removed or changed while a remaining stack imported it
 * in the locked release. Removing the dependents in the same release passes,
 * except for an export (see `exportDeletions`). A contract's binding
 * (the `ExternalSecret` of a major) goes with the major's readers: removing it
 * once no chart consumes the major is safe (a reader left reading its Secret is
 * a dangling reference, `CAP005`), and retiring a major is judged by its readers.
 */
export const unsafeDeletions = defineRule({
  code: ViolationCode.UNSAFE_DELETION,
  title: 'deletion safety',
  explanation: 'Neither cdk deploy nor kubectl apply deletes what a release removes, and deleting it by hand can break what remains: a CRD whose custom resources remain, a Namespace with contents, a field a reader still reads; and CloudFormation refuses to delete or change an export that a remaining stack imports.',
  run({ facts, previous }) {
    if (!previous) return [];
    return findUnsafeDeletions(previous, facts, facts.contracts.map(interfaceRecord)).map((d) => ({
      message: `this release ${d.change ?? 'removes'} ${d.removed}, but ${d.neededBy} remains and ${d.why}. ${d.fix ?? 'Remove or move the dependent in the same release, or keep what it needs.'}`,
      paths: d.paths,
    }));
  },
});

function findUnsafeDeletions(lock: Lock, facts: Facts, current: readonly InterfaceRecord[]): UnsafeDeletion[] {
  const found: UnsafeDeletion[] = [];
  /** The pairs `<removed unit>:<remaining unit>` the walk of the locked graph reported. */
  const walked = new Set<string>();
  const present = new Set<string>([...facts.stacks.map((s) => stackUnitId(s.path)), ...facts.objects.map((o) => objectUnitId(o.key))]);
  const removed = lock.units.map((u, i) => ({ u, i })).filter(({ u }) => !present.has(u.id));
  const reported = new Set<string>();
  const report = (d: UnsafeDeletion) => {
    const key = d.key ?? `${d.removed}\u0000${d.neededBy}`;
    if (!reported.has(key)) {
      reported.add(key);
      found.push(d);
    }
  };

  for (const { u } of removed) {
    if (u.defines) {
      for (const o of facts.objects) {
        if (groupKind(o.identity.group, o.identity.kind) === u.defines) {
          report({ removed: declaredBy(u), neededBy: `${describe(o)} (declared by '${o.declarer}')`, why: 'it is a custom resource of the kind the CRD defines', paths: [o.declarer, u.path], key: `${u.label}\u0000${describe(o)}` });
        }
      }
    }
    if (u.namespaceName) {
      for (const o of facts.objects) {
        if (o.identity.namespace === u.namespaceName) {
          report({ removed: declaredBy(u), neededBy: `${describe(o)} (declared by '${o.declarer}')`, why: 'it lives in that namespace', paths: [o.declarer, u.path], key: `${u.label}\u0000${describe(o)}` });
        }
      }
    }
  }

  // A backend version removed while a locked route still sent it traffic; one the route had shifted to 0 may go.
  const handled = new Set<string>();
  for (const d of trafficDeletions(lock, removed, present, handled)) report(d);

  // Walk the locked graph from every removed unit, through barriers, to the units that depended on it.
  // A contract's binding (its ExternalSecret) is not walked: it is the contract's, so its removal is judged
  // by the readers of its major (interfaceDeletions), not by the objects that read it in the locked release.
  const n = lock.units.length;
  const walkedFrom = removed.filter(({ u }) => u.binds === undefined);
  // nothing removed (a release that changes what it had): no walk, and no graph to build for it
  const out: number[][] = walkedFrom.length === 0 ? [] : Array.from({ length: n + lock.barriers.length }, () => []);
  // an export's importer after its exporter: exportDeletions names that dependency by the export it was made for
  if (walkedFrom.length > 0) {
    for (const [from, to, reason] of lock.edges) if (!ORDER_ONLY.has(reason) && !isExportImportReason(reason)) out[from]?.push(to);
  }
  const source = new Int32Array(out.length).fill(-1);
  const queue: number[] = [];
  for (const { i } of walkedFrom) {
    source[i] = i;
    queue.push(i);
  }
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    for (const w of out[v]) {
      if (w >= n) {
        if (source[w] === -1) {
          source[w] = source[v];
          queue.push(w);
        }
      } else if (present.has(lock.units[w].id) && !handled.has(`${source[v]}:${w}`)) {
        const gone = lock.units[source[v]];
        const stays = lock.units[w];
        walked.add(`${source[v]}:${w}`);
        report({ removed: gone.label, neededBy: stays.label, why: 'it depends on it in the locked release', paths: [stays.path, gone.path], fix: keepOneMoreRelease(gone, stays) });
      }
    }
  }

  for (const d of exportDeletions(lock, facts, present, walked)) report(d);
  appendAll(found, interfaceDeletions(lock, facts, current));
  return found;
}

/** The fix of removing what a remaining unit depended on in the locked release. */
function keepOneMoreRelease(gone: LockedUnit, stays: LockedUnit): string {
  // nothing of this release can depend on what it removes: the dependent's live version still does, a stack's
  // as CloudFormation deployed it (until cdk deploy), an object's as the cluster holds it (until apply)
  const live = stays.id.startsWith(STACK)
    ? 'deployed with CloudFormation needs it until this release is deployed'
    : 'in the cluster needs it until this release is applied';
  return `Remove ${stays.label} in this release too, or keep ${gone.label} one more release (the version of ${stays.label} ${live}) and remove it in the next.`;
}

/**
 * CloudFormation exports that this release removes or changes (the value as the template writes it) while a
 * remaining stack imported them in the locked release (`Fn::ImportValue` of the name, in the account and region
 * the lock records for both, `sharedEnvironment`): CloudFormation refuses
 * to delete or change an export that a stack imports, and the importer's version in the cloud imports it
 * until its own update, which aws-cdk deploys after the exporter's while it depends on it. So, unlike the
 * other removals, dropping the import in the same release is not enough; the export is kept one more release
 * (`Stack.exportValue`, aws-cdk's way out of this). A removed exporter stack is the removal of a stack the
 * importer depended on: reported here only when the walk of the locked graph did not report that pair (an
 * import written by hand, with no stack dependency), so never twice. Exports and imports whose names are
 * intrinsics, and stacks of a lock written before values were recorded, are not judged.
 */
function exportDeletions(lock: Lock, facts: Facts, present: ReadonlySet<string>, walked: ReadonlySet<string>): UnsafeDeletion[] {
  const found: UnsafeDeletion[] = [];
  // the imports of the remaining stacks first: without one, no stack's exports need reading
  const importers: Array<{ j: number; imports: StackImport[] }> = [];
  lock.units.forEach((stays, j) => {
    if (!stays.id.startsWith(STACK) || !stays.values || !present.has(stays.id)) return;
    const imports = lockedImports(stays.values);
    if (imports.length > 0) importers.push({ j, imports });
  });
  if (importers.length === 0) return found;
  // `changed`: whether the export's value differs from the one its stack exports now, once per export, not once per importer
  const exporters = new Map<string, Array<{ i: number; exported: StackExport; changed?: boolean }>>();
  lock.units.forEach((u, i) => {
    if (!u.id.startsWith(STACK) || !u.values) return;
    for (const exported of lockedExports(u.values).byName.values()) appendTo(exporters, exported.name, { i, exported });
  });
  if (exporters.size === 0) return found;
  const templates = new Map(facts.stacks.filter((s) => s.template !== undefined).map((s) => [stackUnitId(s.path), s.template]));
  const current = new Map<string, TemplateExports>();
  const exportsNow = (id: string): TemplateExports | undefined => {
    if (!current.has(id) && templates.has(id)) current.set(id, templateExports(templates.get(id)));
    return current.get(id);
  };
  for (const { j, imports } of importers) {
    const stays = lock.units[j];
    for (const imported of imports) {
      for (const entry of exporters.get(imported.name) ?? []) {
        const { i, exported } = entry;
        if (i === j) continue;
        const gone = lock.units[i];
        if (deployApart(gone, stays)) continue;
        // what a finding says, written only for a pair found: most pairs of a release keep their export
        const why = () => {
          const where = sharedEnvironment(gone, stays);
          return `it imported ${present.has(gone.id) ? 'it' : `its export '${exported.name}'`} in the locked release (${imported.at})${where === 'same' ? '' : where}`;
        };
        const paths = () => [stays.path, gone.path];
        if (!present.has(gone.id)) {
          if (!walked.has(`${i}:${j}`)) found.push({ removed: gone.label, neededBy: stays.label, why: why(), paths: paths(), fix: keepOneMoreRelease(gone, stays) });
          continue;
        }
        const now = exportsNow(gone.id);
        if (!now || now.unnamed.has(exported.output)) continue;
        const kept = now.byName.get(exported.name);
        const removed = `export '${exported.name}' of ${gone.label}`;
        if (!kept) {
          found.push({
            removed,
            neededBy: stays.label,
            why: why(),
            paths: paths(),
            fix: `CloudFormation refuses to delete an export that a stack imports, and the version of ${stays.label} in the cloud imports it until that stack's own update, `
              + `which aws-cdk deploys after ${gone.label} while it depends on it: removing the import in this release too is not enough. `
              + `Keep the export one more release with this.exportValue(...) on ${gone.label} (aws-cdk's way to keep an export while its importers stop using it), deploy, and remove it in the next release.`,
          });
        } else if (!exported.masked && !kept.masked && (entry.changed ??= !isDeepStrictEqual(exported.value, kept.value))) {
          found.push({
            change: 'changes the value of',
            removed: `${removed} (from ${JSON.stringify(exported.value)} to ${JSON.stringify(kept.value)})`,
            neededBy: stays.label,
            why: why(),
            paths: paths(),
            fix: `CloudFormation refuses to change an export that a stack imports. Keep '${exported.name}' with its value one more release, `
              + 'export the new value under another name and move the importers to it, and change or remove the old export in the next release.',
          });
        }
      }
    }
  }
  return found;
}

/**
 * Whether an export of stack `exporter` can be what stack `importer` imports, by the environments the lock
 * records for them: CloudFormation exports are per account and region, so a name imported in another
 * region or account is another export (`apart`). Two stacks that name no environment deploy where the same
 * `cdk deploy` puts them (`same`, as in a lock written before environments were recorded). Otherwise the
 * text returned (to append to the reason) names the account and region both name, and, when one names its
 * region or account and the other does not, says that the one that does not is taken to deploy there.
 */
function sharedEnvironment(exporter: LockedUnit, importer: LockedUnit): 'same' | 'apart' | string {
  if (deployApart(exporter, importer)) return 'apart';
  const notes: string[] = [];
  const both = (['account', 'region'] as const).filter((part) => exporter[part] !== undefined && importer[part] !== undefined);
  if (both.length > 0) notes.push(`both deploy to ${both.map((part) => `${part} ${exporter[part]}`).join(', ')}`);
  for (const [unit, other] of [[exporter, importer], [importer, exporter]]) {
    const unnamed = (['account', 'region'] as const).filter((part) => unit[part] === undefined && other[part] !== undefined);
    if (unnamed.length === 0) continue;
    notes.push(`${unit.label} names no ${unnamed.join(' or ')}, so it is taken to deploy where ${other.label} does (${unnamed.map((part) => `${part} ${other[part]}`).join(', ')})`);
  }
  return notes.length === 0 ? 'same' : ` (CloudFormation exports are per account and region: ${notes.join('; ')})`;
}

/** True when two stacks name different regions or different accounts: an export of one is not what the other imports (`sharedEnvironment`). */
function deployApart(exporter: LockedUnit, importer: LockedUnit): boolean {
  const differ = (a?: string, b?: string) => a !== undefined && b !== undefined && a !== b;
  return differ(exporter.region, importer.region) || differ(exporter.account, importer.account);
}

/**
 * A removed CRD or Namespace as the message names it: with the construct that declared it in the locked release,
 * since in a composition of several capabilities (several packages) the one to change is not told by the object.
 */
function declaredBy(u: LockedUnit): string {
  return u.path ? `${u.label} (declared by '${u.path}' in the locked release)` : u.label;
}

function describe(o: ObjectFact): string {
  return describeIdentity(o.identity);
}

/**
 * Interface deletions, decided by readers (the objects that render a handle):
 * a field removed while a reader of it in the lock still reads its key now;
 * a major retired (its parameter no longer published) while a reader of
 * it in the lock remains: readers move to the next major in one release, and
 * the old major goes in a later one; and a major bumped in place (the same
 * contract, `1.x` -> `2.0.0`) while a reader of the old major in the lock
 * remains: the parameter's name carries the major, and CloudFormation replaces
 * an `AWS::SSM::Parameter` whose `Name` changes (the new one created, the old
 * one deleted as the stack update completes), in the deploy steps, before the
 * runtime step moves the readers. That bump is the retirement of the old major
 * in the same release as its readers move; the field check of the pair is left
 * to it (a field reader of the pair is a reader of the old major).
 */
function interfaceDeletions(lock: Lock, facts: Facts, current: readonly InterfaceRecord[]): UnsafeDeletion[] {
  const found: UnsafeDeletion[] = [];
  const declarers = new Set(facts.objects.map((o) => o.declarer));
  const charts = new Set(facts.charts.map((c) => c.path));
  const { pairs, retired } = matchInterfaces(lock.interfaces, current);
  for (const { old, now } of pairs) {
    if (majorOf(old) !== majorOf(now) && old.parameter && old.parameter.name !== now.parameter.name) {
      appendAll(found, bumpedInPlace(old, now, lockedReaders(old, declarers, charts), contractPackage(facts.contracts, now.capability, now.name)));
      continue;
    }
    const contract = facts.contracts.find((c) => c.capability === now.capability && c.name === now.name && c.version === now.version);
    const secrets = new Set((contract?.consumers ?? []).map((c) => `${c.namespace ?? ''}\u0000${c.secretName}`));
    for (const [field, record] of Object.entries(old.fields)) {
      if (field in now.fields) continue;
      for (const reader of lockedReaders({ fields: { [field]: record } }, declarers, charts)) {
        const how = stillReads(facts, reader, field, secrets);
        if (!how) continue;
        found.push({
          removed: `interface field '${field}' of '${old.capability}/${old.name}'`,
          neededBy: `'${reader}'`,
          why: `it still reads the field (${how})`,
          paths: [reader],
          fix: contractFix(contract?.package, `Stop reading the field in this release, or keep it and publish the next major beside this one, move the readers to it, and retire this major in a later release (${RELEASES_DOC}).`),
        });
      }
    }
  }
  for (const old of retired) {
    for (const reader of lockedReaders(old, declarers, charts)) {
      found.push({
        removed: `major ${majorOf(old)} of '${old.capability}/${old.name}' (${old.version}, parameter ${old.parameter?.name})`,
        neededBy: `'${reader}'`,
        why: 'it read that major in the locked release',
        paths: [reader],
        fix: contractFix(contractPackage(facts.contracts, old.capability, old.name), `Keep the major published until the lock shows no reader: move each reader to the next major in one release, then retire the old major in the next (${RELEASES_DOC}).`, PackageRemedy.STEP),
      });
    }
  }
  return found;
}

/**
 * A major bumped in place while readers of the old major in the lock remain: one finding per reader. The
 * deploy steps replace the parameter (the old one deleted when the stack update completes), and the runtime
 * step that moves the binding and its readers to the new major comes after them.
 */
function bumpedInPlace(old: InterfaceRecord, now: InterfaceRecord, readers: readonly string[], pkg: InstalledPackage | undefined): UnsafeDeletion[] {
  const contract = `'${old.capability}/${old.name}'`;
  const from = majorOf(old);
  return readers.map((reader) => ({
    change: `bumps ${contract} in place from ${old.version} to ${now.version}, which deletes`,
    removed: `the parameter of major ${from} (${old.parameter?.name})`,
    neededBy: `'${reader}'`,
    why: `it read major ${from} in the locked release: CloudFormation replaces a parameter whose name changes, `
      + `deleting ${old.parameter?.name} as the update of the stack that publishes it completes, before the runtime step moves the binding to ${now.parameter.name}, `
      + 'so the binding cannot sync in between (its Secret keeps the last values) and not at all if that step fails or is rolled back',
    paths: [reader],
    fix: contractFix(pkg, `Keep ${old.version} and publish ${now.version} beside it (a second InterfaceContract with the same name), `
      + `move the readers to it, and retire major ${from} in a later release (${RELEASES_DOC}).`, PackageRemedy.STEP),
  }));
}

/** How `reader` (a declarer, or a chart) still reads `field` from a binding Secret of the contract, if it does. */
function stillReads(facts: Facts, reader: string, field: string, secrets: ReadonlySet<string>): string | undefined {
  for (const r of facts.references) {
    const o = facts.objects[r.from];
    if (o.declarer !== reader && o.chart !== reader) continue;
    if (r.target.group !== '' || r.target.kind !== 'Secret' || !secrets.has(`${r.target.namespace ?? ''}\u0000${r.target.name}`)) continue;
    if (r.key === field) return `key '${field}' of Secret ${r.target.name} in ${r.field}`;
    if (r.key === undefined) return `the whole Secret ${r.target.name} in ${r.field}`;
  }
  return undefined;
}

const VERSION_LABEL = 'metadata.labels["cdk-capability.io/version"]';
const BACKEND_LABEL = 'metadata.labels["cdk-capability.io/backend"]';

/**
 * Removed Services that a remaining route of the lock sent traffic to (by its
 * locked weights): refused, since traffic is shifted away first (weight 0) and
 * the version removed in a later release. A Service the locked route gave
 * weight 0 may go: the pair is added to `handled`, so the graph walk skips it too.
 */
function trafficDeletions(
  lock: Lock,
  removed: ReadonlyArray<{ u: LockedUnit; i: number }>,
  present: ReadonlySet<string>,
  handled: Set<string>,
): UnsafeDeletion[] {
  const found: UnsafeDeletion[] = [];
  const services = removed.filter(({ u }) => u.groupKind === '/Service');
  if (services.length === 0) return found;
  lock.units.forEach((route, r) => {
    if (!present.has(route.id)) return;
    const weights = routeWeights(route);
    if (!weights) return;
    const total = Object.values(weights).reduce((a, b) => a + b, 0);
    for (const { u, i } of services) {
      const name = u.id.slice(u.id.lastIndexOf('|') + 1);
      const hosts = [name, ...(u.namespace ? [`${name}.${u.namespace}`, `${name}.${u.namespace}.svc`, `${name}.${u.namespace}.svc.cluster.local`] : [])];
      const host = hosts.find((h) => h in weights);
      if (host === undefined || (route.namespace ?? '') !== (u.namespace ?? '')) continue;
      handled.add(`${i}:${r}`);
      const weight = weights[host];
      if (weight === 0) continue;
      const version = u.values?.[VERSION_LABEL];
      const backend = u.values?.[BACKEND_LABEL];
      const what = typeof version === 'string' && typeof backend === 'string' ? `version '${version}' of backend '${backend}' (${u.label})` : u.label;
      found.push({
        removed: what,
        neededBy: route.label,
        why: `it sent that version ${weight} of ${total} in the locked release`,
        paths: [route.path, u.path],
        fix: 'Shift its weight to 0 in one release, then remove the version in the next.',
      });
    }
  });
  return found;
}
