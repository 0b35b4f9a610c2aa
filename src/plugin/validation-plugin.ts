import * as path from 'path';
import { checkManifests, ManifestDocument, ManifestFinding } from './check-manifests';
import { readManifestFile } from './manifest-files';
import { CODE_TITLES, compareFindings, ViolationCode } from '../check/finding';
import { appendAll } from '../private/append';
import { errorMessage } from '../private/errors';
import { DEFAULT_LOCK_FILE } from '../release/lock';

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
  /** Parses a manifest file into its documents (not used: the plugin reads the files itself, to report YAML errors). */
  parseManifest(manifestPath: string): any[];
}

/** Properties of the validation plugin, as `properties:` of its entry in `cdk8s.yaml`. */
export interface CapabilityValidationProps {
  /**
   * The lock of the previous release, for deletion safety (`CAP008`), relative
   * to the folder `cdk8s synth` runs in. With `CDK_CAPABILITY_UPDATE_LOCK=1` a
   * synth whose manifests pass rewrites it.
   *
   * @default 'capability.lock.json'
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
 */
export class CapabilityValidation {
  private readonly lockFile: string;

  /** @param props the `properties:` of the plugin's entry in cdk8s.yaml */
  constructor(props: CapabilityValidationProps = {}) {
    this.lockFile = path.resolve(props.lockFile ?? DEFAULT_LOCK_FILE);
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
    try {
      const documents: ManifestDocument[] = [];
      const unparsed: ManifestFinding[] = [];
      for (const manifestPath of context.manifests) {
        const file = readManifestFile(manifestPath);
        appendAll(documents, file.documents);
        appendAll(unparsed, file.findings);
      }
      const checked = checkManifests(documents, { lockFile: this.lockFile, updateLock: process.env.CDK_CAPABILITY_UPDATE_LOCK === '1' });
      findings = appendAll(unparsed, checked).sort(compareFindings);
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
        violatingResources: f.documents.map((d) => ({
          resourceName: resourceName(d.object),
          locations: [location(d)],
          manifestPath: d.manifestPath,
        })),
      });
    }
    const errors = findings.filter((f) => f.severity === 'error').length;
    context.report.submit(errors > 0 ? 'failure' : 'success', { errors: String(errors), warnings: String(findings.length - errors) });
  }
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
