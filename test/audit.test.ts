import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as jsyaml from 'js-yaml';
import { appOf, newSeries, removeReleaseDirs, withUpdateLock } from './release-fixtures';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { audit } from '../src/cli/audit';
import { main } from '../src/cli/main';
import { AuditFinding, auditCluster, ExpectedObject } from '../src/cluster/audit';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import { LiveObject, readLiveObjects } from '../src/cluster/live-objects';
import { expectedObjects } from '../src/cluster/object-writers';
import { Lock, writeLock } from '../src/release/lock';
import { textOf } from '../src/render/file-content';

afterAll(removeTempDirs);
afterAll(removeReleaseDirs);

const WEB = 'cdk-capability:cdn/Routing/Web';
const TEAM = 'cdk-capability:cdn/Routing/Team';

/** The lock's view of `ConfigMap shop/settings`: the declarer writes `data.mode`, a contribution `metadata.labels.team`. */
const SETTINGS: ExpectedObject = {
  identity: { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'settings' },
  label: 'ConfigMap shop/settings',
  unitId: 'object:|ConfigMap|shop|settings',
  writers: [
    { writer: 'cdn/Routing/Web', manager: WEB, leaves: [{ path: ['data', 'mode'] }] },
    { writer: 'cdn/Routing/Team', manager: TEAM, leaves: [{ path: ['metadata', 'labels', 'team'] }] },
  ],
};

/** A live ConfigMap with managedFields: each entry a manager, its operation and its leaves. */
function configMap(name: string, entries: Array<[string, 'Apply' | 'Update', string[][], string?]>): any {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'shop',
      labels: { team: 'payments' },
      managedFields: entries.map(([manager, operation, leaves, time]) => ({ manager, operation, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(leaves), ...(time ? { time } : {}) })),
    },
    data: { mode: 'fast' },
  };
}

const live = (...objects: any[]): LiveObject[] => readLiveObjects(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }), 'live.json');
const kinds = (findings: readonly AuditFinding[]) => findings.map((f) => [f.kind, f.object, f.manager, f.writer, f.fields]);

/** Managed as `cdk-capability apply` leaves it: each writer its leaves, the applier all of them. */
const APPLIED: Array<[string, 'Apply' | 'Update', string[][]]> = [
  ['cdk-capability', 'Apply', [['data', 'mode'], ['metadata', 'labels', 'team']]],
  [WEB, 'Apply', [['data', 'mode']]],
  [TEAM, 'Apply', [['metadata', 'labels', 'team']]],
];


