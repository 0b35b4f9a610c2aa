import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { plainAppMessage } from './plain-app-advice';
import { CapabilityApp } from '../app/capability-app';
import { compareFindings, CODE_TITLES, Severity, Violation, ViolationCode } from '../check/finding';
import { RuntimeCapability } from '../constructs/runtime-capability';
import { appendAll } from '../private/append';
import { errorMessage } from '../private/errors';
import { writeLock } from '../release/lock';
import { RuntimeRouting } from '../routing/runtime-routing';

/** One document of a manifest file, where the cdk8s CLI found it. */
export interface ManifestDocument {
  /** The manifest file, as the CLI names it. */
  readonly manifestPath: string;
  /** 0-based position of the document in its file. */
  readonly index: number;
  /** The parsed document; undefined for one that is not valid YAML. */
  readonly object: unknown;
  /**
   * The 1-based line where the document starts, or where its YAML error is.
   *
   * @default - not known
   */
  readonly line?: number;
  /**
   * The 1-based column of its YAML error.
   *
   * @default - the document parsed
   */
  readonly column?: number;
}

/** A finding on plain manifests, with the documents it is about. */
export interface ManifestFinding extends Violation {
  /** Errors fail the validation; warnings are reported only. */
  readonly severity: Severity;
  /** The documents involved. */
  readonly documents: readonly ManifestDocument[];
}

/** What the checks on plain manifests are given besides the documents. */
export interface ManifestCheckOptions {
  /** The lock of the previous release, for deletion safety; none means a first release. */
  readonly lockFile?: string;
  /** Write the lock of these manifests to `lockFile` when they pass (as `CDK_CAPABILITY_UPDATE_LOCK=1` does for an app). */
  readonly updateLock?: boolean;
  /**
   * The construct path of the plain app's construct that emitted each document
   * (from cdk8s' construct metadata): findings name these instead of the paths
   * of the composition the documents are judged as, and a document without one
   * by its file and position (`document 2 of 'dist/app.k8s.yaml'`).
   */
  readonly constructPaths?: ReadonlyMap<ManifestDocument, string>;
}

/**
 * Codes that need a capability model (contracts, stacks, the output folder):
 * never reported on plain manifests.
 */
const MODEL_CODES: ReadonlySet<ViolationCode> = new Set([
  ViolationCode.BREAKING_CHANGE,
  ViolationCode.CONTRACT_MISUSE,
  ViolationCode.OUTPUT_NOT_WRITTEN,
]);

/**
 * The checks that need no capability model, on the manifests of a plain cdk8s
 * app: duplicate objects and identity collisions (`CAP001`), invalid objects
 * (`CAP010`), dangling references (`CAP005`), aws-cdk tokens left in a manifest
 * (`CAP006`), a custom resource emitted before its CRD (`CAP013`), deletion
 * safety against a lock (`CAP008`) and possible secrets (`CAP012`, a warning).
 *
 * The documents are declared, in the order given, as the objects of one
 * composition (one chart per manifest file), and the same rules an app's synth
 * runs judge them.
 */
