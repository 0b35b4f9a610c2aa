import * as fs from 'fs';
import type { ManifestDocument, ManifestFinding } from './check-manifests';
import { CODE_TITLES, ViolationCode } from '../check/finding';
import { errorMessage } from '../private/errors';
import { yaml } from '../private/lazy';

/**
 * How many alias nodes a document may expand, as the YAML reader counts them:
 * its default, which cdk8s-cli's own reader applies too. A document past it is
 * an alias bomb (a few lines that expand to billions of nodes).
 */
const MAX_ALIAS_COUNT = 100;

/** The documents of one manifest file that parse, and a finding for each one that does not. */
export interface ManifestFile {
  /** The documents that are valid YAML, in file order (`index` counts every document). */
  readonly documents: ManifestDocument[];
  /** One `CAP010` per document that is not valid YAML or expands too many aliases: it is not checked. */
  readonly findings: ManifestFinding[];
}

/**
 * Reads a manifest file as the cdk8s CLI does (every YAML document of it,
 * YAML 1.2), keeping apart what does not parse: a document with a YAML error
 * is reported with its line and column and never linted as whatever partial
 * object the error leaves; a document whose aliases expand past
 * `MAX_ALIAS_COUNT` is reported instead of being expanded.
 *
 * @param manifestPath the file, as the CLI names it
 */
export function readManifestFile(manifestPath: string): ManifestFile {
  const { LineCounter, parseAllDocuments } = yaml();
  const lines = new LineCounter();
  const parsed = parseAllDocuments(fs.readFileSync(manifestPath, 'utf-8'), { lineCounter: lines });
  const documents: ManifestDocument[] = [];
  const findings: ManifestFinding[] = [];
  Array.from(parsed).forEach((doc, index) => {
    const start = lines.linePos(doc.contents?.range?.[0] ?? doc.range[0]);
    const report = (where: { line: number; col: number }, problem: string) => {
      const document: ManifestDocument = { manifestPath, index, object: undefined, line: where.line, column: where.col };
      const detail = `document ${index + 1} of '${manifestPath}' ${problem}; it was not checked. Fix the file (kubectl would refuse it too).`;
      findings.push({ code: ViolationCode.INVALID_OBJECT, severity: 'error', message: `${CODE_TITLES[ViolationCode.INVALID_OBJECT]}: ${detail}`, paths: [], documents: [document] });
    };
    const error = doc.errors[0];
    if (error) {
      const where = error.linePos?.[0] ?? start;
      report(where, `is not valid YAML at line ${where.line}, column ${where.col}: ${firstLine(error.message)}`);
      return;
    }
    let object: unknown;
    try {
      object = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      report(start, `(from line ${start.line}) expands its aliases past ${MAX_ALIAS_COUNT} nodes, a resource exhaustion attack (${errorMessage(e)})`);
      return;
    }
    documents.push({ manifestPath, index, object, line: start.line });
  });
  return { documents, findings };
}

/** The first line of a YAML error, without the position it repeats (` at line 4, column 1:`). */
function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
