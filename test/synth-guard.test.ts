import * as fs from 'fs';
import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import { Capability, CapabilityApp, CompositionError, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { configMap, newApp, removeTempDirs, tempDir } from './util';
import * as checkStage from '../src/check/check';
import { statusWrites } from '../src/check/rules/status-writes';
import * as collectStage from '../src/collect/collect';
import * as composition from '../src/collect/graph/composition-graph';
import * as runtimeWrites from '../src/collect/ledger/runtime-writes';
import * as renderStage from '../src/render/render';

afterAll(removeTempDirs);
afterEach(() => jest.restoreAllMocks());

/** GIVEN-side helper: a small valid composition. */
function goodApp(outdir?: string): CapabilityApp {
  const app = newApp(outdir);
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
  configMap(routing, 'Settings', 'settings', 'edge');
  return app;
}

const REPORT = 'This is a bug in cdk-capability, not in your composition: please report it with the composition that triggers it.';

describe('an exception escaping a stage of synth', () => {
  test.each([
    ['collect', collectStage, 'collect'],
    ['check', checkStage, 'check'],
    ['render', renderStage, 'render'],
  ])("in the '%s' stage becomes one CAP000 internal error naming the stage", (stage, module, fn) => {
    // GIVEN a stage that crashes
    const app = goodApp();
    jest.spyOn(module as any, fn).mockImplementation(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'spec')");
    });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([
      {
        code: 'CAP000',
        message: `internal error: the '${stage}' stage crashed: Cannot read properties of undefined (reading 'spec'). ${REPORT}`,
        paths: [],
      },
    ]);
  });

  test('names the object collect was working on when it crashed', () => {
    // GIVEN recording the writes of one object crashes
    const app = goodApp();
    jest.spyOn(runtimeWrites, 'recordRuntimeWrites').mockImplementation(() => {
      throw new Error('boom');
    });

    // WHEN
    const { violations } = app.synthesize();

    // THEN the construct is named, in the message and the paths
    expect(violations).toEqual([{ code: 'CAP000', message: `internal error: the 'collect' stage crashed on 'cdn/Routing/Settings': boom. ${REPORT}`, paths: ['cdn/Routing/Settings'] }]);
  });

  test('an error message that already ends a sentence gets no second period', () => {
    // GIVEN collect crashing with an error whose message ends with a period, as a DataCloneError's does
    const app = goodApp();
    jest.spyOn(runtimeWrites, 'recordRuntimeWrites').mockImplementation(() => {
      throw new Error("() => hosts.join(',') could not be cloned.");
    });

    // WHEN
    const { violations } = app.synthesize();

    // THEN the message's own period ends it
    expect(violations[0].message).toBe(`internal error: the 'collect' stage crashed on 'cdn/Routing/Settings': () => hosts.join(',') could not be cloned. ${REPORT}`);
  });

  test('names the construct an aws-cdk error carries (its constructPath)', () => {
    // GIVEN collect crashing with a real aws-cdk error, which carries the path of its construct
    const app = goodApp();
    const cdn = app.node.findChild('cdn') as Capability;
    let awsCdkError: unknown;
    try {
      new Stack(cdn, 'my base'); // a plain aws-cdk Stack: its own error, uncoded
    } catch (e) {
      awsCdkError = e;
    }
    jest.spyOn(composition, 'buildCompositionGraph').mockImplementation(() => {
      throw awsCdkError;
    });

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([
      {
        code: 'CAP000',
        message: `internal error: the 'collect' stage crashed on 'cdn/my base': Stack name must match the regular expression: /^[A-Za-z][A-Za-z0-9-]*$/, got 'cdn-my base'. ${REPORT}`,
        paths: ['cdn/my base'],
      },
    ]);
  });

  test('names the construct whose path the message quotes, the longest one when several match', () => {
    // GIVEN a graph crash whose message quotes the object's path
    const app = goodApp();
    jest.spyOn(composition, 'buildCompositionGraph').mockImplementation(() => {
      throw new Error("'cdn/Routing' has no node for 'cdn/Routing/Settings'");
    });

    // WHEN
    const { violations } = app.synthesize();

    // THEN
    expect(violations[0].message).toBe(`internal error: the 'collect' stage crashed on 'cdn/Routing/Settings': 'cdn/Routing' has no node for 'cdn/Routing/Settings'. ${REPORT}`);
    expect(violations[0].paths).toEqual(['cdn/Routing/Settings']);
  });

  test('a rule that crashes is reported by name, and every other rule still runs', () => {
    // GIVEN an invalid object (its name) and a crashing rule
    const app = goodApp();
    configMap(app.node.findChild('cdn').node.findChild('Routing'), 'Bad', 'Bad_Name', 'edge');
    jest.spyOn(statusWrites, 'run').mockImplementation(() => {
      throw new Error('boom');
    });

    // WHEN
    const { violations } = app.synthesize();

    // THEN both are reported, sorted by code
    expect(violations.map((v) => `${v.code} ${v.message.split(' of ')[0].split('. ')[0]}`)).toEqual([
      "CAP000 internal error: the 'status writes' rule crashed: boom",
      "CAP010 invalid object: 'metadata.name' (\"Bad_Name\")",
    ]);
  });

  test('a non-Error thrown value is reported by its text', () => {
    const app = goodApp();
    jest.spyOn(renderStage, 'render').mockImplementation(() => {
      throw 'a string'; // eslint-disable-line no-throw-literal
    });

    expect(app.synthesize().violations[0].message).toBe(`internal error: the 'render' stage crashed: a string. ${REPORT}`);
  });

  test('a thrown value that cannot be printed is still reported', () => {
    const app = goodApp();
    jest.spyOn(renderStage, 'render').mockImplementation(() => {
      throw Object.create(null); // String() of it throws
    });

    expect(app.synthesize().violations[0].message).toBe(`internal error: the 'render' stage crashed: a value that cannot be printed. ${REPORT}`);
  });

  test('app.synth() throws a CompositionError and writes nothing', () => {
    // GIVEN a crash while building the graph
    const parent = tempDir();
    const app = goodApp(path.join(parent, 'dist'));
    jest.spyOn(composition, 'buildCompositionGraph').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });

    // WHEN / THEN
    expect(() => app.synth()).toThrow(CompositionError);
    expect(() => app.synth()).toThrow(/^The composition was refused with 1 violation:\nCAP000 internal error: the 'collect' stage crashed: Maximum call stack size exceeded\. /);
    expect(fs.readdirSync(parent)).toEqual([]);
  });
});

