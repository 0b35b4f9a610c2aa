/**
 * Why `name` is not a valid SSM Parameter Store name, or undefined.
 *
 * Enforces the rules aws-cdk-lib leaves to the service: a fully qualified name
 * starts with `/`, uses only letters, digits and `.-_/`, has at most 15 levels
 * and 1,011 characters, and no level may begin with `aws` or `ssm`
 * (case-insensitive) at the top.
 */
export function parameterNameProblem(name: string): string | undefined {
  if (!name.startsWith('/')) return `"${name}" must start with "/"`;
  if (name.length > 1011) return `"${name.slice(0, 40)}..." has ${name.length} characters, at most 1011 are allowed`;
  if (!/^[a-zA-Z0-9_.\-/]+$/.test(name)) return `"${name}" may only contain letters, digits and . - _ /`;
  const levels = name.split('/').slice(1);
  if (levels.some((l) => l === '')) return `"${name}" has an empty level`;
  if (levels.length > 15) return `"${name}" has ${levels.length} levels, at most 15 are allowed`;
  if (/^(aws|ssm)/i.test(levels[0])) return `"${name}" begins with "${levels[0].slice(0, 3)}", a prefix AWS reserves`;
  return undefined;
}
