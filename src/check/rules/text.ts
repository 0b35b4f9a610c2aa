import type { IncludedFile } from '../../collect/facts';
/** Construct paths as messages quote them: `'cdn/Routing/Web'`. */
export function quoted(paths: readonly string[]): string[] {
  return paths.map((p) => `'${p}'`);
}

/** At most five items, then how many more: `a, b, c, d, e and 3 more`. */
export function listSome(items: readonly string[]): string {
  const shown = items.slice(0, 5).join(', ');
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A sentence, such as an upstream error message, to go before another: without its final period (`a cyclic reference.` is `a cyclic reference`). */
export function withoutFinalPeriod(sentence: string): string {
  return sentence.trimEnd().replace(/\.+$/, '');
}

/**
 * Where an included writer declares a field, and how to drop it there: `in the file 'k8s/app.yaml' (read by an
 * Include): drop the field from its document in that file`.
 */
export function includedHow({ file, by }: IncludedFile): string {
  return by === 'CfnInclude'
    ? `in the template '${file}' (read by a CfnInclude): drop the property from its resource in that file`
    : `in the file '${file}' (read by an Include): drop the field from its document in that file`;
}
