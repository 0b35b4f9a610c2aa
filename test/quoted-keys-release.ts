import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';

/** One release of Deployment shop/web, whose container and finalizer names read as a number and a boolean when left unquoted. */
export interface QuotedKeysVariant {
  /** The image of the container named "2". */
  readonly image: string;
  /** The value of its DB_PASSWORD (a secret-named variable: masked, digested under its leaf's name). */
  readonly password: string;
  /** The release of the Rollout whose weight the runtime writer Shifter writes; "2" when not given. */
  readonly shifted?: string;
}

/** The release test/fixtures/lock-format-2-unquoted holds the lock of. */
export const QUOTED_KEYS_RELEASE: QuotedKeysVariant = { image: 'web:1.0', password: 'hunter2-hunter2' };

/**
 * GIVEN-side builder: capability shop, chart Routing with Namespace shop, Deployment shop/web (one container named
 * "2", the finalizer "true"), a Rollout shop/web whose CRD is not in the composition (its releases are the controller's), and two runtime writers whose
 * fields name the container "2", the finalizer "true" and the Rollout's release "2".
 */
export function quotedKeys(app: CapabilityApp, v: QuotedKeysVariant): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', finalizers: ['true'] },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: '2', image: v.image, env: [{ name: 'DB_PASSWORD', value: v.password }] }] },
      },
    },
  });
  const rollout = new ApiObject(routing, 'Rollout', {
    apiVersion: 'rollouts.example.com/v1',
    kind: 'Rollout',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { strategy: 'canary' },
  });
  new RuntimeWriter(routing, 'Sidecars', {
    target: web,
    fields: ['spec.template.spec.containers[name="2"].args', 'metadata.finalizers[="true"]'],
    identity: 'system:serviceaccount:mesh:injector',
    manager: 'injector',
  });
  new RuntimeWriter(routing, 'Shifter', {
    target: rollout,
    fields: [`spec.releases[version=${JSON.stringify(v.shifted ?? '2')}].weight`],
    identity: 'system:serviceaccount:rollouts:shifter',
    manager: 'shifter',
  });
}
