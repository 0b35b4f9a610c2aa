import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Reference, RuntimeRouting } from '../src';
import { newApp, removeTempDirs } from './util';
import { appliedKey, effectiveNamespace, identityOf } from '../src/collect/object-identity';

afterAll(removeTempDirs);

/** The exact CAP001 message, with the note that explains why the declarations are one object. */
const duplicate = (object: string, a: string, b: string, note = '') =>
  `duplicate object: ${object} is declared by '${a}' and '${b}'${note}. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).`;

function fixture(): { app: CapabilityApp; routing: RuntimeRouting } {
  const app = newApp();
  return { app, routing: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** A manifest from kustomize's ResId fields (`Gvk{Group, Version, Kind}`, `Namespace`, `Name`). */
function resId(id: { namespace?: string; group?: string; version?: string; kind?: string; name?: string }): any {
  const apiVersion = id.group ? `${id.group}/${id.version ?? ''}` : id.version ?? '';
  return { apiVersion, kind: id.kind ?? '', metadata: { name: id.name ?? '', ...(id.namespace !== undefined ? { namespace: id.namespace } : {}) } };
}

describe('identity as the API server stores it', () => {
  // Ported from kubernetes-sigs/kustomize kyaml/resid/resid_test.go (TestResIdEquals, the `equals` column)
  // at 12f9e6391464b3ad9dd3fe8182049dc1b1772990: two ids are one object when group, kind, name and
  // effective namespace are equal (the version is part of kustomize's Gvk; no case differs only in it).
  test.each([
    [{ namespace: 'X', group: 'g', version: 'v', kind: 'k', name: 'nm' }, { namespace: 'X', group: 'g', version: 'v', kind: 'k', name: 'nm' }, true],
    [{ namespace: 'X', group: 'g', version: 'v', kind: 'k', name: 'nm' }, { namespace: 'Z', group: 'g', version: 'v', kind: 'k', name: 'nm' }, false],
    [{ namespace: 'X', group: 'g', version: 'v', kind: 'k', name: 'nm' }, { group: 'g', version: 'v', kind: 'k', name: 'nm' }, false],
    [{ namespace: 'X', version: 'v', kind: 'k', name: 'nm' }, { namespace: 'Z', version: 'v', kind: 'k', name: 'nm' }, false],
    [{ namespace: 'X', kind: 'k', name: 'nm' }, { namespace: 'Z', kind: 'k', name: 'nm' }, false],
    [{ kind: 'k', name: 'nm' }, { kind: 'k', name: 'nm2' }, false],
    [{ kind: 'k', name: 'nm' }, { kind: 'Node', name: 'nm' }, false],
    [{ kind: 'Node', name: 'nm1' }, { kind: 'Node', name: 'nm2' }, false],
    [{ namespace: 'default', kind: 'k', name: 'nm1' }, { kind: 'k', name: 'nm2' }, false],
    [{ namespace: 'X', name: 'nm' }, { namespace: 'Z', name: 'nm' }, false],
  ])('kustomize ResId.Equals: %j and %j are one object: %s', (a, b, equals) => {
    // WHEN both are identified
    const same = appliedKey(identityOf(resId(a))) === appliedKey(identityOf(resId(b)));

    // THEN as kustomize decides
    expect(same).toBe(equals);
  });

  // Ported from kubernetes-sigs/kustomize kyaml/resid/resid_test.go (TestEffectiveNamespace) at the same commit;
  // kustomize's TotallyNotANamespace for a cluster-scoped kind is `undefined` here.
  test.each([
    ['tst1', { version: 'v1', kind: 'Node', name: 'nm' }, undefined],
    ['tst2', { namespace: 'foo', version: 'v1', kind: 'Node', name: 'nm' }, undefined],
    ['tst3', { namespace: 'foo', group: 'g', version: 'v', kind: 'k', name: 'nm' }, 'foo'],
    ['tst4', { namespace: '', group: 'g', version: 'v', kind: 'k', name: 'nm' }, 'default'],
    ['tst5', { group: 'g', version: 'v', kind: 'k', name: 'nm' }, 'default'],
  ])('kustomize EffectiveNamespace %s', (_, id, expected) => {
    expect(effectiveNamespace(identityOf(resId(id)))).toBe(expected);
  });

  // kustomize refuses this composition: "may not add resource with an already registered id: ConfigMap.v1.[noGrp]/settings.default"
  test("a ConfigMap without a namespace beside the same one in 'default' is a duplicate (CAP001)", () => {
    // GIVEN ConfigMap settings without a namespace, and one in namespace default
    const { app, routing } = fixture();
    new ApiObject(routing, 'Bare', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
    new ApiObject(routing, 'Default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP001 naming both, with why
    expect(violations).toEqual([
      {
        code: 'CAP001',
        message: duplicate('ConfigMap default/settings', 'shop/Routing/Bare', 'shop/Routing/Default', " (an object without metadata.namespace is applied to namespace 'default')"),
        paths: ['shop/Routing/Bare', 'shop/Routing/Default'],
      },
    ]);
  });

  test('a built-in cluster-scoped kind of the 1.30 API (networking.k8s.io IPAddress) declared in two namespaces is one object', () => {
    // GIVEN IPAddress 10.0.0.1 with two different namespaces in its manifests
    const { app, routing } = fixture();
    new ApiObject(routing, 'A', { apiVersion: 'networking.k8s.io/v1beta1', kind: 'IPAddress', metadata: { name: '10.0.0.1', namespace: 'a' } });
    new ApiObject(routing, 'B', { apiVersion: 'networking.k8s.io/v1beta1', kind: 'IPAddress', metadata: { name: '10.0.0.1', namespace: 'b' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN a duplicate, saying the kind is cluster-scoped
    expect(violations.map((v) => v.message)).toEqual([
      duplicate('networking.k8s.io/IPAddress 10.0.0.1', 'shop/Routing/A', 'shop/Routing/B', " (IPAddress is cluster-scoped: the namespaces 'a' and 'b' its manifests give do not tell its objects apart)"),
    ]);
  });

  test('a custom kind whose CRD in the composition says scope: Cluster, declared in two namespaces, is one object', () => {
    // GIVEN the CRD of widgets.example.com (Cluster) and Widget w1 in namespaces a and b
    const { app, routing } = fixture();
    new ApiObject(routing, 'Crd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Cluster', names: { kind: 'Widget', plural: 'widgets' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
    });
    new ApiObject(routing, 'A', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'a' } });
    new ApiObject(routing, 'B', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'b' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN a duplicate
    expect(violations.map((v) => v.message)).toEqual([
      duplicate('example.com/Widget w1', 'shop/Routing/A', 'shop/Routing/B', " (Widget is cluster-scoped: the namespaces 'a' and 'b' its manifests give do not tell its objects apart)"),
    ]);
  });

  test('a cert-manager ClusterIssuer (CRD outside the composition) declared cluster-scoped with Reference.clusterScoped, in two namespaces, is one object', () => {
    // GIVEN ClusterIssuer letsencrypt in namespaces a and b, and the kind declared cluster-scoped
    const { app, routing } = fixture();
    new ApiObject(routing, 'A', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'letsencrypt', namespace: 'a' }, spec: { acme: {} } });
    new ApiObject(routing, 'B', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'letsencrypt', namespace: 'b' }, spec: { acme: {} } });
    Reference.clusterScoped(routing, 'ClusterIssuers', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer' });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN a duplicate
    expect(violations.map((v) => v.message)).toEqual([
      duplicate('cert-manager.io/ClusterIssuer letsencrypt', 'shop/Routing/A', 'shop/Routing/B', " (ClusterIssuer is cluster-scoped: the namespaces 'a' and 'b' its manifests give do not tell its objects apart)"),
    ]);
  });

  test('Reference.clusterScoped of a built-in namespaced kind is CAP010 naming it, and left out: no false CAP001', () => {
    // GIVEN ConfigMap settings in namespaces team-a and team-b, and ConfigMap declared cluster-scoped
    const { app, routing } = fixture();
    Reference.clusterScoped(routing, 'Oops', { apiVersion: 'v1', kind: 'ConfigMap' });
    new ApiObject(routing, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-a' } });
    new ApiObject(routing, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-b' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the declaration is refused, and the two ConfigMaps stay two objects
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP010 invalid object: \'shop/Routing/Oops\' failed its own validation: Reference.clusterScoped declares "ConfigMap" of "v1" cluster-scoped, '
      + 'but the Kubernetes API makes ConfigMap namespaced, so it is left out: objects of one name in two namespaces stay two objects. Remove the declaration; built-in kinds need none.',
    ]);
  });

  test('Reference.clusterScoped of a kind whose CRD in the composition is Namespaced is CAP010 naming the CRD, and left out', () => {
    // GIVEN the Namespaced CRD of example.com Widget, Widgets w1 in namespaces a and b, and Widget declared cluster-scoped
    const { app, routing } = fixture();
    new ApiObject(routing, 'Crd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
    });
    Reference.clusterScoped(routing, 'Widgets', { apiVersion: 'example.com/v1', kind: 'Widget' });
    new ApiObject(routing, 'A', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'a' } });
    new ApiObject(routing, 'B', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'b' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN the declaration is refused, and the two Widgets stay two objects
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP010 invalid object: \'shop/Routing/Widgets\' failed its own validation: Reference.clusterScoped declares "Widget" of "example.com/v1" cluster-scoped, '
      + 'but its CustomResourceDefinition "widgets.example.com" in the composition gives spec.scope Namespaced, so it is left out: objects of one name in two namespaces stay two objects. '
      + 'Remove the declaration; a CRD in the composition needs none.',
    ]);
  });

  test('without the declaration, a custom kind the composition cannot know is namespaced: two namespaces are two objects', () => {
    // GIVEN the same two ClusterIssuers, the kind not declared
    const { app, routing } = fixture();
    new ApiObject(routing, 'A', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'letsencrypt', namespace: 'a' }, spec: { acme: {} } });
    new ApiObject(routing, 'B', { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'letsencrypt', namespace: 'b' }, spec: { acme: {} } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN accepted: the scope of a kind is the CRD's to say
    expect(violations).toEqual([]);
  });

  test('a namespaced object without a namespace and one in another namespace stay two objects', () => {
    // GIVEN ConfigMap settings without a namespace and in namespace shop
    const { app, routing } = fixture();
    new ApiObject(routing, 'Bare', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
    new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN accepted
    expect(violations).toEqual([]);
  });

  test("a Pod without a namespace reads a ConfigMap declared in 'default': not dangling (CAP005), both are in default", () => {
    // GIVEN Pod web without a namespace mounting ConfigMap settings declared in namespace default
    const { app, routing } = fixture();
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' } });
    new ApiObject(routing, 'Web', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'web', image: 'web' }], volumes: [{ name: 'settings', configMap: { name: 'settings' } }] },
    });

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN accepted
    expect(violations).toEqual([]);
  });
});

