import * as fs from 'fs';
import * as path from 'path';
import type { ReportedFinding } from './report-findings';
import { CODE_TITLES, ViolationCode } from '../check/finding';

/** The `cdk-capability` version in a SARIF log's tool driver. */
function ownVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf-8')).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * A SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), as
 * GitHub code scanning takes it (`github/codeql-action/upload-sarif`): one run,
 * every code as a rule, one result per finding with its code (`ruleId`), level,
 * message, the creation site of its construct (a file relative to the
 * repository root, `SRCROOT`) and every construct path as a logical location.
 *
 * @param root the folder the files are relative to, as a `file://` URI base
 */
export function formatSarif(findings: readonly ReportedFinding[], root: string): string {
  const codes = Object.values(ViolationCode);
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'cdk-capability',
            version: ownVersion(),
            rules: codes.map((code) => ({
              id: code,
              name: ruleName(CODE_TITLES[code]),
              shortDescription: { text: `${code} ${CODE_TITLES[code]}` },
              help: { text: `See docs/errors.md of cdk-capability, section "${code} ${CODE_TITLES[code]}".` },
              defaultConfiguration: { level: code === ViolationCode.POSSIBLE_SECRET ? 'warning' : 'error' },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: directoryUri(root) } },
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: codes.indexOf(f.code),
          level: f.severity,
          message: { text: `${f.code} ${f.message}` },
          locations: [
            {
              ...(f.location
                ? {
                  physicalLocation: {
                    artifactLocation: { uri: encodeURI(f.location.file), uriBaseId: 'SRCROOT' },
                    region: { startLine: f.location.line, startColumn: f.location.column },
                  },
                }
                : {}),
              logicalLocations: f.paths.map((p) => ({ fullyQualifiedName: p, kind: 'object' })),
            },
          ],
        })),
      },
    ],
  };
  return JSON.stringify(log, undefined, 2) + '\n';
}

/** `dangling reference` -> `DanglingReference`, the rule's SARIF name. */
function ruleName(title: string): string {
  return title.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** A folder as a `file://` URI ending in `/`, as SARIF wants a base URI. */
function directoryUri(dir: string): string {
  const absolute = path.resolve(dir).split(path.sep).join('/');
  return `file://${encodeURI(absolute.startsWith('/') ? absolute : `/${absolute}`)}${absolute.endsWith('/') ? '' : '/'}`;
}