/** Runs `cdk-capability audit` on live objects given as kubectl prints a List, against a lock file, with more options. */
function auditList(items: readonly unknown[], lockFile: string, ...options: string[]): { code: number; stdout: string; stderr: string } {
  const input = path.join(tempDir(), 'live.json');
  fs.writeFileSync(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const run = capturingOutput(() => main(['audit', input, '--lock', lockFile, ...options]));
  return { code: run.result, stdout: run.stdout, stderr: run.stderr };
}

describe('auditCluster', () => {
  test('an object as apply leaves it matches; a controller writing through the status subresource is not reported', () => {
    const object = configMap('settings', [...APPLIED, ['kube-controller-manager', 'Update', [['metadata', 'annotations', 'revision']], undefined]]);
    object.metadata.managedFields[3].subresource = 'status';
    expect(auditCluster([SETTINGS], live(object))).toEqual([]);
  });

  test('an object of the lock that is not in the cluster is missing', () => {
    const findings = auditCluster([SETTINGS], live());
    expect(kinds(findings)).toEqual([['missing-object', 'ConfigMap shop/settings', undefined, undefined, []]]);
    expect(findings[0].message).toBe('ConfigMap shop/settings is in the lock but not in the cluster: apply the release (cdk-capability apply), or check that the input holds every object of the release.');
  });

  test('an object a manager of ours wrote, or that carries our labels, and that the lock does not know, is unknown', () => {
    const orphan = configMap('old', [['cdk-capability:cdn/Routing/Old', 'Apply', [['data', 'mode']]]]);
    const labelled = configMap('labelled', [['kubectl', 'Apply', [['data', 'mode']]]]);
    labelled.metadata.labels = { 'app.kubernetes.io/part-of': 'cdn' };
    const foreign = configMap('foreign', [['kubectl', 'Apply', [['data', 'mode']]]]);
    const findings = auditCluster([SETTINGS], live(configMap('settings', APPLIED), orphan, labelled, foreign), { labels: { 'app.kubernetes.io/part-of': 'cdn' } });
    expect(kinds(findings)).toEqual([
      ['unknown-object', 'ConfigMap shop/labelled', undefined, undefined, []],
      ['unknown-object', 'ConfigMap shop/old', 'cdk-capability:cdn/Routing/Old', undefined, []],
    ]);
    expect(findings[1].message).toMatch(/^ConfigMap shop\/old looks like ours \(its field manager 'cdk-capability:cdn\/Routing\/Old' is one of ours\) but the lock does not know it: a release removed it/);
    expect(findings[0].message).toMatch(/\(it carries app\.kubernetes\.io\/part-of=cdn\)/);
  });

  test('a previous writer\'s manager still owning a leaf that moved is a stale owner, naming the writer the lock gives it to', () => {
    const findings = auditCluster([SETTINGS], live(configMap('settings', [...APPLIED, ['cdk-capability:cdn/Routing/Gone', 'Apply', [['data', 'mode']]]])));
    // a manager of ours the lock does not know for this object is not declared for it: it is undeclared here
    expect(kinds(findings)).toEqual([['undeclared-manager', 'ConfigMap shop/settings', 'cdk-capability:cdn/Routing/Gone', undefined, [['data', 'mode']]]]);
    const swapped = auditCluster([SETTINGS], live(configMap('settings', [APPLIED[0], [WEB, 'Apply', [['data', 'mode'], ['metadata', 'labels', 'team']]], APPLIED[2]])));
    expect(kinds(swapped)).toEqual([['stale-owner', 'ConfigMap shop/settings', WEB, 'cdn/Routing/Team', [['metadata', 'labels', 'team']]]]);
    expect(swapped[0].message).toMatch(/^ConfigMap shop\/settings: 'cdk-capability:cdn\/Routing\/Web' \(Apply\) still owns metadata\.labels\.team, which the lock gives to 'cdn\/Routing\/Team': a handover or removal whose release did not run\./);
  });

  test('a leaf the writer\'s manager lost while the applier holds it: unowned (an apply stopped inside a step)', () => {
    const findings = auditCluster([SETTINGS], live(configMap('settings', [APPLIED[0], APPLIED[1]])));
    expect(kinds(findings)).toEqual([['unowned', 'ConfigMap shop/settings', 'cdk-capability', 'cdn/Routing/Team', [['metadata', 'labels', 'team']]]]);
    expect(findings[0].message).toMatch(/owned by 'cdk-capability' only, not by the writer's manager: its apply did not run/);
  });

  test('applied by a GitOps engine with one manager: that manager stands for every writer', () => {
    const flux: Array<[string, 'Apply' | 'Update', string[][]]> = [['kustomize-controller', 'Apply', [['data', 'mode'], ['metadata', 'labels', 'team']]]];
    expect(auditCluster([SETTINGS], live(configMap('settings', flux)), { appliedBy: 'kustomize-controller' })).toEqual([]);
    expect(kinds(auditCluster([SETTINGS], live(configMap('settings', flux))))).toEqual([
      ['taken-over', 'ConfigMap shop/settings', 'kustomize-controller', 'cdn/Routing/Team', [['metadata', 'labels', 'team']]],
      ['taken-over', 'ConfigMap shop/settings', 'kustomize-controller', 'cdn/Routing/Web', [['data', 'mode']]],
    ]);
  });

  test('applied by a GitOps engine, a finding tells to let the engine apply the release again, not cdk-capability apply', () => {
    // GIVEN Flux applied data.mode, and nothing owns metadata.labels.team (its apply did not run); another object is missing
    const flux: Array<[string, 'Apply' | 'Update', string[][]]> = [['kustomize-controller', 'Apply', [['data', 'mode']]]];
    const other: ExpectedObject = { ...SETTINGS, identity: { ...SETTINGS.identity, name: 'other' }, label: 'ConfigMap shop/other', unitId: 'object:|ConfigMap|shop|other' };

    // WHEN audited with --applied-by
    const findings = auditCluster([SETTINGS, other], live(configMap('settings', flux)), { appliedBy: 'kustomize-controller' });

    // THEN
    const again = 'Let kustomize-controller apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it), not cdk-capability apply.';
    expect(findings.map((f) => [f.kind, f.message])).toEqual([
      ['missing-object', 'ConfigMap shop/other is in the lock but not in the cluster: let kustomize-controller apply the release (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it), or check that the input holds every object of the release.'],
      ['unowned', `ConfigMap shop/settings: metadata.labels.team of 'cdn/Routing/Team' (field manager kustomize-controller) is in the object but owned by nobody, not by the writer's manager: its apply did not run (an apply stopped inside a step). ${again}`],
    ]);
  });

  test('an ignored manager is left out', () => {
    const object = configMap('settings', [...APPLIED, ['vpa-recommender', 'Update', [['data', 'hint']]]]);
    expect(kinds(auditCluster([SETTINGS], live(object)))).toEqual([['undeclared-manager', 'ConfigMap shop/settings', 'vpa-recommender', undefined, [['data', 'hint']]]]);
    expect(auditCluster([SETTINGS], live(object), { ignoreManagers: ['vpa-recommender'] })).toEqual([]);
  });

  test('an object declared without a namespace is found cluster-scoped, or in default', () => {
    const unnamespaced = { ...SETTINGS, identity: { ...SETTINGS.identity, namespace: '' }, label: 'ConfigMap settings' };
    const inDefault = configMap('settings', APPLIED);
    inDefault.metadata.namespace = 'default';
    expect(auditCluster([unnamespaced], live(inDefault))).toEqual([]);
  });

  test('a runtime writer declared without a manager: its leaves are not checked, and whoever writes them is not undeclared', () => {
    const withRuntime: ExpectedObject = { ...SETTINGS, writers: [...SETTINGS.writers, { writer: 'cdn/Routing/NetOp', leaves: [{ path: ['data', 'routes'] }], runtime: true }] };
    expect(auditCluster([withRuntime], live(configMap('settings', [...APPLIED, ['netop', 'Update', [['data', 'routes']]]])))).toEqual([]);
  });

  describe('a runtime writer with its manager, of a leaf its controller writes whole (a set, a map)', () => {
    /** NetOp writes the set `metadata.finalizers` under its manager `netop`. */
    const withNetOp: ExpectedObject = {
      ...SETTINGS,
      writers: [...SETTINGS.writers, { writer: 'cdn/Routing/NetOp (RuntimeWriter)', manager: 'netop', leaves: [{ path: ['metadata', 'finalizers'] }], runtime: true }],
    };

    test('its values, owned by its manager, are its own: no finding, and its manager is no undeclared one', () => {
      const object = configMap('settings', [...APPLIED, ['netop', 'Apply', [['metadata', 'finalizers', 'v:"netop.example.com/a"'], ['metadata', 'finalizers', 'v:"netop.example.com/b"']]]]);
      expect(auditCluster([withNetOp], live(object))).toEqual([]);
    });

    test('a value of it owned by another manager alone is overwritten, naming the runtime writer, once', () => {
      const object = configMap('settings', [...APPLIED, ['kubectl-edit', 'Update', [['metadata', 'finalizers', 'v:"someone.example.com/x"']], '2026-12-03T10:00:00Z']]);
      const findings = auditCluster([withNetOp], live(object));
      expect(kinds(findings)).toEqual([['overwritten-by-update', 'ConfigMap shop/settings', 'kubectl-edit', 'cdn/Routing/NetOp (RuntimeWriter)', [['metadata', 'finalizers']]]]);
      expect(findings[0].writerManager).toBe('netop');
    });

    test('its controller\'s update that strips another writer\'s leaf: stripped, naming the runtime writer whose manager updated', () => {
      const object = configMap('settings', [APPLIED[0], APPLIED[1], ['netop', 'Update', [['metadata', 'finalizers', 'v:"netop.example.com/a"']], '2026-12-03T10:00:00Z']]);
      delete object.metadata.labels;
      object.metadata.managedFields[0].fieldsV1 = toFieldsV1([['data', 'mode']]);
      const findings = auditCluster([withNetOp], live(object));
      expect(kinds(findings)).toEqual([['stripped', 'ConfigMap shop/settings', 'netop', 'cdn/Routing/Team', [['metadata', 'labels', 'team']]]]);
      expect(findings[0].message).toBe(
        "ConfigMap shop/settings: metadata.labels.team of 'cdn/Routing/Team' (field manager cdk-capability:cdn/Routing/Team) is gone and owned by nobody: a full-object update that did not carry it dropped it; the latest update is by 'netop' (Update at 2026-12-03T10:00:00Z), the field manager of the runtime writer 'cdn/Routing/NetOp (RuntimeWriter)', which may change only its own fields. Make that controller send only its own fields (server-side apply, or a patch), and apply the release again to restore it. Set CapabilityApp's enforce so the admission policy refuses such an update.",
      );
    });
  });
});

describe('advice that works when followed', () => {
  const T = '2026-12-03T10:00:04Z';
  const NETOP = 'cdn/Routing/NetOp (RuntimeWriter)';
  /** The lock's view of `ConfigMap shop/settings` with NetOp, a runtime writer of `data.routes` under its manager `netop`. */
  const WITH_NETOP: ExpectedObject = { ...SETTINGS, writers: [...SETTINGS.writers, { writer: NETOP, manager: 'netop', leaves: [{ path: ['data', 'routes'] }], runtime: true }] };
  /** The object, its data.routes set, managed as `entries` say. */
  const settings = (entries: Array<[string, 'Apply' | 'Update', string[][], string?]>) => {
    const object = configMap('settings', entries);
    object.data.routes = 'a.example.com';
    return object;
  };
  /** APPLIED with data.mode taken away from the applier and Web: another manager holds it now. */
  const modeTaken = (entry: [string, 'Apply' | 'Update', string[][], string?]) =>
    settings([['cdk-capability', 'Apply', [['metadata', 'labels', 'team']]], APPLIED[2], ['netop', 'Apply', [['data', 'routes']]], entry]);

  test("a runtime writer's manager updating a field outside its fields is named as that RuntimeWriter, with the fix: add the field to its fields, or stop the controller", () => {
    // GIVEN NetOp's manager, by a full-object update, owning data.mode, the declarer's
    const findings = auditCluster([WITH_NETOP], live(modeTaken(['netop', 'Update', [['data', 'mode']], T])));

    // THEN
    expect(kinds(findings)).toEqual([['overwritten-by-update', 'ConfigMap shop/settings', 'netop', 'cdn/Routing/Web', [['data', 'mode']]]]);
    expect(findings[0].message).toBe(
      `ConfigMap shop/settings: data.mode of 'cdn/Routing/Web' (field manager ${WEB}) is now owned by 'netop' (Update at ${T}), the field manager of the runtime writer '${NETOP}', ` +
        'whose update changed it, outside its fields (data.routes). ' +
        "If its controller owns it, add it to that RuntimeWriter's fields and take it out of 'cdn/Routing/Web' (synth refuses two writers of one field); " +
        'else make the controller write only its own fields (server-side apply, or a patch) and apply the release again to restore it. ' +
        "Set CapabilityApp's enforce so the admission policy refuses such an update.",
    );
  });

  test("a runtime writer's manager taking a field outside its fields by a forced apply is named the same way", () => {
    const findings = auditCluster([WITH_NETOP], live(modeTaken(['netop', 'Apply', [['data', 'mode']], T])));
    expect(kinds(findings)).toEqual([['taken-over', 'ConfigMap shop/settings', 'netop', 'cdn/Routing/Web', [['data', 'mode']]]]);
    expect(findings[0].message).toMatch(
      new RegExp(`^ConfigMap shop/settings: data\\.mode of 'cdn/Routing/Web' \\(field manager ${WEB}\\) is owned by 'netop' \\(Apply at ${T}\\) alone, the field manager of the runtime writer 'cdn/Routing/NetOp \\(RuntimeWriter\\)', whose apply took it over \\(--force-conflicts\\), outside its fields \\(data\\.routes\\)\\. If its controller owns it, add it`),
    );
  });

  test("a runtime writer's manager sharing a deploy-time field by apply: its controller must stop sending it, since applying the release changes nothing", () => {
    // GIVEN NetOp's manager applying data.mode with the release's value: shared with the declarer's
    const findings = auditCluster([WITH_NETOP], live(settings([...APPLIED, ['netop', 'Apply', [['data', 'routes'], ['data', 'mode']], T]])));

    expect(kinds(findings)).toEqual([['stale-owner', 'ConfigMap shop/settings', 'netop', 'cdn/Routing/Web', [['data', 'mode']]]]);
    expect(findings[0].message).toBe(
      `ConfigMap shop/settings: 'netop' (Apply at ${T}), the field manager of the runtime writer '${NETOP}', also owns data.mode, outside its fields (data.routes), which the lock gives to 'cdn/Routing/Web': ` +
        'its controller writes it, and applying the release changes nothing while it does. Make the controller send only its own fields (its next server-side apply without it releases it, and removes it from the object where no other manager owns it); ' +
        "or, if its controller owns it, add it to that RuntimeWriter's fields and take it out of 'cdn/Routing/Web' (synth refuses two writers of one field).",
    );
  });

  test("a manager of ours alone owning a runtime writer's field is stale-owner, as docs/cluster.md's table has it, with the hand-over to do first", () => {
    // GIVEN Web's manager still holding data.routes, which the lock gives to NetOp, whose controller has not written it
    const findings = auditCluster([WITH_NETOP], live(settings([APPLIED[0], [WEB, 'Apply', [['data', 'mode'], ['data', 'routes']], T], APPLIED[2]])));

    expect(kinds(findings)).toEqual([['stale-owner', 'ConfigMap shop/settings', WEB, NETOP, [['data', 'routes']]]]);
    expect(findings[0].message).toBe(
      `ConfigMap shop/settings: '${WEB}' (Apply at ${T}) still owns data.routes, which the lock gives to the runtime writer '${NETOP}' (field manager netop): a hand-over to its controller whose apply did not run. ` +
        "Hand it over first: apply the object's identity with it at its live value under the controller's manager (kubectl apply --server-side --field-manager=netop); " +
        'then run cdk-capability apply again, whose applies release it (without the hand-over the release would remove it until the controller writes it again).',
    );
  });

  test("a runtime writer's field another client updated: stop that client and let the controller write it again; applying the release restores nothing", () => {
    const object = settings([...APPLIED, ['kubectl-edit', 'Update', [['data', 'routes']], T]]);
    const findings = auditCluster([WITH_NETOP], live(object));

    expect(kinds(findings)).toEqual([['overwritten-by-update', 'ConfigMap shop/settings', 'kubectl-edit', NETOP, [['data', 'routes']]]]);
    expect(findings[0].message).toBe(
      `ConfigMap shop/settings: data.routes of '${NETOP}' (field manager netop) is now owned by 'kubectl-edit' (Update at ${T}), whose update changed it (a kubectl edit, or a controller's full-object Update()): ` +
        "the runtime writer's controller no longer owns it. Stop that client writing it, and let the runtime writer's controller write it again: the release never writes a runtime writer's field, " +
        'so applying it restores nothing (a controller that applies server-side takes it back only with force). ' +
        `If that client is the one that writes it, declare it as the RuntimeWriter of it in place of '${NETOP}'.`,
    );
  });

  test("a runtime writer's field another client took by a forced apply: the same advice, never 'apply the release again'", () => {
    const findings = auditCluster([WITH_NETOP], live(settings([...APPLIED, ['helm', 'Apply', [['data', 'routes']], T]])));

    expect(kinds(findings)).toEqual([['taken-over', 'ConfigMap shop/settings', 'helm', NETOP, [['data', 'routes']]]]);
    expect(findings[0].message).toBe(
      `ConfigMap shop/settings: data.routes of '${NETOP}' (field manager netop) is owned by 'helm' (Apply at ${T}) alone: an apply took it over from the runtime writer's controller (--force-conflicts). ` +
        "Stop that client applying it, and let the runtime writer's controller write it again: the release never writes a runtime writer's field, " +
        'so applying it restores nothing (a controller that applies server-side takes it back only with force). ' +
        `If that client is the one that writes it, declare it as the RuntimeWriter of it in place of '${NETOP}'.`,
    );
    expect(findings[0].message).not.toMatch(/apply the release again/);
  });

  test('a field owned by a GitOps engine\'s manager, audited without --applied-by: the hint to pass it', () => {
    const flux: Array<[string, 'Apply' | 'Update', string[][], string?]> = [['kustomize-controller', 'Apply', [['data', 'mode'], ['metadata', 'labels', 'team']], T]];
    const findings = auditCluster([SETTINGS], live(configMap('settings', flux)));

    expect(findings.map((f) => f.message)).toEqual([
      // gitops3: no longer "an apply took it over": the engine applied the release, or applied the one before a switch
      `ConfigMap shop/settings: metadata.labels.team of 'cdn/Routing/Team' (field manager ${TEAM}) is owned by 'kustomize-controller' (Apply at ${T}) alone. ` +
        "If kustomize-controller applied the release (a GitOps engine applies every writer's fields under its one manager), audit with --applied-by kustomize-controller; " +
        "else this is the previous engine's (Flux's kustomize-controller) entry, and the release switched to cdk-capability apply, which has not applied it yet (it would own it too). " +
        'First run cdk-capability apply; then release the old entry: kubectl apply --server-side --field-manager=kustomize-controller -f <outdir>/audit/objects.list, ' +
        "which applies each object's identity alone under kustomize-controller. Not before: released now, it would leave the object, as no other manager owns it.",
      expect.stringMatching(/^ConfigMap shop\/settings: data\.mode of 'cdn\/Routing\/Web' .* audit with --applied-by kustomize-controller; else this is the previous engine's/),
    ]);
    // Argo CD's manager too; a manager that is no GitOps engine's gets no such hint
    const argo = auditCluster([SETTINGS], live(configMap('settings', [['argocd-application-controller', 'Apply', [['data', 'mode'], ['metadata', 'labels', 'team']]]])));
    expect(argo[0].message).toMatch(/ audit with --applied-by argocd-application-controller; else this is the previous engine's \(Argo CD's argocd-application-controller\) entry/);
    const helm = auditCluster([SETTINGS], live(configMap('settings', [['helm', 'Apply', [['data', 'mode'], ['metadata', 'labels', 'team']]]])));
    expect(helm[0].message).not.toMatch(/--applied-by/);
  });

  describe("a runtime writer's update that stripped a field, with the release's admission policies in the lock (enforce set)", () => {
    /** The lock's policy and binding of the release, each an object applied whole. */
    const POLICY: ExpectedObject = { identity: { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', namespace: '', name: 'cdn.field-owners.configmaps' }, label: 'admissionregistration.k8s.io/ValidatingAdmissionPolicy cdn.field-owners.configmaps', writers: [], whole: true };
    const BINDING: ExpectedObject = { ...POLICY, identity: { ...POLICY.identity, kind: 'ValidatingAdmissionPolicyBinding' }, label: 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding cdn.field-owners.configmaps', whole: true };
    const policyObject = (kind: string, spec: object) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: { name: 'cdn.field-owners.configmaps', managedFields: [{ manager: 'cdk-capability', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] },
      spec,
    });
    /** data.mode dropped by NetOp's full-object update. */
    const stripped = () => {
      const object = settings([['cdk-capability', 'Apply', [['metadata', 'labels', 'team']]], APPLIED[2], ['netop', 'Update', [['data', 'routes']], T]]);
      delete object.data.mode;
      return object;
    };
    const strippedMessage = (policies: any[]) => auditCluster([WITH_NETOP, POLICY, BINDING], live(stripped(), ...policies)).find((f) => f.kind === 'stripped')!.message;
    const start =
      `ConfigMap shop/settings: data.mode of 'cdn/Routing/Web' (field manager ${WEB}) is gone and owned by nobody: a full-object update that did not carry it dropped it; ` +
      `the latest update is by 'netop' (Update at ${T}), the field manager of the runtime writer '${NETOP}', which may change only its own fields. ` +
      'Make that controller send only its own fields (server-side apply, or a patch), and apply the release again to restore it. ';

    test('a binding that does not deny: says so, never "set CapabilityApp\'s enforce"', () => {
      const message = strippedMessage([policyObject('ValidatingAdmissionPolicy', {}), policyObject('ValidatingAdmissionPolicyBinding', { validationActions: ['Warn', 'Audit'] })]);
      expect(message).toBe(
        `${start}The release's admission policy does not refuse such an update: admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding cdn.field-owners.configmaps has validationActions ["Warn","Audit"], without Deny. ` +
          "Set CapabilityApp's enforce.validationActions to ['Deny'].",
      );
    });

    test('a policy not in the cluster: says which', () => {
      const message = strippedMessage([policyObject('ValidatingAdmissionPolicy', {})]);
      expect(message).toBe(
        `${start}The release's admission policy, which refuses such an update, is not in the cluster (admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding cdn.field-owners.configmaps: missing-object): apply the release.`,
      );
    });

    test('both there and denying: the update came before them, or the controller is not who the RuntimeWriter declares', () => {
      const message = strippedMessage([policyObject('ValidatingAdmissionPolicy', {}), policyObject('ValidatingAdmissionPolicyBinding', { validationActions: ['Deny'] })]);
      expect(message).toBe(
        `${start}The release's admission policy is in the cluster with Deny, yet let it through: the update came before the policy, or the controller does not run as the RuntimeWriter's identity.`,
      );
    });
  });
});

describe('the field-ownership policies of a release with enforce', () => {
  const DEPLOYER = 'system:serviceaccount:flux-system:kustomize-controller';

  /** A release with enforce: `ConfigMap shop/settings`, whose label `zone` a controller writes; its lock as written to a file. */
  function enforcedRelease(): { lock: Lock; lockFile: string; policies: any[]; settings: any } {
    const dir = tempDir('audit-policies-');
    const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'none.json'), enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const settings = new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'fast' } });
    new RuntimeWriter(routing, 'Zoner', { target: settings, fields: ['metadata.labels.zone'], identity: 'system:serviceaccount:zones:zoner', manager: 'zoner' });
    const result = app.synthesize();
    expect(result.violations).toEqual([]);
    const lockFile = path.join(dir, 'capability.lock.json');
    writeLock(lockFile, result.lock!);
    const manifests = jsyaml.loadAll(textOf(result.output!.files.get('runtime/0000-field-ownership.yaml')!)) as any[];
    // as the cluster prints them after `cdk-capability apply`: the applier owns each policy whole
    const policies = manifests.map((m) => ({ ...m, metadata: { ...m.metadata, managedFields: [{ manager: 'cdk-capability', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] } }));
    const object = configMap('settings', [['cdk-capability', 'Apply', [['data', 'mode']]], ['cdk-capability:shop/Routing/Settings', 'Apply', [['data', 'mode']]]]);
    delete object.metadata.labels;
    return { lock: JSON.parse(fs.readFileSync(lockFile, 'utf-8')), lockFile, policies, settings: object };
  }

  const release = enforcedRelease();
  const LIVE_POLICY = (name: string, kind = 'ValidatingAdmissionPolicy') => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name, managedFields: [{ manager: 'cdk-capability', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] },
    spec: {},
  });

  test('the lock records each policy and binding by kind and name', () => {
    expect(release.lock.fieldOwnershipPolicies).toEqual([
      { kind: 'ValidatingAdmissionPolicy', name: 'shop.field-owners.configmaps' },
      { kind: 'ValidatingAdmissionPolicyBinding', name: 'shop.field-owners.configmaps' },
    ]);
  });

  test('a cluster that matches the release, its policies included, has no finding: exit 0', () => {
    // WHEN the release's objects, its policies included, are audited
    const run = auditList([release.settings, ...release.policies], release.lockFile);

    // THEN
    expect(run).toEqual({
      code: 0,
      stdout: `cdk-capability audit: the cluster matches ${release.lockFile} (3 objects compared).\n`,
      stderr: '',
    });
  });

  test('a policy of a removed release is still an unknown object, and a policy of the release not in the cluster is missing', () => {
    // GIVEN the release's binding gone, and a policy a removed release left behind
    const input = live(release.settings, release.policies[0], LIVE_POLICY('shop.field-owners-2.configmaps'));

    // WHEN
    const findings = auditCluster(expectedObjects(release.lock), input);

    // THEN
    expect(kinds(findings)).toEqual([
      ['unknown-object', 'admissionregistration.k8s.io/ValidatingAdmissionPolicy shop.field-owners-2.configmaps', 'cdk-capability', undefined, []],
      ['missing-object', 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding shop.field-owners.configmaps', undefined, undefined, []],
    ]);
  });

  test('each policy and binding carries cdk-capability.io/field-ownership with the capabilities\' ids, to read them by', () => {
    expect(release.policies.map((p) => [p.kind, p.metadata.name, p.metadata.labels])).toEqual([
      ['ValidatingAdmissionPolicy', 'shop.field-owners.configmaps', { 'cdk-capability.io/field-ownership': 'shop' }],
      ['ValidatingAdmissionPolicyBinding', 'shop.field-owners.configmaps', { 'cdk-capability.io/field-ownership': 'shop' }],
    ]);
  });

  test('a policy of the release missing from the cluster is found on its unit in the lock', () => {
    // WHEN the binding is not in the cluster
    const run = auditList([release.settings, release.policies[0]], release.lockFile, '--json');

    // THEN the finding names the binding's unit, so SARIF and annotations point at its line of the lock
    const binding = 'object:admissionregistration.k8s.io|ValidatingAdmissionPolicyBinding||shop.field-owners.configmaps';
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).findings.map((f: any) => [f.kind, f.unitId])).toEqual([['missing-object', binding]]);
    const github = auditList([release.settings, release.policies[0]], release.lockFile, '--format', 'github');
    const line = fs.readFileSync(release.lockFile, 'utf-8').split('\n').findIndex((l) => l.includes(`"id": ${JSON.stringify(binding)}`)) + 1;
    expect(line).toBeGreaterThan(1);
    expect(github.stdout).toMatch(new RegExp(`^::error file=[^,]+,line=${line},title=cdk-capability audit%3A object missing::missing-object: `));
  });

  test('after a release without enforce, the policies a GitOps engine left, read by their label, are unknown objects', () => {
    // GIVEN the lock of the next release, enforce removed, and the cluster as Flux left it
    const dir = path.dirname(release.lockFile);
    const app = new CapabilityApp({ outdir: path.join(dir, 'dist-2'), lockFile: path.join(dir, 'none.json') });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'fast' } });
    const next = path.join(dir, 'next.lock.json');
    writeLock(next, app.synthesize().lock!);
    const flux = [{ manager: 'kustomize-controller', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }];
    const settings = configMap('settings', [['kustomize-controller', 'Apply', [['data', 'mode']]]]);
    delete settings.metadata.labels;
    const left = release.policies.map((p) => ({ ...p, metadata: { ...p.metadata, managedFields: flux } }));

    // WHEN `kubectl get validatingadmissionpolicies,validatingadmissionpolicybindings -l cdk-capability.io/field-ownership=shop` is audited too
    const run = auditList([settings, ...left], next, '--applied-by', 'kustomize-controller', '--label', 'cdk-capability.io/field-ownership=shop');

    // THEN
    const unknown = (kind: string) =>
      `unknown-object: admissionregistration.k8s.io/${kind} shop.field-owners.configmaps looks like ours (it carries cdk-capability.io/field-ownership=shop) but the lock does not know it: `
      + 'a release removed it and nothing deleted it (cdk-capability plan --teardown prints how), or it was applied from another composition.';
    expect(run).toEqual({
      code: 2,
      stdout: [unknown('ValidatingAdmissionPolicy'), '', unknown('ValidatingAdmissionPolicyBinding'), '', `cdk-capability audit: 2 differences between the cluster and ${next} (1 object compared).`, ''].join('\n'),
      stderr: '',
    });
  });

  test('a lock that records only policies still records no writers: exit 1', () => {
    const bare = path.join(path.dirname(release.lockFile), 'bare.lock.json');
    writeLock(bare, { ...release.lock, units: release.lock.units.map(({ writers: _writers, ...u }) => u) });
    const run = auditList(release.policies, bare);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/records no writers of runtime objects/);
  });
});

