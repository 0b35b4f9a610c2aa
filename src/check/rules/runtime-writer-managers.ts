import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * A client's user agent (`kube-controller-manager/v1.30.2 (linux/amd64) kubernetes/7c48c2b`): a name, a slash,
 * a version. The API server names an update that gives no field manager after the user agent's part before its
 * first `/` (k8s.io/apiserver `fieldmanager` `prefixFromUserAgent`), so no such update is recorded under the
 * whole user agent.
 */
const USER_AGENT = /^([^/\s]+)\/v?\d+(\.\d+)*([-+.][^\s/]*)?(\s|\/|$)/;

/**
 * `CAP010` (warning): a `RuntimeWriter` whose `manager` is a client's user agent, as the API server's audit log
 * prints it (`userAgent`), rather than the field manager `metadata.managedFields` names: a controller that
 * updates without a field manager is recorded under the user agent's part before its first `/`
 * (`kube-controller-manager`), so the lock and `cdk-capability audit` would expect a manager that never writes,
 * and report the controller's own writes as another manager's. A warning, since a client may give any field
 * manager explicitly.
 */
export const runtimeWriterManagers = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'runtime writer managers',
  explanation: 'a runtime writer\'s manager is the field manager metadata.managedFields names; a user agent with its version is what the audit log names, and the API server records an update without a field manager under the part before its first slash.',
  severity: 'warning',
  run({ facts }) {
    const found: RuleFinding[] = [];
    for (const w of facts.runtimeWriters) {
      const match = w.manager === undefined ? null : USER_AGENT.exec(w.manager);
      if (!match) continue;
      found.push({
        message: `'${w.path}' declares the field manager ${JSON.stringify(w.manager)}, a client's user agent with its version, as the API server's audit log prints it: `
          + `an update that gives no field manager is recorded under the user agent's part before its first '/', ${JSON.stringify(match[1])}. `
          + `Give the manager as kubectl get -o yaml --show-managed-fields prints it in metadata.managedFields (manager: '${match[1]}' for such an update), or the audit will report the controller's writes as another manager's.`,
        paths: [w.path],
      });
    }
    return found;
  },
});
