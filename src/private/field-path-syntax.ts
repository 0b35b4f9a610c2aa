/**
 * One step of a field path, as a user writes it: a field or map key, a keyed
 * list element (`[name=web]`), or a value of a set (`[=example.com/protect]`).
 */
export type PathStep =
  | { readonly field: string }
  | { readonly keys: Readonly<Record<string, unknown>> }
  | { readonly value: unknown };

/** A field path that does not parse: where and why. */
export class FieldPathSyntaxError extends Error {
  /**
   * @param text the path as given
   * @param offset the character where reading stopped (0-based)
   * @param expected what would have been accepted there
   */
  public constructor(public readonly text: string, public readonly offset: number, public readonly expected: string) {
    super(`${JSON.stringify(text)} is not a field path: expected ${expected} ${describeOffset(text, offset)}`);
    this.name = 'FieldPathSyntaxError';
  }

  /** Where reading stopped, as messages say it: `at character 6`, `at the end of the path`, `but the path is empty`. */
  public get where(): string {
    return describeOffset(this.text, this.offset);
  }
}

/** A character of the path (1-based), or its end when reading ran past the last character. */
function describeOffset(text: string, offset: number): string {
  if (offset < text.length) return `at character ${offset + 1}`;
  return text === '' ? 'but the path is empty' : 'at the end of the path';
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
const KEY_NAME = /[A-Za-z_][A-Za-z0-9_.\-/]*/y;
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * A key or set value as a path prints it (`[name=web]`, `[containerPort=8080]`, `[=example.com/protect]`), so that
 * `parseFieldPath` reads it back as the same value: a string as itself, unless it would read as another value or
 * not end where it should, then as a JSON string: one that spells a JSON number, `true`, `false` or `null`
 * (`"2"`, `"true"`), one that is empty, starts or ends with a space, or holds `,`, `]`, `=` or `"`. Any other value
 * as JSON (`8080`, `true`, `null`).
 */
export function formatScalar(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? 'null';
  return needsQuotes(value) ? JSON.stringify(value) : value;
}

function needsQuotes(text: string): boolean {
  return text === '' || /[,\]="]|^\s|\s$/.test(text) || text === 'true' || text === 'false' || text === 'null' || JSON_NUMBER.test(text);
}

/**
 * Reads a field path in the syntax the ledger prints (`formatPath`), the
 * inverse of it:
 *
 * - fields joined by dots: `spec.domains`;
 * - a map key that is not an identifier, as a JSON string in brackets:
 *   `metadata.labels["app.kubernetes.io/name"]`;
 * - a keyed list element by its key fields: `spec.template.spec.containers[name=web].image`,
 *   `ports[containerPort=80,protocol=TCP]`;
 * - a value of a set: `metadata.finalizers[=example.com/protect]`.
 *
 * A key or set value is a JSON string (`[name="80"]`), a JSON number, `true`,
 * `false` or `null`, or else the plain text up to the next `,` or `]` (`formatScalar` writes one).
 *
 * @param text the path
 * @returns its steps, at least one
 * @throws FieldPathSyntaxError naming the character where it stops making sense
 */
export function parseFieldPath(text: string): PathStep[] {
  const steps: PathStep[] = [];
  let at = 0;
  const fail = (expected: string): never => {
    throw new FieldPathSyntaxError(text, at, expected);
  };
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    at += m[0].length;
    return m[0];
  };

  while (at < text.length || steps.length === 0) {
    if (steps.length > 0 && text[at] === '.') {
      at++;
      steps.push({ field: match(IDENTIFIER) ?? fail('a field name (letters, digits, "_") after "."') });
    } else if (text[at] === '[') {
      at++;
      steps.push(bracketStep());
      if (text[at] !== ']') fail('"]"');
      at++;
    } else if (steps.length === 0) {
      steps.push({ field: match(IDENTIFIER) ?? fail('a field name, or a quoted key in brackets such as ["app.kubernetes.io/name"]') });
    } else {
      fail('".", "[" or the end of the path');
    }
  }
  return steps;

  function bracketStep(): PathStep {
    const quoted = match(JSON_STRING);
    if (quoted !== undefined) return { field: JSON.parse(quoted) };
    if (text[at] === '=') {
      at++;
      return { value: scalar() };
    }
    const keys: Record<string, unknown> = {};
    for (;;) {
      const key = match(KEY_NAME) ?? fail('a quoted map key, "=value" (a set value) or "key=value" (a keyed list element)');
      if (Object.hasOwn(keys, key)) fail(`another key field than ${JSON.stringify(key)}, which is already given`);
      if (text[at] !== '=') fail(`"=" after the key field ${JSON.stringify(key)}`);
      at++;
      keys[key] = scalar();
      if (text[at] !== ',') return { keys };
      at++;
    }
  }

  function scalar(): unknown {
    const quoted = match(JSON_STRING);
    if (quoted !== undefined) return JSON.parse(quoted);
    const start = at;
    while (at < text.length && text[at] !== ',' && text[at] !== ']') at++;
    const raw = text.slice(start, at);
    if (raw === '') {
      at = start;
      return fail('a value (quote it as a JSON string when it is empty or holds "," or "]")');
    }
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    if (raw === 'null') return null;
    return JSON_NUMBER.test(raw) ? Number(raw) : raw;
  }
}
