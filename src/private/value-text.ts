import { Construct } from 'constructs';

/**
 * A value as a message quotes it: its JSON, or `String(value)` for what JSON
 * has no text for (`undefined`, a Symbol), a function by its name, not its
 * source, and a construct by its class and path (its JSON would be the whole
 * tree, or a crash on the tree's cycles).
 *
 * @example
 * valueText('edge'); // '"edge"'
 * valueText(undefined); // 'undefined'
 * valueText(GitOps.flux); // 'the function flux'
 * valueText(routing); // "the RuntimeRouting 'cdn/Routing'"
 */
export function valueText(value: unknown): string {
  if (typeof value === 'function') return value.name ? `the function ${value.name}` : 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (Construct.isConstruct(value)) {
    const path = value.node.path;
    return `the ${value.constructor.name} ${path === '' ? 'at the root' : `'${path}'`}`;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return 'an object JSON cannot write';
  }
}
