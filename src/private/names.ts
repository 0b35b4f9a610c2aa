/**
 * A file-name-safe slug of a construct path: lowercase letters, digits and
 * single dashes, at most 80 characters. Never empty, never `.` or `..`, so a
 * derived file name cannot leave its folder.
 */
export function slug(path: string): string {
  const s = path
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return s || 'root';
}
