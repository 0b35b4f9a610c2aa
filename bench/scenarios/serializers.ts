import { createHash } from 'crypto';
import { performance } from 'perf_hooks';
import { smallAppObjects, tenantObjects } from './floor-objects';
import { CHART_COUNT, configMapProps } from './sizes';

/** Ways to turn the floor's manifests into text. */
export const SERIALIZERS = {
  /** cdk8s' own `Yaml.stringify`: what both cdk8s and this library write with. Loads cdk8s. */
  'cdk8s Yaml.stringify': (): ((docs: object[]) => string) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Yaml } = require('cdk8s') as typeof import('cdk8s');
    return (docs) => Yaml.stringify(...docs);
  },
  /** The `yaml` library itself with cdk8s' options: the same bytes without loading cdk8s. */
  'yaml stringify': (): ((docs: object[]) => string) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-extraneous-dependencies -- the bench is a dev tool
    const YAML = require('yaml') as typeof import('yaml');
    return (docs) => docs.map((d) => YAML.stringify(d, { keepUndefined: true, lineWidth: 0, version: '1.1' })).join('---\n');
  },
  /** One JSON document per object (JSON is YAML 1.2, and kubectl reads it): the same objects, not the same bytes. */
  'JSON.stringify': (): ((docs: object[]) => string) => (docs) => docs.map((d) => JSON.stringify(d)).join('\n---\n'),
};

/** A serializer's name. */
export type SerializerName = keyof typeof SERIALIZERS;

/** What one serializer run measured. */
export interface SerializerRun {
  /** Loading the serializer's module, ms. */
  readonly loadMs: number;
  /** Serializing every manifest once, in a fresh process (as a synth does), ms. */
  readonly runMs: number;
  readonly bytes: number;
  /** sha256 of the text, to tell same bytes from different. */
  readonly digest: string;
}

/** The floor scenario's Kubernetes objects, as plain objects. */
export function floorManifests(scenario: string, size: number): object[] {
  if (scenario === 'charts') return Array.from({ length: CHART_COUNT * size }, (_, i) => configMapProps(Math.floor(i / size), i % size));
  if (scenario === 'small') return smallAppObjects(['Routing'], size);
  if (scenario === 'tenants') return tenantObjects(['Routing'], size);
  throw new Error(`no floor manifests for '${scenario}'`);
}

/** Loads one serializer and serializes the scenario's manifests once. */
export function runSerializer(name: SerializerName, scenario: string, size: number): SerializerRun {
  const make = SERIALIZERS[name];
  if (!make) throw new Error(`unknown serializer '${name}' (known: ${Object.keys(SERIALIZERS).join(', ')})`);
  const docs = floorManifests(scenario, size);
  const load = performance.now();
  const serialize = make();
  const loadMs = performance.now() - load;
  const start = performance.now();
  const text = serialize(docs);
  const runMs = performance.now() - start;
  return { loadMs, runMs, bytes: Buffer.byteLength(text), digest: createHash('sha256').update(text).digest('hex') };
}
