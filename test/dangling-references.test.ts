import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { Capability, Field, InterfaceContract, Reference, RuntimeRouting, SharedBase, Violation } from '../src';
import { appOf, coded, newSeries, removeReleaseDirs } from './release-fixtures';
import { ViolationCode } from '../src/check/finding';
import { plainAppMessage } from '../src/plugin/plain-app-advice';

afterAll(removeReleaseDirs);

const FIX = 'Declare the target in the composition, fix the name, or mark it external with Reference.external(scope, id, { apiVersion, kind, name, namespace }).';

/** The CAP005 message for `object` declared by `path`. */
function dangling(object: string, path: string, what: string): string {
  return `dangling reference: ${object} declared by '${path}' ${what}. ${FIX}`;
}

/** The CAP005 message for Service `object` declared by `path` whose selector `selects` matches no pods in `namespace`; `labels` as the fix writes them. */
function selectsNothing(object: string, path: string, selects: string, namespace: string, labels: string): string {
  return `dangling reference: ${object} declared by '${path}' selects ${selects}, which matches no workload's pod labels in namespace '${namespace}'. `
    + 'Declare the workload in the composition, fix the selector, or declare the pods that something outside the composition makes (an operator, another release): '
    + `Reference.externalPods(scope, id, { namespace: '${namespace}', labels: ${labels} }).`;
}

/** The CAP005 message for a reference to `target` at `field`. */
function refersTo(object: string, path: string, target: string, field: string): string {
  return dangling(object, path, `refers to ${target} at ${field}, which is not in the composition`);
}

/**
 * GIVEN-side helper: capability `cdn` with chart `cdn/Routing` in namespace
 * `shop` (no lock: a first release). `build` adds the objects; returns the
 * violations of the synth.
 */
function violationsOf(build: (routing: RuntimeRouting) => void): Violation[] {
  const app = appOf(newSeries());
  const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing', { namespace: 'shop' });
  build(routing);
  return app.synthesize().violations;
}

/** A raw apps/v1 Deployment `web` whose pod is labelled app=web, with the given pod spec. */
function rawDeployment(routing: RuntimeRouting, podSpec: Record<string, unknown>, name = 'web'): ApiObject {
  return new ApiObject(routing, `Deployment-${name}`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...podSpec } },
    },
  });
}

/** An argoproj.io/v1alpha1 Rollout `web` (a custom workload kind) whose pod template carries `labels`. */
function rollout(routing: RuntimeRouting, labels: Record<string, string>, namespace?: string): ApiObject {
  return new ApiObject(routing, `Rollout-${namespace ?? ''}`, {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: 'web', ...(namespace ? { namespace } : {}) },
    spec: {
      selector: { matchLabels: labels },
      strategy: { canary: { steps: [{ setWeight: 20 }] } },
      template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  });
}

/** A Service `name` in front of pods labelled app=`app`. */
function service(routing: RuntimeRouting, name: string, app: string, namespace?: string): ApiObject {
  return new ApiObject(routing, `Service-${name}-${namespace ?? ''}`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: { selector: { app }, ports: [{ port: 80, targetPort: 8080 }] },
  });
}

const RBAC = 'rbac.authorization.k8s.io/v1';

