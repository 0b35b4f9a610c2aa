import * as fs from 'fs';
import { isMap, isSeq, LineCounter, Node, parseDocument } from 'yaml';

/**
 * The 1-based line of a lock file that a lock's `CAP014` is about, so that a report (`--format github`, SARIF)
 * annotates it there: the first merge-conflict marker, the `contentDigest` line of a lock whose content does not
 * match it, the `formatVersion` line of a lock of a newer format, the value a schema problem's JSON pointer names
 * (or its nearest ancestor in the file, for a key that is missing), the place JSON.parse stopped (or the YAML
 * parser's first error, where Node's message does not say); 1 when none is
 * known or the file cannot be read (a missing lock).
 *
 * @param file the lock file
 * @param message the finding's message, as the lock reader words it (src/release/lock.ts)
 */
export function lockProblemLine(file: string, message: string): number {
  const marker = /a '[<=>|]{7}' marker at line (\d+)\)/.exec(message);
  if (marker) return Number(marker[1]);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf-8');
  } catch {
    return 1;
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (message.includes('is not valid JSON (')) {
    // Node 22 says where JSON.parse stopped; Node 20 often does not, and then the YAML parser's first error (JSON
    // is YAML 1.2) is the place, or near it
    const position = /\bat position (\d+)/.exec(message);
    if (position) return lineAt(text, Number(position[1]));
    const lines = new LineCounter();
    const error = parseDocument(text, { lineCounter: lines }).errors[0];
    return error ? lines.linePos(error.pos[0]).line : 1;
  }
  const pointer = message.includes('does not match its contentDigest')
    ? '/contentDigest'
    : message.includes('was written by a newer version')
      ? '/formatVersion'
      : /is not a cdk-capability lock: (\/\S*)/.exec(message)?.[1];
  return pointer === undefined ? 1 : pointerLine(text, pointer) ?? 1;
}

/** The line of a character offset in a text. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The line of the key (or element) a JSON pointer names in a JSON text, or of its nearest ancestor the text has;
 * undefined when the text is no JSON the YAML parser reads (JSON is YAML 1.2) or names nothing on the way.
 */
function pointerLine(text: string, pointer: string): number | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, keepSourceTokens: false, uniqueKeys: false });
  if (doc.errors.length > 0) return undefined;
  const tokens = pointer.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0];
  for (const token of tokens) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === token);
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(token) && Number(token) < node.items.length) {
      node = node.items[Number(token)];
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset === undefined ? undefined : lines.linePos(offset).line;
}
