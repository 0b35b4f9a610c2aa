import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, CompositionError, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';
import { appOf, coded, lockedSeries, newSeries, nextRelease, release, removeReleaseDirs, withUpdateLock } from './release-fixtures';

afterAll(removeReleaseDirs);

/** A literal shaped like an AWS access key id (the documented example key). */
const SECRET_LOOKING = 'AKIAIOSFODNN7EXAMPLE';

interface LockVariant {
  /** The contract's version. */
  readonly version: string;
  /** A value published as the optional field `apiKey`. */
  readonly apiKey?: string;
  /** Adds a RoleBinding to a Role that does not exist (CAP005), so the release is refused. */
  readonly refused?: boolean;
  /** Adds ConfigMap `extra`. */
  readonly extra?: boolean;
}

/**
 * GIVEN-side builder: capability `cdn` with contract `Edge`, shared base
 * `Base` publishing the literal tenant header `x-tenant-id`, tenant `acme`,
 * and runtime routing `Routing` that consumes the contract and inlines the
 * header into ConfigMap `edge-header`.
 */
function cdn(app: CapabilityApp, v: LockVariant): void {
  const capability = new Capability(app, 'cdn');
  const edge = new InterfaceContract(capability, 'Edge', {
    version: v.version,
    fields: { originDnsName: Field.dnsName(), tenantHeader: Field.string(), apiKey: Field.string().optional() },
  });
  const base = new SharedBase(capability, 'Base');
  edge.publish(base, { originDnsName: 'origin.example.com', tenantHeader: 'x-tenant-id', ...(v.apiKey ? { apiKey: v.apiKey } : {}) });
  new DeploymentAggregate(capability, 'acme');
  const routing = new RuntimeRouting(capability, 'Routing');
  const values = edge.consume(routing);
  new ApiObject(routing, 'Header', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'edge-header' }, data: { header: values.tenantHeader.value ?? '' } });
  if (v.extra) new ApiObject(routing, 'Extra', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } });
  if (v.refused) {
    new ApiObject(routing, 'Binding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'read-config' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'missing-role' },
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    });
  }
}

/** The units of the `cdn` composition, in declaration order, as the plan and the lock name them. */
const CDN_UNITS = [
  'stack cdn/Base',
  'stack cdn/acme',
  'external-secrets.io/ExternalSecret cdn-edge-interface',
  'ConfigMap edge-header',
];

