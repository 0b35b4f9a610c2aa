/**
 * `parts` joined into one flat string.
 *
 * V8 keeps a string made with `+` or a template literal (13 characters or more)
 * as a tree of its parts, 32 bytes a node, until something reads it whole; a
 * tree read whole keeps its top node beside the copy. `join` copies the parts
 * into one string at once. Use it for a string a synth holds to its end, made
 * once per object (an identity's key, its label, its lock id): the tree of
 * `object:|ConfigMap|bench|cm-0-1` is about 190 bytes, the string 56.
 */
export function flatString(...parts: string[]): string {
  return parts.join('');
}
