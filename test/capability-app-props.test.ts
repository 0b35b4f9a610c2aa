import * as path from 'path';
import { Capability, CapabilityApp, CompositionError, Field, InterfaceContract } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

// Props as a JavaScript program can give them: any value. Each prop that is not valid is named, with what it
// must be, instead of a TypeError from inside Node's path module or a plan.json that apply then refuses.

describe('CapabilityApp props that are not valid: the constructor throws, naming each', () => {
  const make = (props: unknown) => () => new CapabilityApp(props as any);

  test('an outdir or lockFile that is not a path', () => {
    expect(make({ outdir: 5 })).toThrow(new Error("CapabilityApp: 'outdir' (5) must be a path, such as 'dist'"));
    expect(make({ outdir: path.join(tempDir(), 'dist'), lockFile: ['a.json'] })).toThrow(new Error('CapabilityApp: \'lockFile\' (["a.json"]) must be a path, such as \'capability.lock.json\''));
    expect(make({ outdir: '  ' })).toThrow(new Error("CapabilityApp: 'outdir' (\"  \") must be a path, such as 'dist'"));
  });

  test('every problem in one message, enforce among them; props that are no object', () => {
    expect(make({ outdir: 5, lockFile: 7, enforce: 'yes' })).toThrow(new Error(
      "CapabilityApp: 'outdir' (5) must be a path, such as 'dist'; 'lockFile' (7) must be a path, such as 'capability.lock.json'; " +
        "'enforce' (\"yes\") must be an object such as { deployer: 'system:serviceaccount:flux-system:kustomize-controller' }",
    ));
    expect(make([1])).toThrow(new Error("CapabilityApp: its props ([1]) must be an object, such as { outdir: 'dist' }"));
    expect(make(null)).toThrow(new Error("CapabilityApp: its props (null) must be an object, such as { outdir: 'dist' }"));
  });

  test('valid props construct', () => {
    const outdir = path.join(tempDir(), 'dist');
    expect(new CapabilityApp({ outdir, lockFile: path.join(outdir, '..', 'capability.lock.json') }).outdir).toBe(outdir);
  });
});

test("a Capability's description or generatedNames of another type is CAP010 at synth, naming the prop", () => {
  // GIVEN capabilities whose props a JavaScript program got wrong
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  new Capability(app, 'cdn', { description: 5 } as any);
  new Capability(app, 'shop', { generatedNames: 'hashed' } as any);

  // WHEN synthesized, THEN refused with one CAP010 each
  let error: unknown;
  try {
    app.synth();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CompositionError);
  expect((error as CompositionError).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP010 invalid object: 'cdn' failed its own validation: 'description' (5) must be a string, a one-line description",
    "CAP010 invalid object: 'shop' failed its own validation: 'generatedNames' (\"hashed\") must be \"plain\" or \"full-path\"",
  ]);
});

test("a contract's fields that are no map of Fields are CAP010 at synth, naming each", () => {
  // GIVEN contracts whose fields a JavaScript program got wrong: a list, and a map holding a string
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const cdn = new Capability(app, 'cdn');
  new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: [Field.string()] as any });
  new InterfaceContract(cdn, 'Shop', { version: '1.0.0', fields: { tenantHeader: Field.string(), maxTenants: 'number' } as any });

  // WHEN synthesized, THEN its fields problems are refused (besides the contracts being unused)
  let error: unknown;
  try {
    app.synth();
  } catch (e) {
    error = e;
  }
  expect((error as CompositionError).violations.filter((v) => v.code === 'CAP010').map((v) => v.message)).toEqual([
    'invalid object: \'cdn/Edge\' failed its own validation: \'fields\' ([{"type":"string","required":true}]) must be a map of fields, such as { tenantHeader: Field.string() }',
    'invalid object: \'cdn/Shop\' failed its own validation: field "maxTenants" ("number") must be a Field, made by Field.string(), Field.dnsName(), Field.url(), Field.number() or Field.boolean()',
  ]);
});