describe('cdk-capability audit of an empty composition', () => {
  test('a lock with no object expects nothing: an empty cluster matches it (exit 0)', () => {
    // GIVEN the lock of a CapabilityApp with nothing in it, and kubectl's empty List
    const series = newSeries();
    withUpdateLock('1', () => appOf(series).synth());

    // WHEN audit compares them
    const run = auditList([], series.lockFile);

    // THEN the cluster matches: there is nothing to compare, which is no error
    expect(run).toEqual({
      code: 0,
      stdout: `cdk-capability audit: the cluster matches ${series.lockFile} (0 objects compared).\n`,
      stderr: '',
    });
  });

  test('an object a manager of ours wrote is still unknown to it (exit 2)', () => {
    const series = newSeries();
    withUpdateLock('1', () => appOf(series).synth());

    const run = auditList([configMap('left', APPLIED)], series.lockFile, '--json');

    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).findings.map((f: AuditFinding) => [f.kind, f.object])).toEqual([['unknown-object', 'ConfigMap shop/left']]);
  });
});

describe('cdk-capability audit of input with no object', () => {
  /** A release of ConfigMap shop/cfg, its lock written. */
  function release(): string {
    const series = newSeries();
    withUpdateLock('1', () => {
      const app = appOf(series);
      new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { a: '1' } });
      app.synth();
    });
    return series.lockFile;
  }

  test('an empty stdin is CAP017, exit 1, not a missing-object finding for each object: what a kubectl get that failed, or found nothing with --ignore-not-found, leaves', () => {
    const lockFile = release();
    const run = capturingOutput(() => audit(['--lock', lockFile], () => ''));
    expect(run).toEqual({
      result: 1,
      stdout: '',
      stderr:
        'CAP017 live objects: stdin is empty: there is no object to compare with the lock. kubectl get prints nothing on stdout when it fails (its error is on stderr), ' +
        "and with --ignore-not-found nothing when it finds none of the objects: see kubectl's error, or apply the release first; " +
        'a cluster without the objects is an empty List ({"kind":"List","items":[]})\n',
    });
  });

  test('null is CAP017, exit 1', () => {
    const lockFile = release();
    const run = capturingOutput(() => audit(['--lock', lockFile], () => 'null\n'));
    expect(run).toEqual({
      result: 1,
      stdout: '',
      stderr: 'CAP017 live objects: stdin holds null, not objects: give the objects as kubectl get -o json --show-managed-fields prints them (a List, an object, or one object per YAML or JSON document)\n',
    });
  });

  test('[] is an empty List: a cluster without the objects, each one missing (exit 2)', () => {
    const lockFile = release();
    const run = capturingOutput(() => audit(['--lock', lockFile, '--json'], () => '[]'));
    expect(run.result).toBe(2);
    expect(JSON.parse(run.stdout).findings.map((f: AuditFinding) => [f.kind, f.object])).toEqual([['missing-object', 'ConfigMap shop/cfg']]);
  });

  test('an input without any object says so under the summary: more likely the wrong cluster than every object gone', () => {
    const lockFile = release();
    const run = capturingOutput(() => audit(['--lock', lockFile], () => '{"apiVersion":"v1","kind":"List","items":[]}'));
    expect(run.result).toBe(2);
    expect(run.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      `cdk-capability audit: 1 difference between the cluster and ${lockFile} (1 object compared).`,
      'The input holds no object at all: check that it was read from the cluster the release is applied to (the kubectl context), with the documented command (docs/cluster.md).',
    ]);
  });
});

