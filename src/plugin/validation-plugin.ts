import * as fs from 'fs';
import * as path from 'path';
import { checkManifests, ManifestDocument, ManifestFinding } from './check-manifests';
import { readManifestFile } from './manifest-files';
import { CODE_TITLES, compareFindings, ViolationCode } from '../check/finding';
import { appendAll } from '../private/append';
import { errorMessage } from '../private/errors';
import { shown } from '../private/json-schema';
import { defaultLockFile, displayPath, lockFolderProblem, lockWrittenLine, parseUpdateLock } from '../release/update-lock';
import { outputFolderOf } from '../render/outdir-safety';

/**
 * The part of cdk8s-cli's `ValidationContext` the plugin uses (cdk8s-cli
 * lib/plugins/validation.d.ts), declared here so this package does not depend
 * on the CLI.
 */
export interface Cdk8sValidationContext {
  /** The manifest files the synth wrote. */
  readonly manifests: readonly string[];
  /** The report to add violations to and submit. */
  readonly report: {
    /** Adds a violation to the report. */
    addViolation(violation: {
      readonly ruleName: string;
      readonly recommendation: string;
      readonly fix: string;
      readonly violatingResources: ReadonlyArray<{
        readonly resourceName: string;
        readonly locations: readonly string[];
        readonly manifestPath: string;
      }>;
    }): void;
    /** Submits the report with its status. */
    submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
  };
  /**
   * The construct path of each object by its name, which cdk8s writes when the
   * CLI asks it to (`construct-metadata.json`, whenever validations are
   * configured). Keyed by name alone: of objects sharing a name, it holds the
   * path of the last one cdk8s wrote.
   */
  readonly metadata?: { readonly [name: string]: Cdk8sConstructMetadata | undefined };
  /** Parses a manifest file into its documents (not used: the plugin reads the files itself, to report YAML errors). */
  parseManifest(manifestPath: string): any[];
}

/** What cdk8s records of the construct that emitted an object (cdk8s `construct-metadata.json`). */
export interface Cdk8sConstructMetadata {
  /** The construct path, `chart/object`. */
  readonly path?: string;
}

/** Properties of the validation plugin, as `properties:` of its entry in `cdk8s.yaml`. */
export interface CapabilityValidationProps {
  /**
   * The lock of the previous release, for deletion safety (`CAP008`), relative
   * to the folder `cdk8s synth` runs in (the folder of `cdk8s.yaml`). With
   * `CDK_CAPABILITY_UPDATE_LOCK=1` (or `true`, `yes`) a synth whose manifests
   * pass rewrites it and says so.
   *
   * @default 'capability.lock.json' beside cdk8s.yaml
   */
  readonly lockFile?: string;
}

/**
 * A cdk8s validation plugin: the checks of cdk-capability that need no
 * capability model, on the manifests of a plain cdk8s app. Add it to the
 * app's `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/cdk-capability
 *     class: CapabilityValidation
 *     version: 0.0.0   # any exact version: cdk8s reads a local package as is
 * ```
 *
 * `cdk8s synth` then reports, with their codes: duplicate objects and identity
 * collisions (`CAP001`), dangling references (`CAP005`), aws-cdk tokens in a
 * manifest (`CAP006`), unsafe deletions against the lock (`CAP008`), invalid
 * objects (`CAP010`), possible secrets (`CAP012`, a warning that does not
 * fail) and custom resources before their CRD (`CAP013`); it exits with code
 * 2 when any but a warning is found.
 *
 * On the output of a `CapabilityApp` (its outdir holds the marker its synth
 * writes) it checks nothing and leaves the lock to the app, which ran these
 * checks and wrote its lock itself; one line on stderr says so.
 */
export class CapabilityValidation {
  private readonly lockFile: string;
  /** What is wrong with the properties, reported by `validate` before any check (cdk8s-cli gives YAML as it is). */
  private readonly propertyProblems: string[];

  /** @param props the `properties:` of the plugin's entry in cdk8s.yaml */
  constructor(props: CapabilityValidationProps = {}) {
    this.propertyProblems = propertyProblems(props);
    const lockFile: unknown = (props as { lockFile?: unknown } | null)?.lockFile;
    // The cdk8s CLI runs in the folder of cdk8s.yaml: the lock is beside it, as an app's is.
    this.lockFile = typeof lockFile === 'string' && lockFile !== '' ? path.resolve(lockFile) : defaultLockFile({ entry: '' });
  }

