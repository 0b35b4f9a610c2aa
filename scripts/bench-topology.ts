/**
 * Times a walk over every path of 10,000 Deployments through `topologyOf`, the
 * way a field ledger would walk them. Not a test: timing belongs here, not in jest.
 *
 * Run compiled, so ts-node is not measured:
 * `npx tsc --outDir /tmp/topo --rootDir . --module commonjs --target es2022 --strict --skipLibCheck --types node scripts/bench-topology.ts && node /tmp/topo/scripts/bench-topology.js`
 */
import { FieldTopology, topologyOf } from '../src/collect/topology/field-topology';

function deployment(i: number): Record<string, unknown> {
  const container = (name: string) => ({
    name,
    image: `registry.example.com/${name}:1.${i % 7}`,
    command: ['/bin/server'],
    args: ['--port=8080', `--id=${i}`],
    env: Array.from({ length: 5 }, (_, e) => ({ name: `VAR_${e}`, value: String(e) })),
    ports: [{ containerPort: 8080, name: 'http' }, { containerPort: 9090, protocol: 'UDP', name: 'metrics' }],
    volumeMounts: [{ name: 'config', mountPath: '/etc/app' }, { name: 'data', mountPath: '/data', readOnly: true }],
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `web-${i}`, namespace: 'prod', labels: { 'app': 'web', 'app.kubernetes.io/part-of': 'shop' }, annotations: { note: 'x' }, finalizers: ['example.com/keep'] },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [container('web'), container('sidecar')],
          volumes: [{ name: 'config', configMap: { name: 'web-config' } }, { name: 'data', emptyDir: {} }],
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
          nodeSelector: { pool: 'general' },
          imagePullSecrets: [{ name: 'registry' }],
        },
      },
    },
  };
}

/** Counts the leaves of a value, as server-side apply would own them. */
function walk(value: unknown, node: FieldTopology): number {
  if (value === null || typeof value !== 'object' || node.type === 'scalar') return 1;
  if (Array.isArray(value)) {
    if (node.listType === 'set') return value.length;
    if (node.listType !== 'associative') return 1;
    const element = node.element();
    let n = 0;
    for (const e of value) n += walk(e, element);
    return n;
  }
  if (node.atomic) return 1;
  let n = 0;
  for (const key of Object.keys(value)) n += walk((value as Record<string, unknown>)[key], node.field(key));
  return n;
}

const objects = Array.from({ length: 10_000 }, (_, i) => deployment(i));
for (let round = 1; round <= 3; round++) {
  const start = process.hrtime.bigint();
  let leaves = 0;
  for (const o of objects) leaves += walk(o, topologyOf(String(o.apiVersion), String(o.kind)));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`round ${round}: ${objects.length} Deployments, ${leaves} leaves, ${ms.toFixed(1)} ms (${((ms * 1000) / objects.length).toFixed(2)} µs per object)`);
}

/** The same traversal without topology lookups, for comparison. */
function plain(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  let n = 0;
  if (Array.isArray(value)) for (const e of value) n += plain(e);
  else for (const key of Object.keys(value)) n += plain((value as Record<string, unknown>)[key]);
  return n;
}
const start = process.hrtime.bigint();
let values = 0;
for (const o of objects) values += plain(o);
console.log(`plain traversal without topology: ${values} values, ${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(1)} ms`);
