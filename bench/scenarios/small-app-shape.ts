import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { APP_NAMESPACE, IMAGE, PORT, SMALL_APP_GROUP } from './sizes';

/**
 * The `small` scenario: one chart of `size` objects written with cdk8s-plus,
 * as a small real app is: per app a ConfigMap, a ServiceAccount, a Deployment
 * that reads both, and a Service in front of it. Loads cdk8s and cdk8s-plus
 * only, so the bare side never loads aws-cdk-lib or this library.
 */
export function smallApp(chart: Chart, size: number): void {
  for (let a = 0; a < size / SMALL_APP_GROUP; a++) {
    const name = `app-${a}`;
    const metadata = { name, namespace: APP_NAMESPACE };
    const config = new kplus.ConfigMap(chart, `Config${a}`, { metadata, data: { LOG_LEVEL: 'info', APP: name } });
    const serviceAccount = new kplus.ServiceAccount(chart, `Account${a}`, { metadata });
    const deployment = new kplus.Deployment(chart, `App${a}`, {
      metadata,
      serviceAccount,
      containers: [{ name, image: IMAGE, ports: [{ number: PORT, name: 'http' }], envFrom: [kplus.Env.fromConfigMap(config)] }],
    });
    new kplus.Service(chart, `App${a}Service`, { metadata, selector: deployment, ports: [{ name: 'http', port: PORT, targetPort: PORT }] });
  }
}