  /**
   * Runs the checks on `context.manifests` and submits the report (cdk8s-cli's
   * `Validation` contract). The files are read here, not through
   * `context.parseManifest`, so that a document that is not valid YAML is
   * reported with its file and line instead of being linted as whatever part
   * of it parses, and an alias bomb is reported instead of expanded. Never
   * throws: a crash is reported as one `CAP000` and the report fails.
   */
  public async validate(context: Cdk8sValidationContext): Promise<void> {
    let findings: ManifestFinding[];
    let declarers: ReadonlyMap<ManifestDocument, string> = new Map();
    try {
      const output = this.propertyProblems.length === 0 ? capabilityOutput(context.manifests) : undefined;
      if (output !== undefined) {
        // a CapabilityApp's synth ran the full checks (and wrote the lock) already; its files are no plain app's manifests
        process.stderr.write(`cdk-capability: the validation plugin skipped '${displayPath(output)}', the output of a CapabilityApp: its synth ran these checks, and the lock is its own.\n`);
        context.report.submit('success', { errors: '0', warnings: '0' });
        return;
      }
      const documents: ManifestDocument[] = [];
      const unparsed: ManifestFinding[] = [];
      for (const manifestPath of context.manifests) {
        const file = readManifestFile(manifestPath);
        appendAll(documents, file.documents);
        appendAll(unparsed, file.findings);
      }
      const lockSwitch = parseUpdateLock();
      declarers = declaringConstructs(documents, context.metadata ?? {});
      const refusal = (code: ViolationCode, message: string): ManifestFinding => ({ code, severity: 'error', message: `${CODE_TITLES[code]}: ${message}`, paths: [], documents: [] });
      // no manifests: nothing to record (a CapabilityApp of stacks alone writes no YAML, and has written its lock)
      const updateLock = lockSwitch.update === true && context.manifests.length > 0;
      const switchProblem = lockSwitch.problem ?? (updateLock ? lockFolderProblem(this.lockFile) : undefined);
      // refused before any check or write: a lock the properties do not name, or a switch an app refuses too
      const checked: ManifestFinding[] = this.propertyProblems.length > 0
        ? this.propertyProblems.map((p) => refusal(ViolationCode.LOCK_FILE, p))
        : switchProblem !== undefined
          ? [refusal(ViolationCode.OUTPUT_NOT_WRITTEN, switchProblem)]
          : checkManifests(documents, { lockFile: this.lockFile, updateLock, constructPaths: declarers });
      findings = appendAll(unparsed, checked).sort(compareFindings);
      if (lockSwitch.update && findings.every((f) => f.severity !== 'error')) {
        if (context.manifests.length === 0) process.stderr.write(`cdk-capability: no manifests were synthesized; the validation plugin left the lock ${displayPath(this.lockFile)} as it is.\n`);
        else if (fs.existsSync(this.lockFile)) process.stderr.write(`${lockWrittenLine(this.lockFile)}\n`);
      }
    } catch (e) {
      const message =
        `${CODE_TITLES[ViolationCode.INTERNAL_ERROR]}: the validation plugin crashed: ${errorMessage(e)}. ` +
        'This is a bug in cdk-capability: please report it with the manifests that trigger it.';
      findings = [{ code: ViolationCode.INTERNAL_ERROR, severity: 'error', message, paths: [], documents: [] }];
    }
    for (const f of findings) {
      const [title, ...rest] = f.message.split(': ');
      context.report.addViolation({
        ruleName: `${f.code} ${title}${f.severity === 'warning' ? ' (warning)' : ''}`,
        recommendation: `${f.code} ${[title, ...rest].join(': ')}`,
        fix: `See docs/errors.md of cdk-capability, section "${f.code} ${title}".`,
        // resourceName is the object's name, by which the cdk8s CLI finds its construct path in the construct metadata;
        // where that path is not the object's (a name the metadata holds for another object), the object's kind and name,
        // which no metadata key is (no object name has a space), so the CLI names no construct
        violatingResources: f.documents.map((d) => ({
          resourceName: declarers.has(d) || !hasKey(context.metadata, (d.object as any)?.metadata?.name) ? (d.object as any)?.metadata?.name ?? '(no name)' : resourceName(d.object),
          locations: [`${location(d)} (${resourceName(d.object)})`],
          manifestPath: d.manifestPath,
        })),
      });
    }
    const errors = findings.filter((f) => f.severity === 'error').length;
    context.report.submit(errors > 0 ? 'failure' : 'success', { errors: String(errors), warnings: String(findings.length - errors) });
  }
}