describe('cdk-capability audit with a lock it cannot read: CAP014, with advice that works for audit', () => {
  const recover = (file: string) =>
    `Restore the lock of the release that was applied from version control (git checkout -- ${file}), or correct it (docs/lock.md): audit compares the cluster with that lock, and cannot run without it.`;

  test('a lock that is not JSON is one CAP014 line, exit 1, and never says to delete the lock', () => {
    // GIVEN a lock cut short
    const lockFile = path.join(tempDir(), 'capability.lock.json');
    fs.writeFileSync(lockFile, '{bad');

    // WHEN audit reads it
    const run = auditList([], lockFile);

    // THEN
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `CAP014 lock file: '${lockFile}' is not valid JSON (Expected property name or '}' in JSON at position 1). ${recover(lockFile)}\n`,
    });
    expect(run.stderr).not.toMatch(/delete/);
  });

  test('a lock that fails its schema is one CAP014 line per problem, with its JSON pointer', () => {
    // GIVEN a lock whose first writer's manager is a number
    const series = newSeries();
    withUpdateLock('1', () => {
      const app = appOf(series);
      new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' } });
      app.synth();
    });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    const unit = lock.units.findIndex((u: any) => u.writers);
    lock.units[unit].writers[0].manager = 5;
    fs.writeFileSync(series.lockFile, JSON.stringify(lock));

    // WHEN
    const run = auditList([], series.lockFile);

    // THEN
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `CAP014 lock file: '${series.lockFile}' is not a cdk-capability lock: /units/${unit}/writers/0/manager (5) must be a string. ${recover(series.lockFile)}\n`,
    });
  });

  test('a lock whose runtime writer records a field that is no field path is one CAP014 naming the writer, the field and why', () => {
    // GIVEN a lock whose runtime writer's field was hand-edited to a path cut short
    const series = newSeries();
    withUpdateLock('1', () => {
      const app = appOf(series);
      const cfg = new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cfg', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' } });
      new RuntimeWriter(cfg.chart, 'Zoner', { target: cfg, fields: ['data.zone'], identity: 'system:serviceaccount:zones:zoner', manager: 'zoner' });
      app.synth();
    });
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    lock.runtimeWriters[0].fields = ['spec[name='];
    fs.writeFileSync(series.lockFile, JSON.stringify(lock));

    // WHEN
    const run = auditList([], series.lockFile);

    // THEN
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `CAP014 lock file: '${series.lockFile}' is not a cdk-capability lock: /runtimeWriters/0/fields/0 ("spec[name=") of the runtime writer 'shop/Routing/Zoner' must be a field path such as spec.replicas: expected a value (quote it as a JSON string when it is empty or holds "," or "]") at the end of the path. ${recover(series.lockFile)}\n`,
    });
  });
});

