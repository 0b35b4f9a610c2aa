import { Chart, ChartProps } from 'cdk8s';
import { brand, hasBrand } from '../private/brand';
import { Capability } from './capability';

/** Properties of a `RuntimeRouting`. */
export interface RuntimeRoutingProps extends ChartProps {}

/**
 * The runtime aggregate of a capability: the Kubernetes objects that route
 * traffic once the deployment-time aggregates exist.
 *
 * A cdk8s `Chart`. Synth applies it after every deployment-time stack of its
 * capability, and orders its objects by their dependencies (CRDs before custom
 * resources, namespaces before their contents, roles before bindings).
 *
 * @example
 * const routing = new RuntimeRouting(cdn, 'Routing');
 * new kplus.Deployment(routing, 'Web', { containers: [{ image: 'nginx' }] });
 */
export class RuntimeRouting extends Chart {
  /** True when `x` is a `RuntimeRouting`, also across duplicate installs of this package. */
  public static isRuntimeRouting(x: unknown): x is RuntimeRouting {
    return hasBrand(x, 'RuntimeRouting');
  }

  /** The capability this routing belongs to. */
  public readonly capability: Capability;

  /**
   * @param scope the capability
   * @param id the construct id
   * @param props chart options (namespace, labels)
   */
  constructor(scope: Capability, id: string, props: RuntimeRoutingProps = {}) {
    super(scope, id, props);
    brand(this, 'RuntimeRouting');
    this.capability = Capability.of(this);
  }
}
