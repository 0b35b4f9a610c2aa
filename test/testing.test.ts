import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, CapabilityTesting, DeploymentAggregate, Field, InterfaceContract, RuntimeRouting, SharedBase } from '../src';

/** A capability with one stack per lifecycle side and two runtime objects, the ConfigMap declared first. */
function cdn(app: CapabilityApp, namespace = 'edge'): Capability {
  const capability = new Capability(app, 'cdn');
  const base = new SharedBase(capability, 'Base');
  new ssm.StringParameter(base, 'Origin', { parameterName: '/cdn/origin', stringValue: 'origin.example.com' });
  new DeploymentAggregate(capability, 'acme');
  const routing = new RuntimeRouting(capability, 'Routing');
  new ApiObject(routing, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'routes', namespace } });
  new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  return capability;
}

describe('CapabilityTesting.synth', () => {
  test('an accepted composition has no violations, and its manifests come in apply order', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    cdn(app);

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN
    expect(result.violations).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.runtimeObjects.map((o) => `${o.kind} ${o.metadata.name}`)).toEqual(['Namespace edge', 'ConfigMap routes']);
  });

  test('the templates are keyed by stack path and work with aws-cdk-lib/assertions', () => {
    const app = CapabilityTesting.app();
    cdn(app);

    const result = CapabilityTesting.synth(app);

    expect(Object.keys(result.templates).sort()).toEqual(['cdn/Base', 'cdn/acme']);
    Template.fromJSON(result.templates['cdn/Base']).hasResourceProperties('AWS::SSM::Parameter', { Name: '/cdn/origin' });
  });

  test('the plan lists the stacks before the runtime that follows them', () => {
    const app = CapabilityTesting.app();
    cdn(app);

    const result = CapabilityTesting.synth(app);

    const ids = result.plan!.steps.map((s) => s.id);
    expect(ids.indexOf('cdn/Base')).toBeLessThan(ids.indexOf('cdn/acme'));
    expect(ids.indexOf('cdn/acme')).toBeLessThan(ids.findIndex((id) => id.startsWith('cdn/Routing')));
  });

  test('a refused composition returns its coded violations instead of throwing', () => {
    // GIVEN two capabilities that declare the same Namespace
    const app = CapabilityTesting.app();
    for (const id of ['cdn', 'dns']) {
      const routing = new RuntimeRouting(new Capability(app, id), 'Routing');
      new ApiObject(routing, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shared' } });
    }

    // WHEN
    const result = CapabilityTesting.synth(app);

    // THEN
    expect(result.violations).toEqual([
      expect.objectContaining({ code: 'CAP001', paths: ['cdn/Routing/Ns', 'dns/Routing/Ns'], message: expect.stringMatching(/Namespace.*shared/) }),
    ]);
    expect(result.plan).toBeUndefined();
    expect(result.runtimeObjects).toEqual([]);
    expect(result.templates).toEqual({});
    expect(result.interface).toBeUndefined();
  });

  test('the interface is the parsed interface.json, with the contract and its producer', () => {
    const app = CapabilityTesting.app();
    const capability = new Capability(app, 'cdn');
    const base = new SharedBase(capability, 'Base');
    const edge = new InterfaceContract(capability, 'Edge', { version: '1.2.0', fields: { tenantHeader: Field.string() } });
    edge.publish(base, { tenantHeader: 'x-tenant-id' });

    const result = CapabilityTesting.synth(app);

    expect(result.violations).toEqual([]);
    expect(result.interface?.interfaces).toEqual([
      expect.objectContaining({ capability: 'cdn', name: 'Edge', version: '1.2.0', fields: { tenantHeader: { producedBy: ['cdn/Base'], consumedBy: [], readBy: [] } } }),
    ]);
  });

  test('nothing is written: the outdir does not exist after a synth', () => {
    const app = CapabilityTesting.app();
    cdn(app);

    CapabilityTesting.synth(app);

    expect(fs.existsSync(app.outdir)).toBe(false);
  });
});

describe('CapabilityTesting.app', () => {
  test('each app gets its own fresh outdir under the temporary folder', () => {
    const a = CapabilityTesting.app();
    const b = CapabilityTesting.app();

    expect(a.outdir).not.toEqual(b.outdir);
    expect(a.outdir.startsWith(os.tmpdir() + path.sep)).toBe(true);
  });

  test('app.synth() writes into the temporary outdir, never into the project', () => {
    const app = CapabilityTesting.app();
    cdn(app);

    app.synth();

    expect(fs.existsSync(path.join(app.outdir, 'plan.json'))).toBe(true);
    expect(path.relative(process.cwd(), app.outdir).startsWith('..')).toBe(true);
  });

  test('an outdir given in the props is kept', () => {
    const outdir = path.join(os.tmpdir(), 'cdk-capability-testing-given');

    expect(CapabilityTesting.app({ outdir }).outdir).toEqual(outdir);
  });

  describe('the lock', () => {
    let cwd: string;
    let project: string;

    beforeEach(() => {
      // GIVEN a working directory holding the app's capability.lock.json, of an older contract version
      cwd = process.cwd();
      project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-testing-project-'));
      process.chdir(project);
      const previous = CapabilityTesting.app({ lockFile: path.join(project, 'capability.lock.json') });
      withContract(previous, '2.0.0');
      process.env.CDK_CAPABILITY_UPDATE_LOCK = '1';
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        previous.synth();
      } finally {
        stderr.mockRestore();
        delete process.env.CDK_CAPABILITY_UPDATE_LOCK;
      }
    });

    afterEach(() => {
      process.chdir(cwd);
      fs.rmSync(project, { recursive: true, force: true });
    });

    /** Capability cdn with contract Edge at `version`, published by its base. */
    function withContract(app: CapabilityApp, version: string): void {
      const capability = new Capability(app, 'cdn');
      new InterfaceContract(capability, 'Edge', { version, fields: { originDnsName: Field.dnsName() } }).publish(new SharedBase(capability, 'Base'), { originDnsName: 'o.example.com' });
    }

    test('is not read from the working directory unless given: a lower version is not CAP007', () => {
      // WHEN a test app declares version 1.0.0 (lower than the lock in the working directory)
      const app = CapabilityTesting.app();
      withContract(app, '1.0.0');
      const result = CapabilityTesting.synth(app);

      // THEN it is a first release: no violation, everything added
      expect(fs.existsSync(path.join(project, 'capability.lock.json'))).toBe(true);
      expect(result.violations).toEqual([]);
      expect(result.plan?.changes.firstRelease).toBe(true);
      expect(path.dirname(app.lockFile)).not.toEqual(project);
    });

    test('is read when given', () => {
      // WHEN the test app is given the lock and declares 1.0.0
      const app = CapabilityTesting.app({ lockFile: path.join(project, 'capability.lock.json') });
      withContract(app, '1.0.0');
      const result = CapabilityTesting.synth(app);

      // THEN CAP007: the version went backwards
      expect(result.violations.map((v) => v.code)).toEqual(['CAP007']);
    });
  });
});
