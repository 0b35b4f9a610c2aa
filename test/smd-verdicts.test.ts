/**
 * The recorded structured-merge-diff verdicts (test/smd/verdicts.ts): how a case without a vector, a changed
 * case and a live answer that differs from the recorded one fail, and the one line the run ends with.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SmdResult } from './smd/smd';
import { formatVectorFile, inputDigest, liveDifferences, NamedSmdCase, resultOf, RUN_DIR_ENV, smdVerdicts, SmdVector, verdictOf } from './smd/verdicts';
import { capturingOutput } from './util';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SmdVerdictsReporter = require('./smd/reporter.js');

/** A case of the 'harness' suite, exactly as test/smd-harness.test.ts passes it. */
const RECORDED: NamedSmdCase = {
  name: 'oracle: a case after an error',
  typeName: 'io.k8s.api.core.v1.ConfigMap',
  applies: [{ manager: 'a', object: { data: { k: 'v' } } }],
};

/** What the oracle answers for two managers of one ConfigMap, the second refused (as test/smd-harness.test.ts records). */
const RESULT: SmdResult = {
  name: 'two managers',
  applies: [
    { manager: 'a', operation: 'apply', force: false, conflicts: [] },
    { manager: 'b', operation: 'apply', force: false, conflicts: [{ manager: 'a', path: '.data.k' }] },
  ],
  managers: {
    a: {
      apiVersion: 'v1',
      operation: 'apply',
      fieldsV1: { 'f:data': { 'f:k': {} }, 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} } } } },
      fields: ['.data.k', '.spec.ports[port=80,protocol="TCP"]', '.spec.ports[port=80,protocol="TCP"].port'],
      leaves: ['.data.k', '.spec.ports[port=80,protocol="TCP"].port'],
    },
  },
  object: { data: { k: 'v' } },
};
const TWO_MANAGERS: NamedSmdCase = {
  name: 'two managers',
  typeName: 'io.k8s.api.core.v1.ConfigMap',
  applies: [{ manager: 'a', object: { data: { k: 'v' } } }, { manager: 'b', object: { data: { k: 'w' } } }],
};

