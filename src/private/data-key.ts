/** A ConfigMap or Secret data key: `IsConfigMapKey` of k8s.io/apimachinery `pkg/util/validation/validation.go`. */
const DATA_KEY = /^[-._a-zA-Z0-9]+$/;

/** The longest ConfigMap or Secret data key (`IsConfigMapKey`: a DNS-1123 subdomain's length). */
export const MAX_DATA_KEY = 253;

/** Why `key` is not a valid ConfigMap or Secret key (`IsConfigMapKey`), or undefined when it is. */
export function dataKeyProblem(key: string): string | undefined {
  if (key === '') return 'it is empty';
  if (key.length > MAX_DATA_KEY) return `it has ${key.length} characters`;
  if (!DATA_KEY.test(key)) {
    const bad = [...new Set([...key].filter((c) => !/[-._a-zA-Z0-9]/.test(c)))];
    return `it contains ${bad.slice(0, 3).map((c) => JSON.stringify(c)).join(', ')}${bad.length > 3 ? ' and more' : ''}`;
  }
  if (key === '.') return 'it is "."';
  if (key.startsWith('..')) return 'it starts with ".."';
  return undefined;
}

/** ` such as "x"` with a valid key close to `key`, or `''`. */
export function suggestDataKey(key: string): string {
  const s = key.replace(/[^-._a-zA-Z0-9]+/g, '_').replace(/^\.\.+/, '').slice(0, MAX_DATA_KEY);
  return s && s !== key && !dataKeyProblem(s) ? ` such as ${JSON.stringify(s)}` : '';
}
