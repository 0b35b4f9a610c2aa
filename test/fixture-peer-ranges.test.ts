import * as fs from 'fs';
import * as path from 'path';

/**
 * The capability packages this repository ships as examples and test fixtures declare the construct libraries
 * as docs/packaging.md tells a package author to: the ranges `cdk-capability` itself declares. A wider range
 * (`cdk8s ^2.68.0` while ours is `^2.68.11`) would show authors a floor that npm cannot install beside us.
 */

const ROOT = path.resolve(__dirname, '..');
const OURS: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf-8')).peerDependencies;

const PACKAGES = [
  'test/fixtures/cdn-capability-package/package.json',
  'test/fixtures/dns-capability-package/package.json',
  'examples/published-construct/queue-worker/package.json',
];

describe.each(PACKAGES)('%s', (file) => {
  const peers: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf-8')).peerDependencies;

  test('declares each construct library it shares with cdk-capability with cdk-capability\'s own range', () => {
    const shared = Object.keys(peers).filter((name) => name in OURS).sort();
    expect(shared.length).toBeGreaterThan(0);
    expect(Object.fromEntries(shared.map((name) => [name, peers[name]]))).toEqual(Object.fromEntries(shared.map((name) => [name, OURS[name]])));
  });
});

test('every package.json under test/fixtures and examples that declares peers is checked here', () => {
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'cdk.out' || entry.name === 'dist') continue;
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(rel);
      else if (entry.name === 'package.json' && 'peerDependencies' in JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf-8'))) found.push(rel);
    }
  };
  visit('test/fixtures');
  visit('examples');
  expect(found.sort()).toEqual([...PACKAGES].sort());
});
