/**
 * The one name of `known` that `name` most likely misspells: at most two edits away (a letter added, dropped,
 * changed, or two neighbours swapped; letter case is free), and fewer than half its letters. Undefined when
 * none is that close, or two are equally close: a message then names no guess rather than a wrong one.
 *
 * @example
 * nearMiss('outdri', ['outdir', 'lockFile']); // 'outdir'
 * nearMiss('region', ['outdir', 'lockFile']); // undefined
 */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  const limit = Math.min(2, Math.ceil(name.length / 2) - 1);
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tied = false;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tied = false;
    } else if (d === bestDistance) {
      tied = true;
    }
  }
  return best !== undefined && !tied ? best : undefined;
}

/**
 * Why each key of `given` that `known` does not hold is refused, one line each: it is not an option, the option
 * it most likely misspells (`nearMiss`), and the options. A key of our own options that is not one would
 * otherwise be dropped without a word.
 *
 * @param prefix what each key is written after in the message (`'sourceRef.'`, `'enforce.'`)
 * @example
 * unknownKeyProblems({ intervall: 5 }, ['interval', 'path'], '');
 * // ["'intervall' is not an option (did you mean 'interval'?); the options are 'interval', 'path'"]
 */
export function unknownKeyProblems(given: object, known: readonly string[], prefix: string): string[] {
  return Object.keys(given)
    .filter((k) => !known.includes(k))
    .map((k) => {
      const meant = nearMiss(k, known);
      return `'${prefix}${k}' is not an option${meant ? ` (did you mean '${prefix}${meant}'?)` : ''}; the options are ${known.map((n) => `'${prefix}${n}'`).join(', ')}`;
    });
}

/** The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The keys of `T`, every one and no other: the compiler refuses a `keys` object that misses a key of `T` or
 * holds one it does not have, so a list of known option keys cannot drift from the options' interface (nor
 * from a parent interface of another package, such as cdk8s' `ChartProps`, when that package adds a prop).
 *
 * @example
 * keysOf<{ a?: number; b: string }>({ a: true, b: true }); // ['a', 'b']
 */
export function keysOf<T>(keys: { readonly [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(keys);
}

/**
 * Why each key of `given` that is not one of `known` is refused, when `known` is not every key there may be
 * (a parent's props that another package adds to across versions): only a key that misspells a known one,
 * `'<key>' is not a prop; did you mean '<known>'?`; any other passes.
 */
export function misspeltKeyProblems(given: object, known: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(given)) {
    const meant = known.includes(key) ? undefined : nearMiss(key, known);
    if (meant !== undefined) problems.push(`'${key}' is not a prop; did you mean '${meant}'?`);
  }
  return problems;
}