describe("a runtime writer's spec.replicas written through the scale subresource by a manager it does not declare", () => {
  const AUTOSCALER = 'web/Routing/Autoscaler (RuntimeWriter)';
  const DERIVED = 'cdk-capability-runtime:web/Routing/Autoscaler';
  const T = '2026-12-06T07:05:00Z';
  /** The lock's view of Deployment web/api: the declarer writes the image, the autoscaler (declared without manager) the replicas. */
  const API: ExpectedObject = {
    identity: { group: 'apps', kind: 'Deployment', namespace: 'web', name: 'api' },
    label: 'apps/Deployment web/api',
    unitId: 'object:apps|Deployment|web|api',
    writers: [
      { writer: 'web/Routing/Api', manager: 'cdk-capability:web/Routing/Api', leaves: [{ path: ['spec', 'minReadySeconds'] }] },
      { writer: AUTOSCALER, manager: DERIVED, leaves: [{ path: ['spec', 'replicas'] }], runtime: true },
    ],
  };
  const scaledBy = (manager: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'api',
      namespace: 'web',
      managedFields: [
        { manager: 'cdk-capability', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['spec', 'minReadySeconds']]) },
        { manager: 'cdk-capability:web/Routing/Api', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['spec', 'minReadySeconds']]) },
        { manager, operation: 'Update', time: T, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['spec', 'replicas']]), subresource: 'scale' },
      ],
    },
    spec: { minReadySeconds: 0, replicas: 5 },
  });

  test('by kube-controller-manager: says it is the HorizontalPodAutoscaler, and to declare the RuntimeWriter with that manager', () => {
    const findings = auditCluster([API], live(scaledBy('kube-controller-manager')));
    expect(kinds(findings)).toEqual([['overwritten-by-update', 'apps/Deployment web/api', 'kube-controller-manager', AUTOSCALER, [['spec', 'replicas']]]]);
    expect(findings[0].message).toBe(
      `apps/Deployment web/api: spec.replicas of '${AUTOSCALER}' (field manager ${DERIVED}) is now owned by 'kube-controller-manager' (Update at ${T}), ` +
        'the HorizontalPodAutoscaler controller, which runs in kube-controller-manager and writes the replicas through the scale subresource under that field manager; ' +
        `the RuntimeWriter does not declare that manager. If it is the autoscaler '${AUTOSCALER}' stands for, declare the RuntimeWriter with manager: 'kube-controller-manager', ` +
        'so the lock names the manager its controller writes under; else stop that client scaling the workload.',
    );
  });

  test('by another manager: says it wrote through the scale subresource, and to declare that manager or stop the client', () => {
    const findings = auditCluster([API], live(scaledBy('kubectl')));
    expect(findings[0].message).toBe(
      `apps/Deployment web/api: spec.replicas of '${AUTOSCALER}' (field manager ${DERIVED}) is now owned by 'kubectl' (Update at ${T}), ` +
        'a write through the scale subresource (an autoscaler, or kubectl scale); ' +
        `the RuntimeWriter does not declare that manager. If it is the autoscaler '${AUTOSCALER}' stands for, declare the RuntimeWriter with manager: 'kubectl', ` +
        'so the lock names the manager its controller writes under; else stop that client scaling the workload.',
    );
  });
});