describe('the lock file', () => {
  test('with no lock file the release is a first release: everything is added', () => {
    // GIVEN a lock file path where no file exists
    const series = newSeries();
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN it is accepted and plan.changes lists every stack and object as added
    expect(violations).toEqual([]);
    expect(plan?.changes).toEqual({
      firstRelease: true,
      added: CDN_UNITS,
      changed: [],
      removed: [],
      fields: [],
      traffic: [],
      handovers: [],
      contracts: [{ contract: 'cdn/Edge', change: 'added', after: { version: '1.0.0', parameter: '/cdk-capability/cdn/edge/v1' } }],
      interface: [],
    });
  });

  test('an accepted synth without CDK_CAPABILITY_UPDATE_LOCK writes no lock', () => {
    // GIVEN no lock file and the variable unset
    const series = newSeries();
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized
    withUpdateLock(undefined, () => app.synth());

    // THEN the output is written but no lock file
    expect(fs.existsSync(app.outdir)).toBe(true);
    expect(fs.existsSync(series.lockFile)).toBe(false);
  });

  test.each(['1', 'true', 'yes', 'TRUE', 'Yes'])('CDK_CAPABILITY_UPDATE_LOCK=%s writes the lock and says where on stderr', (value) => {
    // GIVEN no lock file
    const series = newSeries();
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized with the variable set to a yes
    let stderr = '';
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (stderr += String(chunk)) !== '');
    try {
      withUpdateLock(value, () => app.synth());
    } finally {
      spy.mockRestore();
    }

    // THEN the lock is written, and stderr names it
    expect(fs.existsSync(series.lockFile)).toBe(true);
    expect(stderr).toBe(`cdk-capability: wrote the lock of this release to ${series.lockFile} (CDK_CAPABILITY_UPDATE_LOCK=${value}); commit it.\n`);
  });

  test.each(['', '0', 'false', 'no', 'NO'])('CDK_CAPABILITY_UPDATE_LOCK=%j writes no lock and says nothing', (value) => {
    // GIVEN no lock file
    const series = newSeries();
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized with the variable set to a no
    const spy = jest.spyOn(process.stderr, 'write');
    try {
      withUpdateLock(value, () => app.synth());
      // THEN the output is written, no lock, nothing on stderr
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(fs.existsSync(app.outdir)).toBe(true);
    expect(fs.existsSync(series.lockFile)).toBe(false);
  });

  test('CDK_CAPABILITY_UPDATE_LOCK set to anything else is refused with CAP011 before anything is written', () => {
    // GIVEN no lock file
    const series = newSeries();
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized with the variable set to "maybe"
    const run = () => withUpdateLock('maybe', () => app.synth());

    // THEN CAP011 says which values it takes, and neither output nor lock is written
    expect(run).toThrow(CompositionError);
    expect(run).toThrow(
      'CAP011 output not written: CDK_CAPABILITY_UPDATE_LOCK is "maybe", which is neither 1, true or yes (rewrite the lock) nor 0, false, no or unset (leave it). Nothing was changed. Set it to one of those.',
    );
    expect(fs.existsSync(app.outdir)).toBe(false);
    expect(fs.existsSync(series.lockFile)).toBe(false);
  });

  test('a lockFile whose folder does not exist is refused with CAP011 saying so, before anything is written', () => {
    // GIVEN lockFile 'locks/capability.lock.json', and no folder 'locks'
    const series = newSeries();
    const lockFile = path.join(series.dir, 'locks', 'capability.lock.json');
    const app = new CapabilityApp({ outdir: path.join(series.dir, 'dist'), lockFile });
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    const run = () => withUpdateLock('1', () => app.synth());

    // THEN CAP011 says that the folder does not exist and to create it (no retry can help); nothing is written
    expect(run).toThrow(CompositionError);
    expect(run).toThrow(
      `CAP011 output not written: the folder '${path.join(series.dir, 'locks')}' of the lock file '${lockFile}' does not exist, so the lock of this release cannot be written (CDK_CAPABILITY_UPDATE_LOCK=1). ` +
        `Nothing was changed. Create the folder (mkdir -p ${path.join(series.dir, 'locks')}), or correct the path of the lock file, and synth again.`,
    );
    expect(fs.readdirSync(series.dir)).toEqual([]);
  });

  test('a lockFile whose folder is a file is refused with CAP011 saying so, before anything is written', () => {
    // GIVEN lockFile 'locks/capability.lock.json', where 'locks' is a file
    const series = newSeries();
    fs.writeFileSync(path.join(series.dir, 'locks'), 'not a folder');
    const lockFile = path.join(series.dir, 'locks', 'capability.lock.json');
    const app = new CapabilityApp({ outdir: path.join(series.dir, 'dist'), lockFile });
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    const run = () => withUpdateLock('1', () => app.synth());

    // THEN CAP011 names the file in the way; nothing is written
    expect(run).toThrow(
      `CAP011 output not written: the folder '${path.join(series.dir, 'locks')}' of the lock file '${lockFile}' is a file, not a folder, so the lock of this release cannot be written (CDK_CAPABILITY_UPDATE_LOCK=1). ` +
        'Nothing was changed. Correct the path of the lock file, or move that file away, and synth again.',
    );
    expect(fs.readdirSync(series.dir)).toEqual(['locks']);
  });

  test('a lockFile whose folder does not exist is a first release when the lock is not rewritten', () => {
    // GIVEN lockFile 'locks/capability.lock.json', and no folder 'locks'
    const series = newSeries();
    const app = new CapabilityApp({ outdir: path.join(series.dir, 'dist'), lockFile: path.join(series.dir, 'locks', 'capability.lock.json') });
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized without CDK_CAPABILITY_UPDATE_LOCK
    withUpdateLock(undefined, () => app.synth());

    // THEN the output is written, and no folder is created
    expect(fs.readdirSync(series.dir)).toEqual(['dist']);
  });

  test('an accepted synth with CDK_CAPABILITY_UPDATE_LOCK=1 writes the lock of the release', () => {
    // GIVEN no lock file
    const series = newSeries();

    // WHEN the release is synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    const before = process.env.CDK_CAPABILITY_UPDATE_LOCK;
    release(series, cdn, { version: '1.0.0' });

    // THEN the lock records the interface and every stack and object, and the variable is as it was
    expect(process.env.CDK_CAPABILITY_UPDATE_LOCK).toBe(before);
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    expect(lock.formatVersion).toBe(2);
    expect(lock.interfaces.map((i: any) => `${i.capability}/${i.name} ${i.version}`)).toEqual(['cdn/Edge 1.0.0']);
    expect(lock.units.map((u: any) => u.label)).toEqual(CDN_UNITS);
  });

  test('the next release compares against the lock: nothing changed is not a first release', () => {
    // GIVEN the real lock of release 1.0.0
    const series = lockedSeries(cdn, { version: '1.0.0' });

    // WHEN the same composition is synthesized again
    const { violations, plan } = nextRelease(series, cdn, { version: '1.0.0' });

    // THEN it is accepted with no changes
    expect(violations).toEqual([]);
    const none = { fields: [], traffic: [], handovers: [], contracts: [], interface: [] };
    expect(plan?.changes).toEqual({ firstRelease: false, added: [], changed: [], removed: [], ...none });
  });

  test('a refused synth with CDK_CAPABILITY_UPDATE_LOCK=1 writes no lock where there was none', () => {
    // GIVEN no lock file and a composition with a dangling RoleBinding
    const series = newSeries();
    const app = appOf(series);
    cdn(app, { version: '1.0.0', refused: true });

    // WHEN synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    const run = () => withUpdateLock('1', () => app.synth());

    // THEN it is refused with CAP005 and no lock file exists
    expect(run).toThrow(CompositionError);
    expect(run).toThrow(/CAP005/);
    expect(fs.existsSync(series.lockFile)).toBe(false);
  });

  test('a refused synth with CDK_CAPABILITY_UPDATE_LOCK=1 leaves the existing lock byte-identical', () => {
    // GIVEN the real lock of release 1.0.0
    const series = lockedSeries(cdn, { version: '1.0.0' });
    const locked = fs.readFileSync(series.lockFile);

    // WHEN a release that adds a ConfigMap and a dangling RoleBinding is synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    const app = appOf(series);
    cdn(app, { version: '1.1.0', extra: true, refused: true });
    const run = () => withUpdateLock('1', () => app.synth());

    // THEN it is refused and the lock is byte-identical
    expect(run).toThrow(/CAP005/);
    expect(fs.readFileSync(series.lockFile).equals(locked)).toBe(true);
  });

  test('an accepted synth without CDK_CAPABILITY_UPDATE_LOCK leaves the existing lock byte-identical', () => {
    // GIVEN the real lock of release 1.0.0
    const series = lockedSeries(cdn, { version: '1.0.0' });
    const locked = fs.readFileSync(series.lockFile);

    // WHEN a release that adds a ConfigMap is synthesized without the variable
    const app = appOf(series);
    cdn(app, { version: '1.0.0', extra: true });
    withUpdateLock(undefined, () => app.synth());

    // THEN the lock is byte-identical
    expect(fs.readFileSync(series.lockFile).equals(locked)).toBe(true);
  });

  test('an accepted synth with CDK_CAPABILITY_UPDATE_LOCK=1 rewrites the lock to the new release', () => {
    // GIVEN the real lock of release 1.0.0
    const series = lockedSeries(cdn, { version: '1.0.0' });

    // WHEN release 1.0.1 adding ConfigMap extra is synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    release(series, cdn, { version: '1.0.1', extra: true });

    // THEN the lock records 1.0.1 and ConfigMap extra, and the next release of the same composition has no changes
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    expect(lock.interfaces[0].version).toBe('1.0.1');
    expect(lock.units.map((u: any) => u.label)).toContain('ConfigMap extra');
    expect(nextRelease(series, cdn, { version: '1.0.1', extra: true }).plan?.changes).toEqual({
      firstRelease: false,
      added: [],
      changed: [],
      removed: [],
      fields: [],
      traffic: [],
      handovers: [],
      contracts: [],
      interface: [],
    });
  });

  test('the lock holds field values for the plan, but masks a secret-looking literal', () => {
    // GIVEN a release publishing tenantHeader "x-tenant-id" and apiKey shaped like an AWS access key id
    const series = newSeries();
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      // WHEN it is released with CDK_CAPABILITY_UPDATE_LOCK=1
      release(series, cdn, { version: '1.0.0', apiKey: SECRET_LOOKING });
    } finally {
      stderr.mockRestore();
    }

    // THEN the lock holds ConfigMap edge-header's data, and the template's parameter value masked: it carries the key
    const text = fs.readFileSync(series.lockFile, 'utf-8');
    const lock = JSON.parse(text);
    expect(text).not.toContain(SECRET_LOOKING);
    expect(lock.units.find((u: any) => u.label === 'ConfigMap edge-header').values).toEqual({
      'apiVersion': 'v1',
      'kind': 'ConfigMap',
      'metadata.name': 'edge-header',
      'data.header': 'x-tenant-id',
    });
    const base = lock.units.find((u: any) => u.label === 'stack cdn/Base').values;
    const parameterValue = Object.entries(base).filter(([k]) => /^Resources\.EdgeInterface[0-9A-F]+\.Properties\.Value$/.test(k));
    expect(parameterValue).toEqual([[expect.any(String), '(sensitive)']]);
  });

  test('the lock masks every value of a Secret\'s data and stringData', () => {
    // GIVEN a release with Secret creds holding data and stringData
    const series = newSeries();
    const build = (app: CapabilityApp) => {
      cdn(app, { version: '1.0.0' });
      const routing = app.node.findChild('cdn').node.findChild('Routing');
      new ApiObject(routing, 'Creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { token: 'c2VjcmV0' }, stringData: { password: 'hunter2' } });
    };

    // WHEN it is released
    release(series, build, undefined);

    // THEN the lock holds the keys, never the values
    const text = fs.readFileSync(series.lockFile, 'utf-8');
    expect(JSON.parse(text).units.find((u: any) => u.label === 'Secret creds').values).toEqual({
      'apiVersion': 'v1',
      'kind': 'Secret',
      'metadata.name': 'creds',
      'data.token': '(sensitive)',
      'stringData.password': '(sensitive)',
    });
    expect(text).not.toContain('c2VjcmV0');
    expect(text).not.toContain('hunter2');
  });

  test('a lock file that is not valid JSON is refused with CAP014 naming the file', () => {
    // GIVEN a lock file holding truncated JSON
    const series = newSeries();
    fs.writeFileSync(series.lockFile, '{"formatVersion": 1, "units": [');
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN one CAP014 names the file and says how to recover, and there is no plan
    expect(coded(violations)).toEqual([
      {
        code: 'CAP014',
        message: expect.stringMatching(/^lock file: '(.+)' is not valid JSON \(.+\)\. Restore the file from version control, correct it \(docs\/lock\.md\), or delete it to start a first release\.$/),
        paths: [],
      },
    ]);
    expect(violations[0].message).toContain(`'${series.lockFile}'`);
    expect(plan).toBeUndefined();
  });

  test('a lock file holding merge-conflict markers is refused with CAP014 saying so, with the line, and how to resolve it', () => {
    // GIVEN a lock file left by a conflicted git merge
    const series = newSeries();
    fs.writeFileSync(series.lockFile, '{\n  "formatVersion": 1,\n<<<<<<< HEAD\n  "units": [],\n=======\n  "units": [{}],\n>>>>>>> feature\n}\n');
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN one CAP014 names the marker and its line, and the way out
    expect(coded(violations)).toEqual([
      {
        code: 'CAP014',
        message:
          `lock file: '${series.lockFile}' holds a merge conflict (a '<<<<<<<' marker at line 3), so it is not valid JSON. ` +
          'Resolve it by taking either side whole (git checkout --ours or --theirs), then synth the merged program again with ' +
          'CDK_CAPABILITY_UPDATE_LOCK=1 to rewrite the lock, and commit it (docs/lock.md).',
        paths: [],
      },
    ]);
    expect(plan).toBeUndefined();
  });

  test('a lock file of the wrong shape is refused with one CAP014 per violation, each naming its JSON pointer', () => {
    // GIVEN a lock file holding valid JSON that is not a lock
    const series = newSeries();
    fs.writeFileSync(series.lockFile, JSON.stringify({ formatVersion: 0, units: {} }));
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN each problem is its own CAP014, sorted
    const prefix = `lock file: '${series.lockFile}' is not a cdk-capability lock: `;
    const fix = '. Restore the file from version control, correct it (docs/lock.md), or delete it to start a first release.';
    expect(coded(violations)).toEqual(
      ['/barriers is missing', '/edges is missing', '/formatVersion (0) must be 1 or 2, the format versions this version reads', '/interfaces is missing', '/units ({}) must be a list'].map((problem) => ({
        code: 'CAP014',
        message: `${prefix}${problem}${fix}`,
        paths: [],
      })),
    );
  });

  test('a real lock with its barriers list deleted (a bad merge) is refused with CAP014 naming the key, not a crashed check', () => {
    // GIVEN the real lock of release 1.0.0 with the "barriers" key removed
    const series = lockedSeries(cdn, { version: '1.0.0' });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    delete lock.barriers;
    fs.writeFileSync(series.lockFile, JSON.stringify(lock, undefined, 2));

    // WHEN the same composition is synthesized
    const { violations } = nextRelease(series, cdn, { version: '1.0.0' });

    // THEN one CAP014 names the lock file and the missing key
    expect(coded(violations)).toEqual([{ code: 'CAP014', message: expect.stringContaining(`'${series.lockFile}' is not a cdk-capability lock: /barriers is missing.`), paths: [] }]);
  });

  test('a lock whose units are not objects is refused with CAP014 naming the unit, not a crashed check', () => {
    // GIVEN the real lock of release 1.0.0 whose first unit is replaced by null
    const series = lockedSeries(cdn, { version: '1.0.0' });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    lock.units[0] = null;
    fs.writeFileSync(series.lockFile, JSON.stringify(lock, undefined, 2));

    // WHEN the same composition is synthesized
    const { violations } = nextRelease(series, cdn, { version: '1.0.0' });

    // THEN one CAP014 names the lock file and the unit
    expect(coded(violations)).toEqual([{ code: 'CAP014', message: expect.stringContaining(`'${series.lockFile}' is not a cdk-capability lock: /units/0 (null) must be an object.`), paths: [] }]);
  });

  test('a lock file that begins with a UTF-8 byte-order mark is read as the lock it is', () => {
    // GIVEN the real lock of release 1.0.0, saved by an editor that writes a byte-order mark
    const series = lockedSeries(cdn, { version: '1.0.0' });
    fs.writeFileSync(series.lockFile, `\uFEFF${fs.readFileSync(series.lockFile, 'utf-8')}`);

    // WHEN the same composition is synthesized
    const { violations, plan } = nextRelease(series, cdn, { version: '1.0.0' });

    // THEN it is accepted against that lock: nothing changes
    expect(violations).toEqual([]);
    expect(plan?.changes.firstRelease).toBe(false);
    expect(plan?.changes.changed).toEqual([]);
  });

  test('releasing the same composition twice writes a byte-identical lock', () => {
    // GIVEN the real lock of release 1.0.0
    const series = lockedSeries(cdn, { version: '1.0.0' });
    const first = fs.readFileSync(series.lockFile);

    // WHEN the same composition is released again with CDK_CAPABILITY_UPDATE_LOCK=1
    release(series, cdn, { version: '1.0.0' });

    // THEN the lock is byte-identical
    expect(fs.readFileSync(series.lockFile).equals(first)).toBe(true);
  });

  test('synth() with a corrupt lock throws CAP014 and leaves the corrupt file as it was', () => {
    // GIVEN a lock file holding "not json"
    const series = newSeries();
    fs.writeFileSync(series.lockFile, 'not json');
    const app = appOf(series);
    cdn(app, { version: '1.0.0' });

    // WHEN synthesized with CDK_CAPABILITY_UPDATE_LOCK=1
    const run = () => withUpdateLock('1', () => app.synth());

    // THEN it is refused with CAP014, nothing is written, and the file is unchanged
    expect(run).toThrow(/CAP014 lock file: '.*' is not valid JSON/);
    expect(fs.readFileSync(series.lockFile, 'utf-8')).toBe('not json');
    expect(fs.existsSync(app.outdir)).toBe(false);
  });
});
