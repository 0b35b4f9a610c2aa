/** What Kubernetes 1.30 takes for an environment variable's name (`validation.IsEnvVarName`'s format). */
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/**
 * Why the API server (Kubernetes 1.30) refuses `name` as a container environment variable's name, or undefined
 * when it takes it: letters, digits, '_', '-' and '.', not starting with a digit, and neither '.', '..' nor
 * starting with '..'.
 *
 * @example
 * envVarNameProblem('TENANT_HEADER'); // undefined
 * envVarNameProblem('1ABC'); // 'it starts with a digit'
 */
export function envVarNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name === '.' || name === '..' || name.startsWith('..')) return `it ${name.length <= 2 ? 'is' : 'starts with'} '${name.length <= 2 ? name : '..'}'`;
  if (/^[0-9]/.test(name)) return 'it starts with a digit';
  if (!ENV_VAR_NAME.test(name)) {
    const others = [...new Set([...name].filter((c) => !/[-._a-zA-Z0-9]/.test(c)))].map((c) => JSON.stringify(c));
    return `it contains ${others.join(', ')}`;
  }
  return undefined;
}

/**
 * `name` as an environment variable's name the API server takes, for a message to suggest: each other character
 * an '_', an '_' before a leading digit or '..'; undefined when that leaves nothing of it.
 *
 * @example
 * envVarNameLike('tenant header'); // 'tenant_header'
 */
export function envVarNameLike(name: string): string | undefined {
  const replaced = name.replace(/[^-._a-zA-Z0-9]/g, '_');
  const fixed = /^([0-9]|\.\.|\.$)/.test(replaced) ? `_${replaced}` : replaced;
  return /[a-zA-Z0-9]/.test(fixed) && envVarNameProblem(fixed) === undefined ? fixed : undefined;
}

/**
 * The environment variable a program would name after `field`, for a message's example: its words in capitals
 * joined by '_' (`tenantHeader` is `TENANT_HEADER`); undefined when that is no name the API server takes.
 */
export function envVarNameFor(field: string): string | undefined {
  return envVarNameLike(field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase());
}
