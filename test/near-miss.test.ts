import { nearMiss } from '../src/private/near-miss';

describe('nearMiss: the known name a name most likely misspells', () => {
  const KNOWN = ['outdir', 'lockFile', 'gitops', 'enforce', 'context'];

  test.each([
    ['outdri', 'outdir'], // two neighbours swapped
    ['outdirr', 'outdir'], // a letter added
    ['lockfile', 'lockFile'], // letter case is free
    ['lokFile', 'lockFile'], // a letter dropped
    ['gitopz', 'gitops'], // a letter changed
    ['enforec', 'enforce'],
  ])('%s -> %s', (name, meant) => {
    expect(nearMiss(name, KNOWN)).toBe(meant);
  });

  test.each([
    ['region'], // close to nothing
    ['out'], // three edits from outdir
    ['git'], // more than half its letters
  ])('%s -> no guess', (name) => {
    expect(nearMiss(name, KNOWN)).toBeUndefined();
  });

  test('two names equally close: no guess rather than a wrong one', () => {
    expect(nearMiss('cat', ['bat', 'car'])).toBeUndefined();
    expect(nearMiss('cat', ['bat', 'dog', 'cattle'])).toBe('bat');
  });
});
