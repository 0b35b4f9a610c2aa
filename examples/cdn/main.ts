// The bundled example: a multi-tenant CDN capability with three tenants, synthesized by `cdk8s synth`.
// Run it from the repository root with `npm run example`; the output lands in examples/cdn/dist.
// README.md in this folder walks through it.
import { CapabilityApp, GitOps } from '../../src';
import { CdnCapability } from './cdn-capability';

const app = new CapabilityApp({
  // Flux reconciles the runtime steps from this repository, in plan order (dist/gitops/flux).
  gitops: GitOps.flux({ sourceRef: { kind: 'GitRepository', name: 'platform' }, path: './examples/cdn/dist' }),
});

new CdnCapability(app, 'cdn', {
  description: 'multi-tenant CDN: the edge tags each request with its tenant, the runtime routes on that tag',
  hostedZone: { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'cdn.example.com' },
  originDomainName: 'origin.cdn.example.com',
  gateway: { name: 'edge', namespace: 'gateway-system' },
  backends: {
    web: { image: 'ghcr.io/example/cdn-web:1.4.2', port: 8080, replicas: 3 },
    globex: { image: 'ghcr.io/example/globex-storefront:2.0.1', port: 8080 },
  },
  tenants: [
    { id: 'acme', backend: 'web' },
    { id: 'globex', backend: 'globex' },
    { id: 'initech', backend: 'web' },
  ],
});

app.synth();