describe('a duplicate whose names cdk8s generated alike below two capabilities', () => {
  /** A reusable construct as a team would publish it: routing with a ConfigMap whose name cdk8s generates. */
  function team(app: CapabilityApp, id: string, generatedNames?: 'plain' | 'full-path'): ApiObject {
    const routing = new RuntimeRouting(new Capability(app, id, { generatedNames }), 'Routing');
    return new ApiObject(routing, 'Web', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'web' } });
  }

  test("is CAP001 whose fix is generatedNames: 'full-path' on the capabilities, not a Contribution", () => {
    // GIVEN two capabilities made by one construct, each with an object named by cdk8s
    const app = newApp();
    const a = team(app, 'teamA');
    team(app, 'teamB');

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP001 that says where the name came from and how to tell the two apart
    expect(violations).toEqual([
      {
        code: 'CAP001',
        message: `duplicate object: ConfigMap web/${a.name} is declared by 'teamA/Routing/Web' and 'teamB/Routing/Web'. `
          + "cdk8s generated the name from the construct path below the capability ('Routing/Web'), which is the same in each: "
          + "set generatedNames: 'full-path' on capabilities 'teamA' and 'teamB' (cdk8s then names their objects from the whole construct path, "
          + 'which tells them apart, and renames every object whose name it generates there), or give the objects a metadata.name of their own.',
        paths: ['teamA/Routing/Web', 'teamB/Routing/Web'],
      },
    ]);
  });

  test("with generatedNames: 'full-path' on the capabilities, as the fix says, the two are two objects", () => {
    const app = newApp();
    team(app, 'teamA', 'full-path');
    team(app, 'teamB', 'full-path');

    expect(app.synthesize().violations).toEqual([]);
  });

  test('a name given in metadata.name below two capabilities keeps the Contribution fix', () => {
    // GIVEN one name written by the program in both capabilities
    const app = newApp();
    for (const id of ['teamA', 'teamB']) {
      new ApiObject(new RuntimeRouting(new Capability(app, id), 'Routing'), 'Web', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'web' } });
    }

    // THEN the declarations are one object as written
    expect(app.synthesize().violations.map((v) => v.message)).toEqual([duplicate('ConfigMap web/web', 'teamA/Routing/Web', 'teamB/Routing/Web')]);
  });
});
