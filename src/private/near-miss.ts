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
