import * as path from 'path';
import { inspect } from 'util';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, CompositionError, RuntimeRouting } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

/** What `make` throws; fails the test when it throws nothing. */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal, but nothing was thrown');
}

describe('a refusal logged with console.error (util.inspect) prints as its report, code first, without brackets', () => {
  test('the refusal synth throws', () => {
    // GIVEN a composition synth refuses
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    new ApiObject(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Edge_Settings' } });
    const error = thrownBy(() => app.synth());
    expect(error).toBeInstanceOf(CompositionError);

    // WHEN inspected as console.error(error) does, THEN the report alone
    expect(inspect(error)).toBe(`CompositionError: ${(error as Error).message}`);
    expect(inspect(error)).toMatch(/^CompositionError: The composition was refused with 1 violation:\nCAP010 invalid object: /);
  });

  test('the refusal of a construct as it is created', () => {
    const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
    const error = thrownBy(() => new Capability(app, 'a b'));

    expect(inspect(error)).toBe(
      'CompositionError: The composition was refused with 1 violation:\n'
        + "CAP010 invalid object: Capability 'a b' has the id \"a b\", which no capability may have: a capability id is letters, digits, '-', '_' and '.', "
        + 'starting with a letter (the id aws-cdk takes for a Stage). Give it an id such as "a-b".',
    );
  });
});
