import * as fs from 'fs';
import * as path from 'path';
import { aws_sqs as sqs, Names } from 'aws-cdk-lib';
import { Capability, DeploymentAggregate, SharedBase } from '../src';
import { newApp, removeTempDirs } from './util';
import { keepingUniqueIds } from '../src/private/unique-ids';

afterAll(removeTempDirs);

/** A capability of a shared base and `tenants` aggregates, each reading the base's queue across stacks. */
function tenants(count: number) {
  const app = newApp();
  const cdn = new Capability(app, 'cdn');
  const base = new SharedBase(cdn, 'Base');
  const events = new sqs.Queue(base, 'Events');
  for (let t = 0; t < count; t++) {
    const aggregate = new DeploymentAggregate(cdn, `tenant${t}`);
    new sqs.Queue(aggregate, 'Queue', { queueName: `${t}-${events.queueName}` });
  }
  return { app, base };
}

describe("wiring tenant aggregates after their shared base computes the base's unique id once", () => {
  test("aws-cdk's Names.uniqueId runs once for the base, not twice a tenant, and is itself again after synth", () => {
    // GIVEN 5 tenant aggregates after one shared base, and aws-cdk's Names.uniqueId watched
    const { app, base } = tenants(5);
    const spy = jest.spyOn(Names, 'uniqueId');
    try {
      // WHEN synthesized
      const { violations } = app.synthesize();

      // THEN the wiring computed the base's id once (aws-cdk's addStackDependency asks for it twice a call: 10 before),
      // and aws-cdk's own cross-stack reference of each tenant once more, outside the wiring (15 before)
      expect(violations).toEqual([]);
      expect(spy.mock.calls.filter(([c]) => c === base)).toHaveLength(1 + 5);
      // and Names.uniqueId is aws-cdk's (here the spy) again
      expect(Names.uniqueId).toBe(spy);
    } finally {
      spy.mockRestore();
    }
  });

  test("each tenant's assembly names the base as its dependency, by the artifact id aws-cdk gives the base", () => {
    // GIVEN 3 tenant aggregates after one shared base
    const { app, base } = tenants(3);

    // WHEN synthesized
    app.synth();

    // THEN every aggregate's artifact in the cloud assembly depends on the base's, and the base on nothing
    const artifacts: Record<string, { type: string; dependencies?: string[] }> = {};
    for (const file of fs.readdirSync(path.join(app.outdir, 'deploy'), { recursive: true }).map(String).filter((f) => path.basename(f) === 'manifest.json')) {
      Object.assign(artifacts, JSON.parse(fs.readFileSync(path.join(app.outdir, 'deploy', file), 'utf-8')).artifacts);
    }
    const stacks = Object.entries(artifacts).filter(([, a]) => a.type === 'aws:cloudformation:stack');
    expect(stacks).toHaveLength(4);
    for (const [id, artifact] of stacks) {
      const dependencies = (artifact.dependencies ?? []).filter((d) => artifacts[d]?.type === 'aws:cloudformation:stack');
      expect(dependencies).toEqual(id === base.artifactId ? [] : [base.artifactId]);
    }
  });

  test('keepingUniqueIds gives what aws-cdk computes, restores Names.uniqueId when its function throws, and keeps no failure', () => {
    const { base } = tenants(1);
    const original = Names.uniqueId;
    const expected = Names.uniqueId(base);
    expect(() => keepingUniqueIds(() => {
      expect(Names.uniqueId(base)).toBe(expected);
      expect(Names.uniqueId(base)).toBe(expected);
      throw new Error('boom');
    })).toThrow('boom');
    expect(Names.uniqueId).toBe(original);
  });
});