export function checkManifests(documents: readonly ManifestDocument[], options: ManifestCheckOptions = {}): ManifestFinding[] {
  const findings: ManifestFinding[] = [];
  const byPath = new Map<string, ManifestDocument>();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-validate-'));
  try {
    const app = new CapabilityApp({ outdir: path.join(scratch, 'dist'), lockFile: options.lockFile ?? path.join(scratch, 'no-lock.json') });
    const capability = new RuntimeCapability(app, 'manifests');
    const charts = new Map<string, RuntimeRouting>();
    documents.forEach((d) => {
      const o = d.object as any;
      if (o === null || typeof o !== 'object' || Array.isArray(o)) {
        if (o !== null && o !== undefined) findings.push(documentFinding(ViolationCode.INVALID_OBJECT, `document ${d.index + 1} of '${d.manifestPath}' is not an object. Emit Kubernetes objects only.`, d));
        return;
      }
      const chartId = constructId(path.basename(d.manifestPath).replace(/\.ya?ml$/, ''));
      let chart = charts.get(d.manifestPath);
      if (!chart) {
        chart = new RuntimeRouting(capability, uniqueId(chartId, [...charts.values()].map((c) => c.node.id)));
        charts.set(d.manifestPath, chart);
      }
      const id = constructId(`${d.index}-${o.kind ?? 'object'}-${o.metadata?.name ?? ''}`);
      const object = new ApiObject(chart, id, { ...o, apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '', kind: typeof o.kind === 'string' ? o.kind : '' });
      byPath.set(object.node.path, d);
    });
    appendAll(findings, crdOrder(documents));
    const result = app.synthesize();
    // the app's own construct paths where cdk8s recorded them, else the manifest file and document, in place of the composition's
    const real = (p: string): string | undefined => {
      const d = byPath.get(p);
      return d ? options.constructPaths?.get(d) : p;
    };
    const named = (p: string): string => {
      const d = byPath.get(p);
      const constructPath = real(p);
      return constructPath !== undefined || d === undefined ? `'${constructPath ?? p}'` : `document ${d.index + 1} of '${d.manifestPath}'`;
    };
    const renamed = (message: string, paths: readonly string[]) => paths.reduce((m, p) => m.split(`'${p}'`).join(named(p)), message);
    const located = (v: Violation, severity: Severity): ManifestFinding => ({
      code: v.code,
      message: plainAppMessage(v.code, renamed(v.message, v.paths)),
      paths: v.paths.map(real).filter((p): p is string => p !== undefined).sort(),
      severity,
      documents: v.paths.map((p) => byPath.get(p)).filter((d): d is ManifestDocument => d !== undefined),
    });
    appendAll(findings, result.violations.filter((v) => !MODEL_CODES.has(v.code)).map((v) => located(v, 'error')));
    appendAll(findings, result.warnings.map((v) => located(v, 'warning')));
    if (options.updateLock && options.lockFile && result.lock && !findings.some((f) => f.severity === 'error')) writeLock(options.lockFile, result.lock);
  } catch (e) {
    findings.push({ code: ViolationCode.INTERNAL_ERROR, severity: 'error', message: `${CODE_TITLES[ViolationCode.INTERNAL_ERROR]}: checking the manifests crashed: ${errorMessage(e)}. Please report it.`, paths: [], documents: [] });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return findings.sort(compareFindings);
}

/**
 * `CAP013`: a custom resource emitted before the CRD that defines its kind, in
 * apply order: files by name (cdk8s names a chart's file after the chart, and
 * `kubectl apply -f <folder>` takes files by name), then each file's documents.
 * Applied in that order, the API server refuses the custom resource.
 */
function crdOrder(documents: readonly ManifestDocument[]): ManifestFinding[] {
  const ordered = [...documents].sort((a, b) => (a.manifestPath < b.manifestPath ? -1 : a.manifestPath > b.manifestPath ? 1 : a.index - b.index));
  const definedAt = new Map<string, number>();
  ordered.forEach((d, i) => {
    const o = d.object as any;
    if (o?.kind !== 'CustomResourceDefinition' || !String(o.apiVersion ?? '').startsWith('apiextensions.k8s.io/')) return;
    const group = o.spec?.group;
    const kind = o.spec?.names?.kind;
    if (typeof group === 'string' && typeof kind === 'string' && !definedAt.has(`${group}/${kind}`)) definedAt.set(`${group}/${kind}`, i);
  });
  const found: ManifestFinding[] = [];
  ordered.forEach((d, i) => {
    const o = d.object as any;
    if (typeof o?.apiVersion !== 'string' || typeof o.kind !== 'string' || !o.apiVersion.includes('/')) return;
    const key = `${o.apiVersion.slice(0, o.apiVersion.indexOf('/'))}/${o.kind}`;
    const at = definedAt.get(key);
    if (at === undefined || at < i) return;
    const crd = ordered[at];
    const name = `${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name ?? ''}`;
    found.push({
      code: ViolationCode.CRD_ORDER,
      severity: 'error',
      message:
        `${CODE_TITLES[ViolationCode.CRD_ORDER]}: ${key} ${name} (document ${d.index + 1} of '${d.manifestPath}') comes before ` +
        `CustomResourceDefinition ${(crd.object as any).metadata?.name} (document ${crd.index + 1} of '${crd.manifestPath}') in apply order ` +
        '(files by name, then documents, as kubectl apply -f <folder> takes them), so the API server refuses the custom resource. ' +
        'Emit the CRD first (an earlier chart, or earlier in its chart), or synthesize with CapabilityApp, which orders it.',
      paths: [],
      documents: [d, crd],
    });
  });
  return found;
}

function documentFinding(code: ViolationCode, detail: string, d: ManifestDocument): ManifestFinding {
  return { code, severity: 'error', message: `${CODE_TITLES[code]}: ${detail}`, paths: [], documents: [d] };
}

/** A construct id from free text: no `/`, never empty. */
function constructId(text: string): string {
  const id = text.replace(/\//g, '_').trim();
  return id === '' ? 'object' : id;
}

function uniqueId(id: string, taken: readonly string[]): string {
  let candidate = id;
  for (let n = 2; taken.includes(candidate); n++) candidate = `${id}-${n}`;
  return candidate;
}