describe('cdk-capability audit usage errors', () => {
  test('an unknown option is named with balanced quotes, with how to name an input file that starts with -', () => {
    const run = capturingOutput(() => main(['audit', '--formt', 'x']));
    expect(run.result).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      "cdk-capability audit: Unknown option '--formt' (did you mean '--format'?). An input file whose name starts with '-' goes after '--': cdk-capability audit -- --formt",
      "Run 'cdk-capability audit --help' for the options.",
      '',
    ]);
  });
});

describe('what a Deployment controller and kubectl record, as a real cluster holds it', () => {
  const T = '2026-12-06T10:00:02Z';
  const HPA = 'web/Routing/Hpa (RuntimeWriter)';
  /** The lock's view of Deployment web/api: the declarer writes minReadySeconds, the HPA (manager kube-controller-manager) the replicas. */
  const API: ExpectedObject = {
    identity: { group: 'apps', kind: 'Deployment', namespace: 'web', name: 'api' },
    label: 'apps/Deployment web/api',
    unitId: 'object:apps|Deployment|web|api',
    writers: [
      { writer: 'web/Routing/Api', manager: 'cdk-capability:web/Routing/Api', leaves: [{ path: ['spec', 'minReadySeconds'] }] },
      { writer: HPA, manager: 'kube-controller-manager', leaves: [{ path: ['spec', 'replicas'] }], runtime: true },
    ],
  };
  const APPLIED_API = [
    { manager: 'cdk-capability', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['spec', 'minReadySeconds']]) },
    { manager: 'cdk-capability:web/Routing/Api', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['spec', 'minReadySeconds']]) },
    { manager: 'kube-controller-manager', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['spec', 'replicas']]), subresource: 'scale' },
  ];
  /** Deployment web/api, rolled out and scaled, with `more` managedFields entries. */
  const api = (...more: object[]) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'web', annotations: { 'deployment.kubernetes.io/revision': '1' }, managedFields: [...APPLIED_API, ...more] },
    spec: { minReadySeconds: 0, replicas: 5 },
    status: { replicas: 5 },
  });

  test('the revision annotation the Deployment controller writes with the status, under the manager the HPA shares, is no finding', () => {
    // GIVEN kube-controller-manager's status write, which carries deployment.kubernetes.io/revision (pkg/controller/deployment/sync.go: UpdateStatus)
    const status = {
      manager: 'kube-controller-manager',
      operation: 'Update',
      subresource: 'status',
      time: T,
      fieldsType: 'FieldsV1',
      fieldsV1: toFieldsV1([['metadata', 'annotations', 'deployment.kubernetes.io/revision'], ['status', 'replicas']]),
    };

    // WHEN audited against a lock that declares the HPA under kube-controller-manager, and one that declares no HPA
    const withHpa = auditCluster([API], live(api(status)));
    const withoutHpa = auditCluster([{ ...API, writers: [API.writers[0]] }], live(api(status)));

    // THEN neither reports the annotation (nor anything else of the status write)
    expect(kinds(withHpa)).toEqual([]);
    expect(kinds(withoutHpa)).toEqual([]);
  });

  test('the same annotation written by an update of the object itself is still the HPA manager\'s field outside its fields', () => {
    // GIVEN kube-controller-manager writing the annotation with an update of the object, not of a subresource
    const update = { manager: 'kube-controller-manager', operation: 'Update', time: T, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1([['metadata', 'annotations', 'deployment.kubernetes.io/revision']]) };

    // THEN it is reported, as any write of that manager outside its fields
    expect(kinds(auditCluster([API], live(api(update))))).toEqual([
      ['stale-owner', 'apps/Deployment web/api', 'kube-controller-manager', undefined, [['metadata', 'annotations', 'deployment.kubernetes.io/revision']]],
    ]);
  });

  test('a kubectl apply without --server-side: names it, says to apply with cdk-capability apply, and how to remove the annotation it leaves', () => {
    // GIVEN a client-side kubectl apply that changed data.mode and left its annotation
    const object = configMap('settings', [
      ['cdk-capability', 'Apply', [['metadata', 'labels', 'team']]],
      APPLIED[2],
      ['kubectl-client-side-apply', 'Update', [['data', 'mode'], ['metadata', 'annotations', 'kubectl.kubernetes.io/last-applied-configuration']], T],
    ]);

    // WHEN
    const findings = auditCluster([SETTINGS], live(object));

    // THEN
    expect(findings.map((f) => [f.kind, f.message])).toEqual([
      [
        'overwritten-by-update',
        `ConfigMap shop/settings: data.mode of 'cdn/Routing/Web' (field manager ${WEB}) is owned by 'kubectl-client-side-apply' (Update at ${T}), ` +
          'a kubectl apply without --server-side (kubectl records a client-side apply as an Update under that manager), not by the writer. ' +
          "Apply the release with cdk-capability apply, which applies each writer's fields server-side under its own manager and takes them back, not with a plain kubectl apply -f.",
      ],
      [
        'undeclared-manager',
        `ConfigMap shop/settings: 'kubectl-client-side-apply' (Update at ${T}) owns metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"], ` +
          'a kubectl apply without --server-side (kubectl records a client-side apply as an Update under that manager). ' +
          'No writer of the release writes it: if nothing needs it, remove it (the annotation kubectl.kubernetes.io/last-applied-configuration that a client-side apply leaves: ' +
          'kubectl annotate ConfigMap/settings -n shop kubectl.kubernetes.io/last-applied-configuration-), or pass --ignore-manager kubectl-client-side-apply.',
      ],
    ]);
  });

  test('before-first-apply: names what it is (an adopted object) and that cdk-capability apply takes the field from it', () => {
    // GIVEN an object created client-side, then adopted: the field it held is the placeholder's
    const object = configMap('settings', [['cdk-capability', 'Apply', [['metadata', 'labels', 'team']]], APPLIED[2], ['before-first-apply', 'Update', [['data', 'mode']], T]]);

    // WHEN
    const findings = auditCluster([SETTINGS], live(object));

    // THEN
    expect(findings.map((f) => [f.kind, f.message])).toEqual([[
      'overwritten-by-update',
      `ConfigMap shop/settings: data.mode of 'cdn/Routing/Web' (field manager ${WEB}) is owned by 'before-first-apply' (Update at ${T}), ` +
        'the placeholder for what the object held before its first server-side apply (it was created or changed with a client-side kubectl apply, kubectl create or another update, then adopted), not by the writer. ' +
        "Run cdk-capability apply: it applies each object whole with --force-conflicts, which takes such fields from the placeholder, then under each writer's own manager.",
    ]]);
  });
});