describe('recorded structured-merge-diff verdicts', () => {
  // these calls are not the suites' runs: keep them out of the line the run ends with
  const runDir = process.env[RUN_DIR_ENV];
  beforeAll(() => delete process.env[RUN_DIR_ENV]);
  afterAll(() => {
    if (runDir !== undefined) process.env[RUN_DIR_ENV] = runDir;
  });

  test('a case with no recorded vector fails with the command that records it', () => {
    const added = { ...RECORDED, name: 'a case nobody recorded' };
    expect(() => smdVerdicts('harness', [RECORDED, added])).toThrow(
      /structured-merge-diff suite 'harness': record them with `npx projen smd:record` .*\n {2}- case 'a case nobody recorded' has no recorded vector$/,
    );
  });

  test('a case changed since it was recorded fails the same way', () => {
    const changed = { ...RECORDED, applies: [{ manager: 'a', object: { data: { k: 'changed' } } }] };
    expect(() => smdVerdicts('harness', [changed])).toThrow(/- case 'oracle: a case after an error' changed since its vector was recorded$/);
  });

  test('a suite with no vector file fails naming the file', () => {
    expect(() => smdVerdicts('no-such-suite', [RECORDED])).toThrow(
      /^structured-merge-diff suite 'no-such-suite' has no recorded vectors \(test\/smd\/vectors\/no-such-suite\.json\): record them with `npx projen smd:record`/,
    );
  });

  test('a recorded case gives the oracle\'s whole answer back', () => {
    const [result] = smdVerdicts('harness', [RECORDED]);
    expect(result).toEqual({
      name: 'oracle: a case after an error',
      applies: [{ manager: 'a', operation: 'apply', force: false, conflicts: [] }],
      managers: { a: { apiVersion: 'v1', operation: 'apply', fieldsV1: { 'f:data': { 'f:k': {} } }, fields: ['.data.k'], leaves: ['.data.k'] } },
      object: { data: { k: 'v' } },
    });
  });

  test('a verdict keeps what the input and the sets do not say, and rebuilds the whole result', () => {
    const verdict = verdictOf(RESULT);
    expect(verdict).toEqual({
      conflicts: [[], [{ manager: 'a', path: '.data.k' }]],
      managers: { a: { apiVersion: 'v1', operation: 'apply', fieldsV1: RESULT.managers.a.fieldsV1 } },
      object: { data: { k: 'v' } },
    });
    expect(resultOf(TWO_MANAGERS, verdict)).toEqual(RESULT);
  });

  test('a live answer that differs from the recorded one is named with the first place it differs', () => {
    const vector: SmdVector = { name: TWO_MANAGERS.name, input: inputDigest(TWO_MANAGERS), verdict: verdictOf(RESULT) };
    const live: SmdResult = { ...RESULT, applies: [RESULT.applies[0], { ...RESULT.applies[1], conflicts: [] }] };
    expect(liveDifferences([TWO_MANAGERS], [vector], [RESULT])).toEqual([]);
    expect(liveDifferences([TWO_MANAGERS], [vector], [live])).toEqual([
      'case \'two managers\' .applies[1].conflicts[0]: recorded {"manager":"a","path":".data.k"}, live undefined',
    ]);
  });

  test('a vector file is one header, then one case per line sorted by name', () => {
    const v = (name: string): SmdVector => ({ name, input: 'sha256:0', verdict: { conflicts: [], managers: {} } });
    expect(formatVectorFile({ suite: 's', baseSchema: 'sha256:1', vectors: [v('b'), v('a')] })).toBe(
      '{"suite":"s","baseSchema":"sha256:1","vectors":[\n'
      + '{"input":"sha256:0","name":"a","verdict":{"conflicts":[],"managers":{}}},\n'
      + '{"input":"sha256:0","name":"b","verdict":{"conflicts":[],"managers":{}}}\n]}\n',
    );
  });
});

describe('the line the test run ends with', () => {
  const previous = process.env[RUN_DIR_ENV];
  afterEach(() => {
    if (previous === undefined) delete process.env[RUN_DIR_ENV];
    else process.env[RUN_DIR_ENV] = previous;
  });

  function runReporter(notes: readonly object[]): string {
    const reporter = new SmdVerdictsReporter();
    const dir = process.env[RUN_DIR_ENV]!;
    notes.forEach((n, i) => fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(n)));
    const out = capturingOutput(() => reporter.onRunComplete());
    expect(fs.existsSync(dir)).toBe(false);
    return out.stdout;
  }

  test('says the comparison ran from recorded vectors, and why, in one line', () => {
    expect(runReporter([
      { suite: 'a', cases: 1200, mode: 'recorded', reason: '`go` is not on PATH' },
      { suite: 'b', cases: 73, mode: 'recorded', reason: '`go` is not on PATH' },
    ])).toBe('structured-merge-diff: 2 suites, 1,273 cases compared with the vectors recorded in test/smd/vectors/, not live: `go` is not on PATH (install with `bash test/smd/install.sh`; .ci/run does)\n');
  });

  test('says when the comparison ran live', () => {
    expect(runReporter([{ suite: 'a', cases: 1, mode: 'live' }])).toBe('structured-merge-diff: 1 suite, 1 case ran live against the Go oracle and matched the recorded vectors\n');
  });

  test('says nothing when no suite ran', () => {
    expect(runReporter([])).toBe('');
  });

  test('hands the test processes a fresh folder of its own', () => {
    const reporter = new SmdVerdictsReporter();
    expect(path.dirname(reporter.dir)).toBe(os.tmpdir());
    expect(process.env[RUN_DIR_ENV]).toBe(reporter.dir);
    reporter.onRunComplete();
  });
});
