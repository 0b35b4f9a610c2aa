/**
 * Where a Kubernetes manifest holds a secret by its name rather than by its
 * shape: the literal `value` of a container's environment variable whose name
 * says it is a secret (`DB_PASSWORD`, `GITHUB_TOKEN`). The lock and the plan
 * mask it (`lockValues`), and `CAP012` warns about it.
 */

/**
 * The word parts a secret's name ends with, upper-case, `_`-joined. Only the
 * last parts count: `TOKEN_URL`, `PASSWORD_FILE`, `SECRET_NAME` or
 * `API_KEY_HEADER` name where or how to find a secret, not the secret.
 */
const SECRET_ENDINGS: readonly string[] = ['PASSWORD', 'PASSWD', 'SECRET', 'TOKEN', 'APIKEY', 'API_KEY', 'PRIVATE_KEY', 'SECRET_KEY'];

/** The containers' lists of a pod spec whose `env` is read. */
const CONTAINER_LISTS: ReadonlySet<string> = new Set(['containers', 'initContainers']);

/**
 * True when an environment variable's name says it holds a secret: split into
 * word parts at `_`, `-`, `.` and lower-to-upper case changes, its last part
 * is `PASSWORD`, `PASSWD`, `SECRET`, `TOKEN` or `APIKEY`, or its last two
 * are `API KEY`, `PRIVATE KEY` or `SECRET KEY`, in any case (`DB_PASSWORD`,
 * `githubToken`, `STRIPE_API_KEY`, `DJANGO_SECRET_KEY`; not `TOKEN_URL`,
 * `PASSWORD_FILE`, `PASSWORDLESS`, `KEY`).
 */
export function isSecretEnvName(name: string): boolean {
  const parts = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase().split(/[_.-]+/).filter((p) => p !== '');
  const last = parts[parts.length - 1];
  const lastTwo = parts.slice(-2).join('_');
  return SECRET_ENDINGS.includes(last) || SECRET_ENDINGS.includes(lastTwo);
}

/**
 * True when a value stands for a secret instead of holding one: a Kubernetes
 * dependent variable `$(DB_PASS)`, a shell or template variable `$DB_PASS` or
 * `${DB_PASS}` (an aws-cdk token's text among them), or a mask of asterisks.
 */
export function isSecretPlaceholder(value: string): boolean {
  return /^(\$\([A-Za-z_][A-Za-z0-9_]*\)|\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^{}]*\}|\*+)$/.test(value);
}

/**
 * The name of the environment variable whose literal value is at `at`, when
 * that name says it is a secret: `at` ends with `containers` (or
 * `initContainers`), an index, `env`, an index and `value`, anywhere in the
 * manifest (a Deployment's pod template, a CronJob's, a custom resource's),
 * and the value is a non-empty string that is no placeholder
 * (`isSecretPlaceholder`). A `valueFrom` is no literal.
 *
 * @param manifest the object's manifest
 * @param at the keys from the manifest's root to a node
 * @returns the variable's name, or undefined when the node is no such value
 */
export function secretEnvValueAt(manifest: unknown, at: readonly string[]): string | undefined {
  const n = at.length;
  // cheap tests first: the lock asks this of every node of every object
  if (n < 5 || at[n - 1] !== 'value' || at[n - 3] !== 'env' || !CONTAINER_LISTS.has(at[n - 5])) return undefined;
  let entry: any = manifest;
  for (let i = 0; i < n - 1 && entry !== null && typeof entry === 'object'; i++) entry = entry[at[i]];
  if (entry === null || typeof entry !== 'object' || typeof entry.name !== 'string' || typeof entry.value !== 'string') return undefined;
  return entry.value !== '' && !isSecretPlaceholder(entry.value) && isSecretEnvName(entry.name) ? entry.name : undefined;
}

/**
 * True when a field-ledger path (keyed elements as server-side apply writes
 * them: `containers`, `k:{"name":"web"}`, `env`, `k:{"name":"DB_PASSWORD"}`,
 * `value`) is an environment variable named like a secret, or its `value`: what
 * the plan masks in an escape hatch's values. The value itself is not read, so
 * a placeholder there is masked too.
 */
export function isSecretEnvPath(path: readonly string[]): boolean {
  for (let i = 3; i < path.length; i++) {
    if (path[i - 1] !== 'env' || !CONTAINER_LISTS.has(path[i - 3]) || !path[i].startsWith('k:')) continue;
    const name = elementName(path[i]);
    return name !== undefined && isSecretEnvName(name) && (i === path.length - 1 || path[i + 1] === 'value');
  }
  return false;
}

function elementName(segment: string): string | undefined {
  try {
    const keys = JSON.parse(segment.slice(2));
    return typeof keys?.name === 'string' ? keys.name : undefined;
  } catch {
    return undefined;
  }
}