describe('CAP005: dangling references', () => {
  describe('RBAC bindings', () => {
    const binding = (routing: RuntimeRouting) =>
      new ApiObject(routing, 'Binding', {
        apiVersion: RBAC,
        kind: 'RoleBinding',
        metadata: { name: 'read-config' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'config-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'shop' }],
      });

    test('a RoleBinding to a Role that is not in the composition is refused', () => {
      // GIVEN RoleBinding shop/read-config whose roleRef names Role config-reader, which is not declared
      // WHEN synthesized
      const violations = violationsOf(binding);

      // THEN one CAP005 names the binding, its declarer, the Role and roleRef
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo('rbac.authorization.k8s.io/RoleBinding shop/read-config', 'cdn/Routing/Binding', 'rbac.authorization.k8s.io/Role shop/config-reader', 'roleRef'),
          paths: ['cdn/Routing/Binding'],
        },
      ]);
    });

    test('a RoleBinding to a Role declared in the same namespace is accepted', () => {
      // GIVEN the binding and Role shop/config-reader
      const violations = violationsOf((routing) => {
        binding(routing);
        new ApiObject(routing, 'Role', { apiVersion: RBAC, kind: 'Role', metadata: { name: 'config-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('a ClusterRoleBinding to the built-in cluster-admin is accepted', () => {
      // GIVEN ClusterRoleBinding admins -> ClusterRole cluster-admin, which every cluster has
      const violations = violationsOf((routing) => {
        new ApiObject(routing, 'Admins', {
          apiVersion: RBAC,
          kind: 'ClusterRoleBinding',
          metadata: { name: 'admins' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ kind: 'Group', name: 'platform-admins', apiGroup: 'rbac.authorization.k8s.io' }],
        });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('a ClusterRoleBinding to a ClusterRole that is not built in and not declared is refused', () => {
      // GIVEN ClusterRoleBinding operators -> ClusterRole widget-operator
      const violations = violationsOf((routing) => {
        new ApiObject(routing, 'Operators', {
          apiVersion: RBAC,
          kind: 'ClusterRoleBinding',
          metadata: { name: 'operators' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'widget-operator' },
          subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'shop' }],
        });
      });

      // THEN one CAP005 names the cluster-scoped ClusterRole
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo('rbac.authorization.k8s.io/ClusterRoleBinding operators', 'cdn/Routing/Operators', 'rbac.authorization.k8s.io/ClusterRole widget-operator', 'roleRef'),
          paths: ['cdn/Routing/Operators'],
        },
      ]);
    });
  });

  describe('pod specs (cdk8s-plus-30 Deployment)', () => {
    const WEB = 'apps/Deployment shop/web';
    const plusDeployment = (routing: RuntimeRouting, props: Partial<kplus.DeploymentProps>, container: Partial<kplus.ContainerProps> = {}) =>
      new kplus.Deployment(routing, 'Web', { metadata: { name: 'web' }, ...props, containers: [{ name: 'web', image: 'nginx:1.27', ...container }] });

    test('a ServiceAccount that is not in the composition is refused', () => {
      // GIVEN a Deployment running as ServiceAccount web-sa, referenced by name only
      const violations = violationsOf((routing) => {
        plusDeployment(routing, { serviceAccount: kplus.ServiceAccount.fromServiceAccountName(routing, 'Sa', 'web-sa') });
      });

      // THEN one CAP005 at spec.template.spec.serviceAccountName
      expect(coded(violations)).toEqual([
        { code: 'CAP005', message: refersTo(WEB, 'cdn/Routing/Web', 'ServiceAccount shop/web-sa', 'spec.template.spec.serviceAccountName'), paths: ['cdn/Routing/Web'] },
      ]);
    });

    test('a ConfigMap mounted as a volume that is not in the composition is refused', () => {
      // GIVEN a Deployment mounting ConfigMap web-config
      const violations = violationsOf((routing) => {
        const config = kplus.Volume.fromConfigMap(routing, 'Config', kplus.ConfigMap.fromConfigMapName(routing, 'ConfigRef', 'web-config'));
        plusDeployment(routing, {}, { volumeMounts: [{ path: '/etc/web', volume: config }] });
      });

      // THEN one CAP005 names the volume
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo(WEB, 'cdn/Routing/Web', 'ConfigMap shop/web-config', 'spec.template.spec.volumes[name=configmap-web-config].configMap'),
          paths: ['cdn/Routing/Web'],
        },
      ]);
    });

    test('a ConfigMap read with envFrom that is not in the composition is refused', () => {
      // GIVEN a Deployment whose container copies its environment from ConfigMap web-env
      const violations = violationsOf((routing) => {
        const web = plusDeployment(routing, {});
        web.containers[0].env.copyFrom(kplus.Env.fromConfigMap(kplus.ConfigMap.fromConfigMapName(routing, 'EnvRef', 'web-env')));
      });

      // THEN one CAP005 at the container's envFrom
      expect(coded(violations)).toEqual([
        { code: 'CAP005', message: refersTo(WEB, 'cdn/Routing/Web', 'ConfigMap shop/web-env', 'spec.template.spec.containers[name=web].envFrom'), paths: ['cdn/Routing/Web'] },
      ]);
    });

    test('a Secret read with an env secretKeyRef that is not in the composition is refused', () => {
      // GIVEN a Deployment whose env TOKEN reads key token of Secret web-token
      const violations = violationsOf((routing) => {
        const secret = kplus.Secret.fromSecretName(routing, 'TokenRef', 'web-token');
        plusDeployment(routing, {}, { envVariables: { TOKEN: kplus.EnvValue.fromSecretValue({ secret, key: 'token' }) } });
      });

      // THEN one CAP005 at env[name=TOKEN]
      expect(coded(violations)).toEqual([
        { code: 'CAP005', message: refersTo(WEB, 'cdn/Routing/Web', 'Secret shop/web-token', 'spec.template.spec.containers[name=web].env[name=TOKEN]'), paths: ['cdn/Routing/Web'] },
      ]);
    });

    test('a PersistentVolumeClaim that is not in the composition is refused', () => {
      // GIVEN a Deployment mounting claim data
      const violations = violationsOf((routing) => {
        const data = kplus.Volume.fromPersistentVolumeClaim(routing, 'Data', kplus.PersistentVolumeClaim.fromClaimName(routing, 'DataRef', 'data'));
        plusDeployment(routing, {}, { volumeMounts: [{ path: '/data', volume: data }] });
      });

      // THEN one CAP005 names the claim
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo(WEB, 'cdn/Routing/Web', 'PersistentVolumeClaim shop/data', 'spec.template.spec.volumes[name=pvc-data].persistentVolumeClaim'),
          paths: ['cdn/Routing/Web'],
        },
      ]);
    });

    test('a Deployment whose ServiceAccount, ConfigMap, Secret and claim are all declared is accepted', () => {
      // GIVEN every target declared with cdk8s-plus-30 in the same chart
      const violations = violationsOf((routing) => {
        const serviceAccount = new kplus.ServiceAccount(routing, 'Sa', { metadata: { name: 'web-sa' } });
        const config = new kplus.ConfigMap(routing, 'Config', { metadata: { name: 'web-config' }, data: { 'app.conf': 'x' } });
        const env = new kplus.ConfigMap(routing, 'Env', { metadata: { name: 'web-env' }, data: { MODE: 'live' } });
        const secret = new kplus.Secret(routing, 'Token', { metadata: { name: 'web-token' }, stringData: { token: 'not-a-real-token' } });
        const claim = new kplus.PersistentVolumeClaim(routing, 'Claim', { metadata: { name: 'data' } });
        const web = plusDeployment(
          routing,
          { serviceAccount },
          {
            envVariables: { TOKEN: kplus.EnvValue.fromSecretValue({ secret, key: 'token' }) },
            volumeMounts: [
              { path: '/etc/web', volume: kplus.Volume.fromConfigMap(routing, 'ConfigVolume', config) },
              { path: '/data', volume: kplus.Volume.fromPersistentVolumeClaim(routing, 'DataVolume', claim) },
            ],
          },
        );
        web.containers[0].env.copyFrom(kplus.Env.fromConfigMap(env));
      });

      // THEN nothing dangles
      expect(coded(violations)).toEqual([]);
    });
  });

  describe('pod specs (raw apps/v1 ApiObject)', () => {
    test('each missing target of a raw Deployment is its own violation', () => {
      // GIVEN a raw Deployment naming ServiceAccount runner, ConfigMaps conf and env, Secret creds and claim cache
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {
          serviceAccountName: 'runner',
          volumes: [
            { name: 'conf', configMap: { name: 'conf' } },
            { name: 'cache', persistentVolumeClaim: { claimName: 'cache' } },
          ],
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              envFrom: [{ configMapRef: { name: 'env' } }],
              env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } }],
            },
          ],
        });
      });

      // THEN one CAP005 per target, sorted by message
      const web = 'apps/Deployment shop/web';
      const path = 'cdn/Routing/Deployment-web';
      expect(coded(violations)).toEqual(
        [
          refersTo(web, path, 'ConfigMap shop/conf', 'spec.template.spec.volumes[name=conf].configMap'),
          refersTo(web, path, 'ConfigMap shop/env', 'spec.template.spec.containers[name=web].envFrom'),
          refersTo(web, path, 'PersistentVolumeClaim shop/cache', 'spec.template.spec.volumes[name=cache].persistentVolumeClaim'),
          refersTo(web, path, 'Secret shop/creds', 'spec.template.spec.containers[name=web].env[name=PASSWORD]'),
          refersTo(web, path, 'ServiceAccount shop/runner', 'spec.template.spec.serviceAccountName'),
        ].map((message) => ({ code: 'CAP005', message, paths: [path] })),
      );
    });

    test('references marked optional: true are accepted without their targets', () => {
      // GIVEN a raw Deployment whose ConfigMap and Secret references are all optional
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {
          volumes: [
            { name: 'conf', configMap: { name: 'conf', optional: true } },
            { name: 'tls', secret: { secretName: 'tls', optional: true } },
          ],
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              envFrom: [{ configMapRef: { name: 'env', optional: true } }, { secretRef: { name: 'env-secrets', optional: true } }],
              env: [
                { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'modes', key: 'mode', optional: true } } },
                { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password', optional: true } } },
              ],
            },
          ],
        });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('the same references without optional are refused', () => {
      // GIVEN the same raw Deployment without optional
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {
          volumes: [{ name: 'tls', secret: { secretName: 'tls' } }],
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              envFrom: [{ secretRef: { name: 'env-secrets' } }],
              env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'modes', key: 'mode' } } }],
            },
          ],
        });
      });

      // THEN each is a CAP005
      expect(violations.map((v) => v.message.match(/refers to (\S+ \S+) at/)?.[1])).toEqual(['ConfigMap shop/modes', 'Secret shop/env-secrets', 'Secret shop/tls']);
      expect(violations.map((v) => v.code)).toEqual(['CAP005', 'CAP005', 'CAP005']);
    });

    test("a projected volume's Secret and ConfigMap sources that are not in the composition are refused", () => {
      // GIVEN a cdk8s-plus KubePod whose volume v projects Secret no-such-secret and ConfigMap no-such-cm
      const violations = violationsOf((routing) => {
        new kplus.k8s.KubePod(routing, 'Pod', {
          metadata: { name: 'p', namespace: 'shop' },
          spec: {
            containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/etc/app' }] }],
            volumes: [{ name: 'v', projected: { sources: [{ secret: { name: 'no-such-secret' } }, { configMap: { name: 'no-such-cm' } }] } }],
          },
        });
      });

      // THEN one CAP005 per source, at the volume's projected sources
      expect(coded(violations)).toEqual(
        [
          refersTo('Pod shop/p', 'cdn/Routing/Pod', 'ConfigMap shop/no-such-cm', 'spec.volumes[name=v].projected.sources'),
          refersTo('Pod shop/p', 'cdn/Routing/Pod', 'Secret shop/no-such-secret', 'spec.volumes[name=v].projected.sources'),
        ].map((message) => ({ code: 'CAP005', message, paths: ['cdn/Routing/Pod'] })),
      );
    });

    test('projected sources marked optional: true, or declared, are accepted', () => {
      // GIVEN a raw Deployment projecting optional Secret tls, optional ConfigMap conf, and declared ConfigMap ca
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {
          volumes: [{
            name: 'all',
            projected: { sources: [{ secret: { name: 'tls', optional: true } }, { configMap: { name: 'conf', optional: true } }, { configMap: { name: 'ca' } }, { serviceAccountToken: { path: 'token' } }] },
          }],
        });
        new ApiObject(routing, 'Ca', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ca' }, data: { 'ca.crt': 'x' } });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('the Secrets of CSI, CephFS, RBD, iSCSI, Azure File and FlexVolume volumes that are not in the composition are refused', () => {
      // GIVEN a raw Deployment whose volumes name a Secret each
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {
          volumes: [
            { name: 'csi', csi: { driver: 'secrets-store.csi.k8s.io', readOnly: true, nodePublishSecretRef: { name: 'csi-creds' } } },
            { name: 'ceph', cephfs: { monitors: ['10.0.0.1:6789'], secretRef: { name: 'ceph-creds' } } },
            { name: 'rbd', rbd: { monitors: ['10.0.0.1:6789'], image: 'disk', secretRef: { name: 'rbd-creds' } } },
            { name: 'iscsi', iscsi: { targetPortal: '10.0.0.2:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, secretRef: { name: 'iscsi-creds' } } },
            { name: 'azure', azureFile: { secretName: 'azure-creds', shareName: 'share' } },
            { name: 'flex', flexVolume: { driver: 'example.com/nfs', secretRef: { name: 'flex-creds' } } },
          ],
        });
      });

      // THEN one CAP005 per Secret, at the field that names it
      const web = 'apps/Deployment shop/web';
      const path = 'cdn/Routing/Deployment-web';
      const at = 'spec.template.spec.volumes';
      expect(coded(violations)).toEqual(
        [
          refersTo(web, path, 'Secret shop/azure-creds', `${at}[name=azure].azureFile.secretName`),
          refersTo(web, path, 'Secret shop/ceph-creds', `${at}[name=ceph].cephfs.secretRef`),
          refersTo(web, path, 'Secret shop/csi-creds', `${at}[name=csi].csi.nodePublishSecretRef`),
          refersTo(web, path, 'Secret shop/flex-creds', `${at}[name=flex].flexVolume.secretRef`),
          refersTo(web, path, 'Secret shop/iscsi-creds', `${at}[name=iscsi].iscsi.secretRef`),
          refersTo(web, path, 'Secret shop/rbd-creds', `${at}[name=rbd].rbd.secretRef`),
        ].map((message) => ({ code: 'CAP005', message, paths: [path] })),
      );
    });

    test('the default ServiceAccount and kube-root-ca.crt exist in every namespace', () => {
      // GIVEN a raw Deployment running as ServiceAccount default and mounting kube-root-ca.crt
      const violations = violationsOf((routing) => {
        rawDeployment(routing, { serviceAccountName: 'default', volumes: [{ name: 'ca', configMap: { name: 'kube-root-ca.crt' } }] });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });
  });

  describe('Service selectors', () => {
    test('a Service whose selector matches no workload is refused', () => {
      // GIVEN Service web selecting app=web and no workload with that label
      const violations = violationsOf((routing) => service(routing, 'web', 'web'));

      // THEN one CAP005 names the selector and the namespace
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: selectsNothing('Service shop/web', 'cdn/Routing/Service-web-', 'app=web', 'shop', "{ app: 'web' }"),
          paths: ['cdn/Routing/Service-web-'],
        },
      ]);
    });

    test("a Service whose selector matches a Deployment's pod labels is accepted", () => {
      // GIVEN Service web selecting app=web and a Deployment whose pods are labelled app=web
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {});
        service(routing, 'web', 'web');
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('a workload in another namespace does not satisfy the selector', () => {
      // GIVEN Service web in namespace other selecting app=web, and the Deployment in shop
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {});
        service(routing, 'web', 'web', 'other');
      });

      // THEN the Service dangles
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
      expect(violations[0].message).toContain("selects app=web, which matches no workload's pod labels in namespace 'other'");
    });

    test("a Service without a namespace is named as in namespace 'default', where the API server puts it", () => {
      // GIVEN Service web selecting app=web in a chart without a namespace, and no workload
      const app = appOf(newSeries());
      service(new RuntimeRouting(new Capability(app, 'cdn'), 'Routing'), 'web', 'web');

      // WHEN synthesized
      const { violations } = app.synthesize();

      // THEN the CAP005 says namespace 'default', not ''
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
      expect(violations[0].message).toContain("selects app=web, which matches no workload's pod labels in namespace 'default'");
    });

    test("a Service whose selector matches a custom workload's pod template (an Argo Rollout) is accepted", () => {
      // GIVEN an argoproj.io Rollout whose pod template is labelled app=web, and Service web selecting app=web
      const violations = violationsOf((routing) => {
        rollout(routing, { app: 'web' });
        service(routing, 'web', 'web');
      });

      // THEN nothing dangles: any object with a pod template runs pods with its labels
      expect(violations).toEqual([]);
    });

    test("pods made outside the composition are declared with Reference.externalPods in the Service's namespace", () => {
      // GIVEN Service web selecting app=web, whose pods an operator makes: Reference.externalPods in shop labelled app=web, tier=edge
      const violations = violationsOf((routing) => {
        service(routing, 'web', 'web');
        Reference.externalPods(routing, 'WebPods', { namespace: 'shop', labels: { app: 'web', tier: 'edge' } });
      });

      // THEN nothing dangles: the declared pods carry every label the selector asks for
      expect(violations).toEqual([]);
    });

    test('pods declared in another namespace, or without a label the selector asks for, do not satisfy it', () => {
      // GIVEN Service web selecting app=web, pods app=web declared in namespace other, and pods app=api declared in shop
      const violations = violationsOf((routing) => {
        service(routing, 'web', 'web');
        Reference.externalPods(routing, 'Elsewhere', { namespace: 'other', labels: { app: 'web' } });
        Reference.externalPods(routing, 'OtherApp', { namespace: 'shop', labels: { app: 'api' } });
      });

      // THEN the Service dangles
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
    });

    test("pods declared in namespace 'default' satisfy a Service without a namespace", () => {
      // GIVEN Service web (no namespace, in a chart without one) selecting app=web, and pods app=web declared in default
      const app = appOf(newSeries());
      const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
      service(routing, 'web', 'web');
      Reference.externalPods(routing, 'WebPods', { namespace: 'default', labels: { app: 'web' } });

      // WHEN synthesized, THEN nothing dangles
      expect(app.synthesize().violations).toEqual([]);
    });

    test('Reference.external of a workload does not satisfy a selector: the fix names the externalPods declaration that does', () => {
      // GIVEN Service api selecting app.kubernetes.io/name=api, and the Rollout that makes its pods declared external by name only
      const violations = violationsOf((routing) => {
        new ApiObject(routing, 'Api', {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'api' },
          spec: { selector: { 'app.kubernetes.io/name': 'api' }, ports: [{ port: 80 }] },
        });
        Reference.external(routing, 'Rollout', { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'api', namespace: 'shop' });
      });

      // THEN one CAP005 whose fix is Reference.externalPods with the Service's namespace and selector, keys quoted where they must be
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: selectsNothing('Service shop/api', 'cdn/Routing/Api', 'app.kubernetes.io/name=api', 'shop', "{ 'app.kubernetes.io/name': 'api' }"),
          paths: ['cdn/Routing/Api'],
        },
      ]);
    });

    test('the same finding from the cdk8s plugin speaks of the app, and names externalPods as the CapabilityApp way', () => {
      // GIVEN the finding of a Service selecting nothing, as the rule writes it
      const message = violationsOf((routing) => service(routing, 'web', 'web'))[0].message.replace(/^dangling reference: /, '');

      // WHEN worded for a plain cdk8s app
      const plain = plainAppMessage(ViolationCode.DANGLING_REFERENCE, message);

      // THEN the fix is the app's, and the declaration is named as CapabilityApp's
      expect(plain).toBe(
        "Service shop/web declared by 'cdn/Routing/Service-web-' selects app=web, which matches no workload's pod labels in namespace 'shop'. "
          + 'Emit the workload in the app, or fix the selector. If something outside the app makes the pods (an operator, another release), the selector is expected to match nothing here: '
          + "with CapabilityApp, Reference.externalPods(scope, id, { namespace: 'shop', labels: { app: 'web' } }).",
      );
    });

    test("a custom object's template without containers is not a pod template", () => {
      // GIVEN an ApplicationSet whose template (of Applications, not pods) is labelled app=web, and Service web selecting app=web
      const violations = violationsOf((routing) => {
        new ApiObject(routing, 'Apps', {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'ApplicationSet',
          metadata: { name: 'web' },
          spec: { generators: [], template: { metadata: { name: 'web', labels: { app: 'web' } }, spec: { project: 'default', destination: { namespace: 'shop' } } } },
        });
        service(routing, 'web', 'web');
      });

      // THEN the Service dangles
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
      expect(violations[0].message).toContain("selects app=web, which matches no workload's pod labels in namespace 'shop'");
    });
  });

  describe('Ingress and HTTPRoute backends', () => {
    const ingress = (routing: RuntimeRouting) =>
      new ApiObject(routing, 'Ingress', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'web' },
        spec: { rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
      });
    const route = (routing: RuntimeRouting, backendRef: Record<string, unknown>) =>
      new ApiObject(routing, 'Route', {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: { name: 'tenant-acme' },
        spec: {
          parentRefs: [{ name: 'edge', namespace: 'gateways' }],
          rules: [{ matches: [{ headers: [{ name: 'x-tenant-id', value: 'acme' }] }], backendRefs: [{ port: 80, ...backendRef }] }],
        },
      });

    test('an Ingress backend naming a missing Service is refused', () => {
      // GIVEN Ingress web routing shop.example.com to Service web, which is not declared
      const violations = violationsOf(ingress);

      // THEN one CAP005 names the rule's host
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo('networking.k8s.io/Ingress shop/web', 'cdn/Routing/Ingress', 'Service shop/web', 'spec.rules[host=shop.example.com].http.paths'),
          paths: ['cdn/Routing/Ingress'],
        },
      ]);
    });

    test('an Ingress backend naming a declared Service is accepted', () => {
      // GIVEN the Ingress, Service web and the Deployment it selects
      const violations = violationsOf((routing) => {
        ingress(routing);
        rawDeployment(routing, {});
        service(routing, 'web', 'web');
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('an HTTPRoute backendRef naming a missing Service is refused', () => {
      // GIVEN HTTPRoute tenant-acme sending to Service web, which is not declared
      const violations = violationsOf((routing) => route(routing, { name: 'web' }));

      // THEN one CAP005 at spec.rules.backendRefs
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo('gateway.networking.k8s.io/HTTPRoute shop/tenant-acme', 'cdn/Routing/Route', 'Service shop/web', 'spec.rules.backendRefs'),
          paths: ['cdn/Routing/Route'],
        },
      ]);
    });

    test("an HTTPRoute backendRef with a namespace is looked up in that namespace, not the route's", () => {
      // GIVEN the Service web in shop and a backendRef to web in namespace backends
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {});
        service(routing, 'web', 'web');
        route(routing, { name: 'web', namespace: 'backends' });
      });

      // THEN it dangles: Service backends/web is not declared
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
      expect(violations[0].message).toContain('refers to Service backends/web at spec.rules.backendRefs, which is not in the composition');
    });

    test('an HTTPRoute backendRef naming a declared Service is accepted', () => {
      // GIVEN the route, Service web and the Deployment it selects
      const violations = violationsOf((routing) => {
        rawDeployment(routing, {});
        service(routing, 'web', 'web');
        route(routing, { name: 'web' });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });
  });

  describe('Secrets provided by an ExternalSecret', () => {
    const readsCreds = (routing: RuntimeRouting) =>
      rawDeployment(routing, { containers: [{ name: 'web', image: 'nginx:1.27', env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } }] }] });

    test('a Secret named by an ExternalSecret target counts as present', () => {
      // GIVEN a Deployment reading Secret creds and ExternalSecret db whose target is creds
      const violations = violationsOf((routing) => {
        readsCreds(routing);
        new ApiObject(routing, 'Db', {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ExternalSecret',
          metadata: { name: 'db' },
          spec: { secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws' }, target: { name: 'creds' }, dataFrom: [{ extract: { key: '/db/creds' } }] },
        });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test('an ExternalSecret without target.name provides the Secret of its own name', () => {
      // GIVEN ExternalSecret creds with no target name
      const violations = violationsOf((routing) => {
        readsCreds(routing);
        new ApiObject(routing, 'Creds', {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ExternalSecret',
          metadata: { name: 'creds' },
          spec: { secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws' }, dataFrom: [{ extract: { key: '/db/creds' } }] },
        });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test("an ExternalSecret in another namespace does not provide the Deployment's Secret", () => {
      // GIVEN ExternalSecret db in namespace vault targeting creds
      const violations = violationsOf((routing) => {
        readsCreds(routing);
        new ApiObject(routing, 'Db', {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ExternalSecret',
          metadata: { name: 'db', namespace: 'vault' },
          spec: { secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws' }, target: { name: 'creds' } },
        });
      });

      // THEN the Deployment's reference dangles
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
      expect(violations[0].message).toContain('refers to Secret shop/creds');
    });

    test("the interface contract's bound Secret counts as present for a consumer's envValue()", () => {
      // GIVEN contract cdn/Edge published by cdn/Base and consumed by cdn/Routing into a cdk8s-plus Deployment
      const app = appOf(newSeries());
      const cdn = new Capability(app, 'cdn');
      const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
      edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
      const routing = new RuntimeRouting(cdn, 'Routing', { namespace: 'shop' });
      const values = edge.consume(routing);
      new kplus.Deployment(routing, 'Web', { containers: [{ name: 'web', image: 'nginx:1.27', envVariables: { TENANT_HEADER: values.tenantHeader.envValue() } }] });

      // WHEN synthesized
      const { violations } = app.synthesize();

      // THEN nothing dangles
      expect(coded(violations)).toEqual([]);
    });

    test("a pod in another namespace than the contract's Secret is told to consume the contract in its namespace", () => {
      // GIVEN the contract consumed in namespace shop, and a Deployment in namespace web reading it
      const app = appOf(newSeries());
      const cdn = new Capability(app, 'cdn');
      const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
      edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
      const values = edge.consume(new RuntimeRouting(cdn, 'Routing', { namespace: 'shop' }));
      const web = new RuntimeRouting(cdn, 'Web', { namespace: 'web' });
      new kplus.Deployment(web, 'Web', { containers: [{ name: 'web', image: 'nginx:1.27', envVariables: { TENANT_HEADER: values.tenantHeader.envValue() } }] });

      // WHEN synthesized
      const { violations } = app.synthesize();

      // THEN one CAP005 whose fix is consume(routing, { namespace })
      expect(coded(violations)).toEqual([expect.objectContaining({ code: 'CAP005', paths: ['cdn/Web/Web'] })]);
      expect(violations[0].message).toMatch(
        /^dangling reference: apps\/Deployment web\/\S+ declared by 'cdn\/Web\/Web' refers to Secret web\/(\S+) at .*, but that Secret is created only in namespace 'shop' \(the ExternalSecret of 'cdn\/Routing\/[^']+'\), and a pod reads Secrets of its own namespace only\. Consume the contract in this namespace too: contract\.consume\(routing, \{ namespace: 'web' \}\)\.$/,
      );
    });

    test("a contract consumed without a namespace is named as consumed in namespace 'default', where the API server puts its Secret", () => {
      // GIVEN the contract consumed in a chart without a namespace, and a Deployment in namespace web reading it
      const app = appOf(newSeries());
      const cdn = new Capability(app, 'cdn');
      const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
      edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
      const values = edge.consume(new RuntimeRouting(cdn, 'Routing'));
      const web = new RuntimeRouting(cdn, 'Web', { namespace: 'web' });
      new kplus.Deployment(web, 'Web', { containers: [{ name: 'web', image: 'nginx:1.27', envVariables: { TENANT_HEADER: values.tenantHeader.envValue() } }] });

      // WHEN synthesized
      const { violations } = app.synthesize();

      // THEN the CAP005 says namespace 'default', not ''
      expect(coded(violations)).toEqual([expect.objectContaining({ code: 'CAP005', paths: ['cdn/Web/Web'] })]);
      expect(violations[0].message).toMatch(/, but that Secret is created only in namespace 'default' \(the ExternalSecret of 'cdn\/Routing\/[^']+'\), /);
    });

    test("a pod without a namespace is told to consume the contract in namespace 'default'", () => {
      // GIVEN the contract consumed in namespace shop, and a Deployment in a chart without a namespace reading it
      const app = appOf(newSeries());
      const cdn = new Capability(app, 'cdn');
      const edge = new InterfaceContract(cdn, 'Edge', { version: '1.0.0', fields: { tenantHeader: Field.string() } });
      edge.publish(new SharedBase(cdn, 'Base'), { tenantHeader: 'x-tenant-id' });
      const values = edge.consume(new RuntimeRouting(cdn, 'Routing', { namespace: 'shop' }));
      const web = new RuntimeRouting(cdn, 'Web');
      new kplus.Deployment(web, 'Web', { containers: [{ name: 'web', image: 'nginx:1.27', envVariables: { TENANT_HEADER: values.tenantHeader.envValue() } }] });

      // WHEN synthesized
      const { violations } = app.synthesize();

      // THEN the fix names namespace 'default'
      expect(coded(violations)).toEqual([expect.objectContaining({ code: 'CAP005', paths: ['cdn/Web/Web'] })]);
      expect(violations[0].message).toMatch(/Consume the contract in this namespace too: contract\.consume\(routing, \{ namespace: 'default' \}\)\.$/);
    });
  });

  describe('declared by-name references between custom resources (Reference.byName)', () => {
    const FMS = 'fms.example.com/v1';

    /** FMSPolicy edge naming its rule set with spec.ruleSetRef, declared with Reference.byName. */
    const policy = (routing: RuntimeRouting, ruleSetRef: unknown = 'baseline') => {
      const fms = new ApiObject(routing, 'Policy', { apiVersion: FMS, kind: 'FMSPolicy', metadata: { name: 'edge' }, spec: { ruleSetRef } });
      Reference.byName(routing, 'PolicyRules', { source: fms, field: 'spec.ruleSetRef', target: { apiVersion: FMS, kind: 'NetworkRuleSet' } });
      return fms;
    };

    test('an FMSPolicy whose ruleSetRef names a missing NetworkRuleSet is refused', () => {
      // GIVEN FMSPolicy shop/edge with spec.ruleSetRef "baseline" and no NetworkRuleSet
      const violations = violationsOf((routing) => policy(routing));

      // THEN one CAP005 names the policy, the rule set and the field
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo('fms.example.com/FMSPolicy shop/edge', 'cdn/Routing/Policy', 'fms.example.com/NetworkRuleSet shop/baseline', 'spec.ruleSetRef'),
          paths: ['cdn/Routing/Policy'],
        },
      ]);
    });

    test('the same policy is accepted when the NetworkRuleSet is declared', () => {
      // GIVEN the policy and NetworkRuleSet shop/baseline
      const violations = violationsOf((routing) => {
        policy(routing);
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline' }, spec: { rules: [] } });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test("a reference whose kind differs from the declared object's only in case names that object", () => {
      // GIVEN the rule set declared as NetworkRuleSet shop/baseline, and the reference declared to kind 'networkruleset'
      const violations = violationsOf((routing) => {
        const fms = new ApiObject(routing, 'Policy', { apiVersion: FMS, kind: 'FMSPolicy', metadata: { name: 'edge' }, spec: { ruleSetRef: 'baseline' } });
        Reference.byName(routing, 'PolicyRules', { source: fms, field: 'spec.ruleSetRef', target: { apiVersion: FMS, kind: 'networkruleset' } });
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline' }, spec: { rules: [] } });
      });

      // THEN the CAP005 says which object the composition has, and that a kind's case counts
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: dangling('fms.example.com/FMSPolicy shop/edge', 'cdn/Routing/Policy', 'refers to fms.example.com/networkruleset shop/baseline at spec.ruleSetRef, which is not in the composition; '
            + "the composition has fms.example.com/NetworkRuleSet shop/baseline, and a kind is written in its exact case ('NetworkRuleSet')"),
          paths: ['cdn/Routing/Policy'],
        },
        // AND the declaration is refused where the kind was written: no API names a kind so
        {
          code: 'CAP010',
          message: "invalid object: 'cdn/Routing/PolicyRules' failed its own validation: Reference.byName's 'target'.kind (\"networkruleset\") must be UpperCamelCase, "
            + 'letters and digits only, as the API names kinds. Fix the kind.',
          paths: ['cdn/Routing/PolicyRules'],
        },
      ]);
    });

    test('the same finding from the cdk8s plugin speaks of the app\'s manifests, not a composition', () => {
      // GIVEN the finding of a kind that differs only in case, as the rule writes it
      const message = violationsOf((routing) => {
        const fms = new ApiObject(routing, 'Policy', { apiVersion: FMS, kind: 'FMSPolicy', metadata: { name: 'edge' }, spec: { ruleSetRef: 'baseline' } });
        Reference.byName(routing, 'PolicyRules', { source: fms, field: 'spec.ruleSetRef', target: { apiVersion: FMS, kind: 'networkruleset' } });
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline' }, spec: { rules: [] } });
      })[0].message.replace(/^dangling reference: /, '');

      // WHEN worded for a plain cdk8s app, THEN it names the object the app has, without the word composition
      const plain = plainAppMessage(ViolationCode.DANGLING_REFERENCE, message);
      expect(plain).toContain(", which is not in the app's manifests; they have fms.example.com/NetworkRuleSet shop/baseline, and a kind is written in its exact case ('NetworkRuleSet'). Emit the target in the app");
      expect(plain).not.toContain('composition');
    });

    test('the same policy is accepted when the NetworkRuleSet is declared external', () => {
      // GIVEN the policy and Reference.external for NetworkRuleSet shop/baseline
      const violations = violationsOf((routing) => {
        policy(routing);
        Reference.external(routing, 'SharedRules', { apiVersion: FMS, kind: 'NetworkRuleSet', name: 'baseline', namespace: 'shop' });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });

    test("Reference.external without a namespace defaults to the referring object's namespace", () => {
      // GIVEN the policy in shop and Reference.external for NetworkRuleSet baseline with no namespace
      //   (documented: "@default - cluster-scoped, or the referring object's namespace")
      const violations = violationsOf((routing) => {
        policy(routing);
        Reference.external(routing, 'SharedRules', { apiVersion: FMS, kind: 'NetworkRuleSet', name: 'baseline' });
      });

      // THEN nothing dangles
      expect(coded(violations)).toEqual([]);
    });

    test('an external NetworkRuleSet of another name does not satisfy the reference', () => {
      // GIVEN the policy and Reference.external for NetworkRuleSet shop/strict
      const violations = violationsOf((routing) => {
        policy(routing);
        Reference.external(routing, 'SharedRules', { apiVersion: FMS, kind: 'NetworkRuleSet', name: 'strict', namespace: 'shop' });
      });

      // THEN the policy's reference still dangles
      expect(violations.map((v) => v.code)).toEqual(['CAP005']);
      expect(violations[0].message).toContain('refers to fms.example.com/NetworkRuleSet shop/baseline at spec.ruleSetRef');
    });

    test('a field holding a list of { name } objects is checked element by element', () => {
      // GIVEN spec.ruleSetRef [{ name: baseline }, { name: ghost }] and NetworkRuleSet shop/baseline only
      const violations = violationsOf((routing) => {
        policy(routing, [{ name: 'baseline' }, { name: 'ghost' }]);
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline' }, spec: { rules: [] } });
      });

      // THEN the missing ghost dangles, and only it
      expect(coded(violations)).toEqual([
        {
          code: 'CAP005',
          message: refersTo('fms.example.com/FMSPolicy shop/edge', 'cdn/Routing/Policy', 'fms.example.com/NetworkRuleSet shop/ghost', 'spec.ruleSetRef'),
          paths: ['cdn/Routing/Policy'],
        },
      ]);
    });

    test('a field holding a list of names is checked element by element', () => {
      // GIVEN spec.ruleSetRef ['ghost', 'baseline'] and NetworkRuleSet shop/baseline only
      const violations = violationsOf((routing) => {
        policy(routing, ['ghost', 'baseline']);
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline' }, spec: { rules: [] } });
      });

      // THEN the missing ghost dangles, and only it
      expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
        `CAP005 ${refersTo('fms.example.com/FMSPolicy shop/edge', 'cdn/Routing/Policy', 'fms.example.com/NetworkRuleSet shop/ghost', 'spec.ruleSetRef')}`,
      ]);
    });

    test('a field holding a number is CAP010 naming the Reference, the field and the value', () => {
      // GIVEN spec.ruleSetRef 42
      const violations = violationsOf((routing) => policy(routing, 42));

      // THEN the declaration is refused, not skipped
      expect(coded(violations)).toEqual([
        {
          code: 'CAP010',
          message: "invalid object: 'cdn/Routing/PolicyRules' failed its own validation: Reference.byName's 'field' ('spec.ruleSetRef') of fms.example.com/FMSPolicy shop/edge ('cdn/Routing/Policy') holds 42, "
            + "but a field it checks holds a name, an object with name (and optionally namespace), or a list of either. Point 'field' at the field that holds the name.",
          paths: ['cdn/Routing/PolicyRules'],
        },
      ]);
    });

    test('a list holding an element that is no name is CAP010 showing the list', () => {
      // GIVEN spec.ruleSetRef ['baseline', { ref: 'ghost' }]
      const violations = violationsOf((routing) => policy(routing, ['baseline', { ref: 'ghost' }]));

      // THEN the declaration is refused
      expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
        "CAP010 invalid object: 'cdn/Routing/PolicyRules' failed its own validation: Reference.byName's 'field' ('spec.ruleSetRef') of fms.example.com/FMSPolicy shop/edge ('cdn/Routing/Policy') "
          + 'holds ["baseline",{"ref":"ghost"}], but a field it checks holds a name, an object with name (and optionally namespace), or a list of either. Point \'field\' at the field that holds the name.',
      ]);
    });

    test('a field the source does not have (a typo) is CAP010 naming the fields that are there', () => {
      // GIVEN the policy, and a second declaration whose field is spec.rulesetRef
      const violations = violationsOf((routing) => {
        const fms = policy(routing);
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline' }, spec: { rules: [] } });
        Reference.byName(routing, 'Typo', { source: fms, field: 'spec.rulesetRef', target: { apiVersion: FMS, kind: 'NetworkRuleSet' } });
      });

      // THEN the declaration is refused, naming where the path leaves the manifest
      expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
        "CAP010 invalid object: 'cdn/Routing/Typo' failed its own validation: Reference.byName's 'field' ('spec.rulesetRef') is not in the manifest of fms.example.com/FMSPolicy shop/edge ('cdn/Routing/Policy') "
          + "(spec has ruleSetRef). Point 'field' at the field that holds the name.",
      ]);
    });

    test('a ruleSetRef object with name and namespace is looked up in that namespace', () => {
      // GIVEN spec.ruleSetRef { name: baseline, namespace: security } and NetworkRuleSet security/baseline
      const violations = violationsOf((routing) => {
        policy(routing, { name: 'baseline', namespace: 'security' });
        new ApiObject(routing, 'Baseline', { apiVersion: FMS, kind: 'NetworkRuleSet', metadata: { name: 'baseline', namespace: 'security' }, spec: { rules: [] } });
      });

      // THEN nothing dangles
      expect(violations).toEqual([]);
    });
  });
});