/**
 * The output folder of a `CapabilityApp` the manifests lie in (found by the
 * marker its synth writes there), or undefined for a plain cdk8s app's. The
 * cdk8s CLI lists every `.yaml` under the outdir, so for a `CapabilityApp` they
 * are its runtime files, its `kustomization.yaml` and its GitOps copies.
 */
function capabilityOutput(manifests: readonly string[]): string | undefined {
  const folders = new Set<string>();
  for (const manifest of manifests) {
    // one look per folder: a plain app writes every chart's file into one
    if (folders.has(path.dirname(manifest))) continue;
    folders.add(path.dirname(manifest));
    const output = outputFolderOf(manifest);
    if (output !== undefined) return output;
  }
  return undefined;
}

/**
 * The construct that declared each document, where cdk8s' construct metadata
 * tells it. cdk8s (`App.writeConstructMetadata`) keys that metadata by object
 * name alone (`resources[apiObject.name]`), the last object of a name
 * overwriting the others, so a name that two documents share names the
 * construct of one of them for both. A document is given a construct only when
 * its name is its own among the manifests, and a construct only one document:
 * the others are named by their file and document.
 *
 * @param documents every document of the manifests that parsed
 * @param metadata the construct metadata, by object name
 */
function declaringConstructs(documents: readonly ManifestDocument[], metadata: NonNullable<Cdk8sValidationContext['metadata']>): Map<ManifestDocument, string> {
  const nameOf = (d: ManifestDocument): unknown => (d.object as any)?.metadata?.name;
  const named = new Map<unknown, number>();
  for (const d of documents) named.set(nameOf(d), (named.get(nameOf(d)) ?? 0) + 1);
  const candidates = new Map<ManifestDocument, string>();
  for (const d of documents) {
    const name = nameOf(d);
    const constructPath = typeof name === 'string' && named.get(name) === 1 && hasKey(metadata, name) ? metadata[name]?.path : undefined;
    if (typeof constructPath === 'string' && constructPath !== '') candidates.set(d, constructPath);
  }
  const claims = new Map<string, number>();
  for (const p of candidates.values()) claims.set(p, (claims.get(p) ?? 0) + 1);
  return new Map([...candidates].filter(([, p]) => claims.get(p) === 1));
}

/** True when `key` is an own key of the construct metadata (never one of Object.prototype's). */
function hasKey(metadata: Cdk8sValidationContext['metadata'], key: unknown): boolean {
  return metadata !== undefined && typeof key === 'string' && Object.prototype.hasOwnProperty.call(metadata, key);
}

/** Where a document is, as the report names it: `document 2`, and for a YAML error `document 2, line 7, column 3`. */
function location(d: ManifestDocument): string {
  return d.column === undefined ? `document ${d.index + 1}` : `document ${d.index + 1}, line ${d.line}, column ${d.column}`;
}

/** `Kind namespace/name` of a document, as the report names it. */
function resourceName(o: any): string {
  const name = `${o?.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o?.metadata?.name ?? '(no name)'}`;
  return `${o?.kind ?? '(no kind)'} ${name}`;
}

/**
 * What is wrong with the plugin's `properties:` as cdk8s-cli passes them from cdk8s.yaml, unchecked: a
 * `lockFile` that is not a path, and a property the plugin does not have (a misspelt `lockfile` would
 * otherwise leave the deletion check on the default lock without a word).
 */
function propertyProblems(props: unknown): string[] {
  if (props === undefined || props === null) return [];
  if (typeof props !== 'object' || Array.isArray(props)) return [`the validation plugin's properties in cdk8s.yaml (${shown(props)}) must be a map, such as { lockFile: capability.lock.json }`];
  const problems: string[] = [];
  const { lockFile, ...others } = props as Record<string, unknown>;
  if (lockFile !== undefined && (typeof lockFile !== 'string' || lockFile === '')) {
    problems.push(`the validation plugin's property lockFile in cdk8s.yaml (${shown(lockFile)}) must be the path of the lock file, such as capability.lock.json`);
  }
  for (const key of Object.keys(others)) problems.push(`the validation plugin has no property ${shown(key)} in cdk8s.yaml: its one property is lockFile`);
  return problems;
}