/** The rule a refused capability id is told (CAP010, before aws-cdk's Stage or constructs see the id). */
const CAPABILITY_ID_RULE = "which no capability may have: a capability id is letters, digits, '-', '_' and '.', starting with a letter (the id aws-cdk takes for a Stage).";

describe('errors thrown at construction time, before synth can run', () => {
  test('a Capability id with a space names the id and the rule', () => {
    expect(() => new Capability(newApp(), 'bad id!')).toThrow(new Error(
      `The composition was refused with 1 violation:\nCAP010 invalid object: Capability 'bad id!' has the id "bad id!", ${CAPABILITY_ID_RULE} Give it an id such as "bad-id".`,
    ));
  });

  test('a Capability id with ../ names the id and the rule', () => {
    expect(() => new Capability(newApp(), '../x')).toThrow(new Error(
      `The composition was refused with 1 violation:\nCAP010 invalid object: Capability '../x' has the id "../x", ${CAPABILITY_ID_RULE} Give it an id such as "x".`,
    ));
  });

  test('two constructs with one id in one scope name the id and the scope', () => {
    const app = newApp();
    new Capability(app, 'cdn');
    // constructs' own "There is already a Construct with name 'cdn' in CapabilityApp" names no path and no code
    expect(() => new Capability(app, 'cdn')).toThrow(new Error(
      "The composition was refused with 1 violation:\nCAP010 invalid object: Capability 'cdn': the app already has a child of the id 'cdn' (the Capability 'cdn'), "
        + "and a construct's id is unique among its siblings. Give the Capability an id of its own",
    ));
  });

  test('an empty id names the rule', () => {
    expect(() => new Capability(newApp(), '')).toThrow(new Error(
      `The composition was refused with 1 violation:\nCAP010 invalid object: Capability '' has the id "", ${CAPABILITY_ID_RULE} Give it an id that starts with a letter, such as "cdn".`,
    ));
  });

  /** The CAP010 refusal of a stack name, as `CompositionError` carries it. */
  const refusal = (what: string, at: string, name: string, fix: string) =>
    `The composition was refused with 1 violation:\nCAP010 invalid object: ${what} '${at}' would deploy as the CloudFormation stack '${name}', a name CloudFormation refuses: `
    + `a stack name is letters, digits and '-', starting with a letter, at most 128 characters. ${fix}`;

  test('a SharedBase id with a space is CAP010 naming the derived stack name and an id that works', () => {
    const cdn = new Capability(newApp(), 'cdn');
    expect(() => new SharedBase(cdn, 'my base')).toThrow(
      refusal('SharedBase', 'cdn/my base', 'cdn-my base', 'Give it an id of letters, digits and \'-\' ("my-base"), or pass it a stackName that is one.'),
    );
  });

  test('a tenant id with "." or "_" is CAP010 with the fix, and the error is a CompositionError with the violation', () => {
    const cdn = new Capability(newApp(), 'cdn');
    let error: unknown;
    try {
      new DeploymentAggregate(cdn, 'acme.corp_eu');
    } catch (e) {
      error = e;
    }
    expect(CompositionError.isCompositionError(error)).toBe(true);
    expect((error as CompositionError).violations).toEqual([
      {
        code: 'CAP010',
        message: "invalid object: DeploymentAggregate 'cdn/acme.corp_eu' would deploy as the CloudFormation stack 'cdn-acme.corp_eu', a name CloudFormation refuses: "
          + 'a stack name is letters, digits and \'-\', starting with a letter, at most 128 characters. Give it an id of letters, digits and \'-\' ("acme-corp-eu"), or pass it a stackName that is one.',
        paths: ['cdn/acme.corp_eu'],
      },
    ]);
  });

  test('a Capability id with "." is accepted, but a stack under it is CAP010 naming the capability id to change', () => {
    // GIVEN a capability id that Stage accepts
    const cdn = new Capability(newApp(), 'cdn.v2');

    // THEN a stack under it is refused: the stack name is `<capability>-<id>` and may not hold '.'
    expect(() => new DeploymentAggregate(cdn, 'acme')).toThrow(
      refusal('DeploymentAggregate', 'cdn.v2/acme', 'cdn.v2-acme', "The name starts with the id of the capability 'cdn.v2': give the capability an id of letters, digits and '-' (\"cdn-v2\"), or pass each of its stacks a stackName."),
    );
    // AND a stackName of its own, or prefixStackNames: false, is accepted
    expect(() => new DeploymentAggregate(cdn, 'globex', { stackName: 'cdn-v2-globex' })).not.toThrow();
    expect(() => new SharedBase(new Capability(newApp(), 'cdn.v3', { prefixStackNames: false }), 'Base')).not.toThrow();
  });

  test('an invalid stackName is CAP010 naming the prop', () => {
    const cdn = new Capability(newApp(), 'cdn');
    expect(() => new SharedBase(cdn, 'Base', { stackName: 'base_1' })).toThrow(
      refusal('SharedBase', 'cdn/Base', 'base_1', 'Pass a stackName that is one (its stackName is "base_1").'),
    );
  });

  test('a stack id that makes a stack name over 128 characters is CAP010 naming the limit, the name and the id\'s length', () => {
    const cdn = new Capability(newApp(), 'cdn');
    expect(() => new SharedBase(cdn, 'b'.repeat(130))).toThrow(
      /^The composition was refused with 1 violation:\nCAP010 invalid object: SharedBase 'cdn\/b{130}' would deploy as the CloudFormation stack 'cdn-b+[0-9A-F]{8}', a name CloudFormation refuses: a stack name is letters, digits and '-', starting with a letter, at most 128 characters\. Give it a shorter id \(130 characters\), or pass it a stackName that is one\.$/,
    );
  });
});
