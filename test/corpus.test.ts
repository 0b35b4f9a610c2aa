import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import * as yaml from 'js-yaml';
import { Capability, CapabilityApp } from '../src';
import { SynthesisResult } from '../src/app/synthesize';
import { WebServices } from './fixtures/corpus/cdk8s/cdk8s-composition';
import { Core } from './fixtures/corpus/cdk8s/cdk8s-core';
import { Certificate } from './fixtures/corpus/cdk8s/cdk8s-crd';
import { Dashboard } from './fixtures/corpus/cdk8s/cdk8s-include';
import { HttpEcho } from './fixtures/corpus/cdk8s/cdk8s-plus-http-echo';
import { PodInfo } from './fixtures/corpus/cdk8s/cdk8s-plus-pod-info';
import { WebCacheDB } from './fixtures/corpus/cdk8s/cdk8s-plus-web-cache-db';
import { WebServices as PortedWebServices } from './fixtures/corpus/cdk8s/ported/cdk8s-composition';
import { Core as PortedCore } from './fixtures/corpus/cdk8s/ported/cdk8s-core';
import { Certificate as PortedCertificate } from './fixtures/corpus/cdk8s/ported/cdk8s-crd';
import { Dashboard as PortedDashboard } from './fixtures/corpus/cdk8s/ported/cdk8s-include';
import { HttpEcho as PortedHttpEcho } from './fixtures/corpus/cdk8s/ported/cdk8s-plus-http-echo';
import { PodInfo as PortedPodInfo } from './fixtures/corpus/cdk8s/ported/cdk8s-plus-pod-info';
import { WebCacheDB as PortedWebCacheDB } from './fixtures/corpus/cdk8s/ported/cdk8s-plus-web-cache-db';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

type ChartClass = new (scope: Construct, id: string) => Chart;

/** One upstream example (test/fixtures/corpus/README.md): its chart class, the id its program gives it, its ported class. */
interface Example {
  readonly name: string;
  readonly plain: ChartClass;
  readonly id: string;
  readonly ported: ChartClass;
  /** The example's synthesized output as committed upstream (dist/), when our cdk8s and cdk8s-plus give it unchanged. */
  readonly upstreamDist?: boolean;
}

const EXAMPLES: readonly Example[] = [
  { name: 'cdk8s-core', plain: Core, id: 'core', ported: PortedCore, upstreamDist: true },
  { name: 'cdk8s-composition', plain: WebServices, id: 'web-services', ported: PortedWebServices, upstreamDist: true },
  { name: 'cdk8s-crd', plain: Certificate, id: 'certificate', ported: PortedCertificate, upstreamDist: true },
  { name: 'cdk8s-include', plain: Dashboard, id: 'dashboard', ported: PortedDashboard, upstreamDist: true },
  { name: 'cdk8s-plus-pod-info', plain: PodInfo, id: 'pod-info', ported: PortedPodInfo },
  { name: 'cdk8s-plus-web-cache-db', plain: WebCacheDB, id: 'web-cache-db', ported: PortedWebCacheDB },
];

/** What one example gives in each form, synthesized once and shared by its tests. */
interface Forms {
  /** The chart under a plain cdk8s App. */
  readonly plain: any[];
  /** The unchanged chart class placed in capability "shop" of a CapabilityApp. */
  readonly placed: SynthesisResult;
  /** The ported class (`extends RuntimeRouting`) in capability "shop". */
  readonly ported: SynthesisResult;
}

// One synth per form: cdk8s-plus renders lazily and not idempotently (a second `toJson()` of web-cache-db's
// chart repeats its spread and colocation terms), so the tests compare what the synth wrote, not a second render.
function inCapability(ChartOf: ChartClass, id: string): SynthesisResult {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  new ChartOf(new Capability(app, 'shop'), id);
  return app.synthesize();
}

function synthesizeForms(example: Example): Forms {
  return {
    plain: new example.plain(new App(), example.id).toJson(),
    placed: inCapability(example.plain, example.id),
    ported: inCapability(example.ported, example.id),
  };
}

const key = (o: any): string => `${o.kind} ${o.metadata.namespace ?? ''} ${o.metadata.name}`;
const byIdentity = (objects: readonly any[]): any[] => [...objects].sort((a, b) => (key(a) < key(b) ? -1 : 1));

/** Every object the capability app wrote under runtime/, as parsed manifests sorted by identity (apply order may differ from creation order). */
function written(result: SynthesisResult): any[] {
  return byIdentity((result.runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest)));
}

/** Every object the capability app collected, refused or not, as its manifest, sorted by identity. */
function collected(result: SynthesisResult): any[] {
  return byIdentity((result.facts?.objects ?? []).map((o) => o.manifest));
}

/** The example's output as committed upstream (fixtures/corpus/cdk8s/dist/, written by the example's own cdk8s). */
function upstreamDist(name: string): unknown[] {
  return yaml.loadAll(fs.readFileSync(path.join(__dirname, 'fixtures', 'corpus', 'cdk8s', 'dist', `${name}.k8s.yaml`), 'utf-8'));
}

const codes = (result: SynthesisResult): string[] => result.violations.map((v) => `${v.code} ${v.message}`);

describe.each(EXAMPLES)('the cdk8s example $name, plain and in a capability', (example) => {
  let forms: Forms;
  beforeAll(() => {
    forms = synthesizeForms(example);
  });

  test('placed in a capability unchanged: accepted, with the objects, names and field values plain cdk8s gives', () => {
    expect(codes(forms.placed)).toEqual([]);
    expect(written(forms.placed)).toEqual(byIdentity(forms.plain));
  });

  test('ported into RuntimeRouting: accepted, with the objects, names and field values plain cdk8s gives', () => {
    expect(codes(forms.ported)).toEqual([]);
    expect(written(forms.ported)).toEqual(byIdentity(forms.plain));
  });

  if (example.upstreamDist) {
    test('plain, it gives the output the example commits upstream (dist/)', () => {
      expect(forms.plain).toEqual(upstreamDist(example.name));
    });
  }
});

describe('the cdk8s example cdk8s-plus-http-echo, plain and in a capability', () => {
  let forms: Forms;
  beforeAll(() => {
    forms = synthesizeForms({ name: 'cdk8s-plus-http-echo', plain: HttpEcho, id: 'http-echo', ported: PortedHttpEcho });
  });

  test.each(['placed', 'ported'] as const)('%s: refused with the one true CAP010 only (a Service name with a ".", which the API server refuses)', (form) => {
    expect(codes(forms[form])).toEqual([
      expect.stringMatching(/^CAP010 invalid object: 'metadata\.name' \("http-echo-my\.host-hey-service-c8[0-9a-f]{6}"\) of Service .* but it contains "\."\. cdk8s generated the name from the construct path 'shop\/http-echo\/my\.host--hey\/Service\/Resource': change those construct ids, or set metadata\.name\.$/),
    ]);
  });

  test.each(['placed', 'ported'] as const)('%s: the objects, names and field values plain cdk8s gives, that Service included', (form) => {
    expect(collected(forms[form])).toEqual(byIdentity(forms.plain));
    expect(forms.plain.filter((o) => o.kind === 'Service').map((o) => o.metadata.name)).toContainEqual(expect.stringMatching(/^http-echo-my\.host-hey-service-c8[0-9a-f]{6}$/));
  });
});
