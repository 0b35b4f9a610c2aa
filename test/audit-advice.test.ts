import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { capturingOutput, removeTempDirs, tempDir } from './util';
import { Capability, CapabilityApp, RuntimeRouting, RuntimeWriter } from '../src';
import { main } from '../src/cli/main';
import { auditRule } from '../src/cluster/audit-rules';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import { expectedObjects } from '../src/cluster/object-writers';
import { Lock, writeLock } from '../src/release/lock';

/**
 * Advice a trial with real controllers found wrong: a RuntimeWriter declared with another manager than the one
 * its controller writes under (cert-manager writes a Secret's data as `cert-manager`, not as the name of one of
 * its controllers), and a runtime writer's manager owning a field outside its fields, by apply or by update.
 */

afterAll(removeTempDirs);

const T = '2026-12-06T23:00:00Z';
const CRT = ['data', 'tls.crt'];
const KEY = ['data', 'tls.key'];
const ISSUER = ['metadata', 'annotations', 'cert-manager.io/issuer-name'];

/** A release whose Secret `shop/web-tls` the declarer writes (its type) and a RuntimeWriter `CertManager` (its certificate) under `manager`. */
function release(manager: string): { lockFile: string; lock: Lock } {
  const dir = tempDir('audit-advice-');
  const app = new CapabilityApp({ outdir: path.join(dir, 'dist'), lockFile: path.join(dir, 'none.json') });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const target = new ApiObject(routing, 'WebTls', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'web-tls', namespace: 'shop', labels: { team: 'web' } }, type: 'Opaque' });
  new RuntimeWriter(routing, 'CertManager', { target, fields: ['data["tls.crt"]'], identity: 'system:serviceaccount:cert-manager:cert-manager', manager });
  const result = app.synthesize();
  expect(result.violations).toEqual([]);
  const lockFile = path.join(dir, 'capability.lock.json');
  writeLock(lockFile, result.lock!);
  return { lockFile, lock: JSON.parse(fs.readFileSync(lockFile, 'utf-8')) };
}

/**
 * The live Secret as `cdk-capability apply` leaves it (each writer of the release its leaves, the applier all of
 * them), with more entries: each a manager, its operation and its leaves.
 */
function secret(lock: Lock, more: Array<[string, 'Apply' | 'Update', string[][]]>): unknown {
  const applied = expectedObjects(lock).find((e) => e.identity.kind === 'Secret')!.writers.filter((w) => !w.runtime);
  const entries: Array<[string, 'Apply' | 'Update', string[][]]> = [
    ['cdk-capability', 'Apply', applied.flatMap((w) => w.leaves.map((l) => [...l.path]))],
    ...applied.map((w): [string, 'Apply', string[][]] => [w.manager!, 'Apply', w.leaves.map((l) => [...l.path])]),
    ...more,
  ];
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: 'web-tls',
      namespace: 'shop',
      annotations: { 'cert-manager.io/issuer-name': 'letsencrypt' },
      labels: { team: 'web' },
      managedFields: entries.map(([manager, operation, leaves]) => ({ manager, operation, apiVersion: 'v1', time: T, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(leaves) })),
    },
    data: { 'tls.crt': 'Y3J0', 'tls.key': 'a2V5' },
  };
}

/** `cdk-capability audit` of the live objects against the lock file. */
function audit(lockFile: string, ...items: unknown[]): { code: number; stdout: string; stderr: string } {
  const input = path.join(tempDir(), 'live.json');
  fs.writeFileSync(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const run = capturingOutput(() => main(['audit', input, '--lock', lockFile]));
  return { code: run.result, stdout: run.stdout, stderr: run.stderr };
}

const WRITER = "'shop/Routing/CertManager (RuntimeWriter)' (field manager cert-manager-certificates-issuing)";

describe('a RuntimeWriter declared with another manager than its controller writes under', () => {
  const { lockFile, lock } = release('cert-manager-certificates-issuing');

  test('the one manager holding its field by apply, while the declared one owns nothing: declare that manager on the RuntimeWriter', () => {
    // GIVEN cert-manager applied the certificate under its own manager, which is not the one declared
    const run = audit(lockFile, secret(lock, [['cert-manager', 'Apply', [CRT]]]));

    // THEN one finding, which names the manager to declare, and no undeclared-manager beside it
    expect(run).toEqual({
      code: 2,
      stderr: '',
      stdout:
        `taken-over: Secret shop/web-tls: data["tls.crt"] of ${WRITER} is owned by 'cert-manager' (Apply at ${T}) alone, ` +
        "while the manager 'cert-manager-certificates-issuing' that the RuntimeWriter declares owns nothing on the object: the RuntimeWriter's manager is likely not the name its controller writes under. " +
        "If 'cert-manager' is the controller 'shop/Routing/CertManager (RuntimeWriter)' stands for, declare manager: 'cert-manager' on 'shop/Routing/CertManager', so the lock names the manager its controller writes under; " +
        "else stop that client writing it, and let the runtime writer's controller write it again.\n" +
        '\n' +
        `cdk-capability audit: 1 difference between the cluster and ${lockFile} (1 object compared).\n`,
    });
  });

  test('the one manager holding more than its fields: the fields beyond are undeclared, with the same manager to declare and the fields to add', () => {
    // GIVEN cert-manager applied the certificate, its key and its issuer annotation
    const run = audit(lockFile, secret(lock, [['cert-manager', 'Apply', [CRT, KEY, ISSUER]]]));

    // THEN
    expect(run.stdout).toBe(
      `taken-over: Secret shop/web-tls: data["tls.crt"] of ${WRITER} is owned by 'cert-manager' (Apply at ${T}) alone, ` +
        "while the manager 'cert-manager-certificates-issuing' that the RuntimeWriter declares owns nothing on the object: the RuntimeWriter's manager is likely not the name its controller writes under. " +
        "If 'cert-manager' is the controller 'shop/Routing/CertManager (RuntimeWriter)' stands for, declare manager: 'cert-manager' on 'shop/Routing/CertManager', so the lock names the manager its controller writes under; " +
        "else stop that client writing it, and let the runtime writer's controller write it again.\n" +
        '\n' +
        `undeclared-manager: Secret shop/web-tls: 'cert-manager' (Apply at ${T}) owns data["tls.key"], metadata.annotations["cert-manager.io/issuer-name"], and no writer of the composition declares that manager; ` +
        "it also holds every field of the runtime writer 'shop/Routing/CertManager (RuntimeWriter)', whose declared manager 'cert-manager-certificates-issuing' owns nothing on the object: " +
        "the RuntimeWriter's manager is likely not the name its controller writes under. " +
        "Declare manager: 'cert-manager' on 'shop/Routing/CertManager', and add them to its fields if its controller writes them; else stop that client writing them.\n" +
        '\n' +
        `cdk-capability audit: 2 differences between the cluster and ${lockFile} (1 object compared).\n`,
    );
  });

  test('the one manager holding its field by update: the same advice, as overwritten-by-update', () => {
    const run = audit(lockFile, secret(lock, [['cert-manager', 'Update', [CRT]]]));
    expect(run.stdout).toBe(
      `overwritten-by-update: Secret shop/web-tls: data["tls.crt"] of ${WRITER} is now owned by 'cert-manager' (Update at ${T}), whose update changed it, ` +
        "while the manager 'cert-manager-certificates-issuing' that the RuntimeWriter declares owns nothing on the object: the RuntimeWriter's manager is likely not the name its controller writes under. " +
        "If 'cert-manager' is the controller 'shop/Routing/CertManager (RuntimeWriter)' stands for, declare manager: 'cert-manager' on 'shop/Routing/CertManager', so the lock names the manager its controller writes under; " +
        "else stop that client writing it, and let the runtime writer's controller write it again.\n" +
        '\n' +
        `cdk-capability audit: 1 difference between the cluster and ${lockFile} (1 object compared).\n`,
    );
  });

  test('with the manager its controller writes under declared, the same cluster matches', () => {
    const fixed = release('cert-manager');
    expect(audit(fixed.lockFile, secret(fixed.lock, [['cert-manager', 'Apply', [CRT]]])).stdout).toBe(
      `cdk-capability audit: the cluster matches ${fixed.lockFile} (1 object compared).\n`,
    );
  });

  test('the declared manager owning something on the object: another client took the field, the advice is to stop it', () => {
    // GIVEN the declared manager still owns the key, and another controller took the certificate
    const run = audit(lockFile, secret(lock, [['cert-manager-certificates-issuing', 'Apply', [KEY]], ['other-issuer', 'Apply', [CRT]]]));
    expect(run.stdout.split('\n')[0]).toBe(
      `taken-over: Secret shop/web-tls: data["tls.crt"] of ${WRITER} is owned by 'other-issuer' (Apply at ${T}) alone: an apply took it over from the runtime writer's controller (--force-conflicts). ` +
        "Stop that client applying it, and let the runtime writer's controller write it again: the release never writes a runtime writer's field, so applying it restores nothing " +
        "(a controller that applies server-side takes it back only with force). If that client is the one that writes it, declare it as the RuntimeWriter of it in place of 'shop/Routing/CertManager (RuntimeWriter)'.",
    );
  });

  test('two undeclared managers each holding its field: no guess which one is its controller', () => {
    const run = audit(lockFile, secret(lock, [['issuer-a', 'Apply', [CRT]], ['issuer-b', 'Apply', [CRT]]]));
    expect(run.stdout).not.toMatch(/declare manager:/);
    expect(run.stdout).toMatch(/^taken-over: Secret shop\/web-tls: data\["tls\.crt"\] .* is owned by 'issuer-a' \(Apply at [^)]*\) alone: an apply took it over from the runtime writer's controller/);
  });
});

describe("a runtime writer's manager owning a field outside its fields that no writer has", () => {
  const { lockFile, lock } = release('cert-manager');

  test('by apply: add it to its fields, or make the controller send only its own, whose next apply releases it', () => {
    // GIVEN cert-manager applied its issuer annotation beside the certificate it is declared for
    const run = audit(lockFile, secret(lock, [['cert-manager', 'Apply', [CRT, ISSUER]]]));
    expect(run.stdout).toBe(
      `stale-owner: Secret shop/web-tls: 'cert-manager' (Apply at ${T}), the field manager of the runtime writer 'shop/Routing/CertManager (RuntimeWriter)', ` +
        'also owns metadata.annotations["cert-manager.io/issuer-name"], outside its fields (data["tls.crt"]): its controller writes it, and applying the release changes nothing while it does. ' +
        "If its controller writes it as its own (an annotation or label it keeps on the object), add it to that RuntimeWriter's fields; " +
        'else make the controller send only its own fields (its next server-side apply without it releases it, and removes it from the object where no other manager owns it).\n' +
        '\n' +
        `cdk-capability audit: 1 difference between the cluster and ${lockFile} (1 object compared).\n`,
    );
  });

  test('by update (a controller that patches, such as Karpenter): its next update does not release it; remove it, or its Update entry', () => {
    const run = audit(lockFile, secret(lock, [['cert-manager', 'Update', [CRT, ISSUER]]]));
    expect(run.stdout).toBe(
      `stale-owner: Secret shop/web-tls: 'cert-manager' (Update at ${T}), the field manager of the runtime writer 'shop/Routing/CertManager (RuntimeWriter)', ` +
        'also owns metadata.annotations["cert-manager.io/issuer-name"], outside its fields (data["tls.crt"]): its controller writes it, and applying the release changes nothing while it does. ' +
        "If its controller writes it as its own (an annotation or label it keeps on the object), add it to that RuntimeWriter's fields; " +
        'else make the controller send only its own fields (its entry is an Update, and an updater keeps a field it no longer sends until another manager changes its value or it leaves the object: ' +
        "once the controller stops, remove it from the object if nothing needs it, or remove its Update entry from the object's metadata.managedFields (its next update records again what it changes)).\n" +
        '\n' +
        `cdk-capability audit: 1 difference between the cluster and ${lockFile} (1 object compared).\n`,
    );
  });
});

describe("a runtime writer's manager sharing a field a writer of the release has, by update", () => {
  const { lockFile, lock } = release('cert-manager');

  test('the release gives it up when it next changes the field, or its Update entry is removed; never an apply of the controller', () => {
    // GIVEN cert-manager's update also wrote the declarer's label, at the same value
    const run = audit(lockFile, secret(lock, [['cert-manager', 'Update', [CRT, ['metadata', 'labels', 'team']]]]));
    expect(run.stdout).toBe(
      `stale-owner: Secret shop/web-tls: 'cert-manager' (Update at ${T}), the field manager of the runtime writer 'shop/Routing/CertManager (RuntimeWriter)', ` +
        "also owns metadata.labels.team, outside its fields (data[\"tls.crt\"]), which the lock gives to 'shop/Routing/WebTls': its controller writes it, and applying the release changes nothing while it does. " +
        'Make the controller send only its own fields (its entry is an Update, and an updater keeps a field it no longer sends until another manager changes its value or it leaves the object: ' +
        "once the controller stops, it gives it up when the release next changes it; to drop it now, remove its Update entry from the object's metadata.managedFields (its next update records again what it changes)); " +
        "or, if its controller owns it, add it to that RuntimeWriter's fields and take it out of 'shop/Routing/WebTls' (synth refuses two writers of one field).\n" +
        '\n' +
        `cdk-capability audit: 1 difference between the cluster and ${lockFile} (1 object compared).\n`,
    );
  });
});

describe('cdk-capability audit --format github with a lock it cannot read', () => {
  /** The 1-based number of the first line of `text` that contains `needle`, found without a JSON parser. */
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  test('a lock edited by hand: one annotation on the lock file, on its contentDigest line, as plan gives it', () => {
    // GIVEN a lock whose content was edited after cdk-capability wrote it
    const { lockFile } = release('cert-manager');
    const text = fs.readFileSync(lockFile, 'utf-8').replace('"cert-manager"', '"cert-manager-x"');
    fs.writeFileSync(lockFile, text);

    // WHEN audit reads it, in the GitHub format
    const input = path.join(tempDir(), 'live.json');
    fs.writeFileSync(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
    const run = capturingOutput(() => main(['audit', input, '--lock', lockFile, '--format', 'github']));

    // THEN exit 1, and the workflow command names the lock file and the contentDigest line
    const file = path.relative(process.cwd(), lockFile).split(path.sep).join('/').replace(/:/g, '%3A').replace(/,/g, '%2C');
    expect(lineOf(text, '"contentDigest"')).toBeGreaterThan(1);
    expect(run.result).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(
      `^::error file=${escapeRegExp(file)},line=${lineOf(text, '"contentDigest"')},col=1,title=CAP014 lock file::CAP014 lock file: '${escapeRegExp(lockFile)}' is not the lock cdk-capability wrote: its content does not match its contentDigest[^\\n]*\\n$`,
    ));
  });
});

describe('cdk-capability audit --format sarif with a lock it cannot read', () => {
  test('a lock edited by hand: a SARIF log with one CAP014 result on the lock file, on its contentDigest line', () => {
    // GIVEN a lock whose content was edited after cdk-capability wrote it
    const { lockFile } = release('cert-manager');
    const text = fs.readFileSync(lockFile, 'utf-8').replace('"cert-manager"', '"cert-manager-x"');
    fs.writeFileSync(lockFile, text);
    const contentDigestLine = text.split('\n').findIndex((l) => l.includes('"contentDigest"')) + 1;

    // WHEN audit reads it, in SARIF (a CI step uploads whatever it prints)
    const input = path.join(tempDir(), 'live.json');
    fs.writeFileSync(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
    const run = capturingOutput(() => main(['audit', input, '--lock', lockFile, '--format', 'sarif']));

    // THEN exit 1, nothing on stderr, and a SARIF log whose one result is the CAP014, located on the lock file
    expect(run.result).toBe(1);
    expect(run.stderr).toBe('');
    const log = JSON.parse(run.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results).toHaveLength(1);
    const [result] = log.runs[0].results;
    expect(result.ruleId).toBe(log.runs[0].tool.driver.rules[result.ruleIndex].id);
    expect(log.runs[0].tool.driver.rules[result.ruleIndex].properties).toEqual({ code: 'CAP014' });
    expect(result.level).toBe('error');
    expect(result.message.text).toMatch(new RegExp(`^CAP014 lock file: '${escapeRegExp(lockFile)}' is not the lock cdk-capability wrote: its content does not match its contentDigest`));
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: encodeURI(path.relative(process.cwd(), lockFile).split(path.sep).join('/')), uriBaseId: 'SRCROOT' },
      region: { startLine: contentDigestLine, startColumn: 1 },
    });
    expect(contentDigestLine).toBeGreaterThan(1);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the rules a report explains (SARIF rules[]) give the same fixes', () => {
  test('taken-over and overwritten-by-update name the manager to declare; stale-owner the field to add, and what releases it by operation', () => {
    const misnamed = /A RuntimeWriter's leaves held by one undeclared manager while the manager it declares owns nothing on the object: declare that manager on the RuntimeWriter/;
    expect(auditRule('taken-over').explanation).toMatch(misnamed);
    expect(auditRule('overwritten-by-update').explanation).toMatch(misnamed);
    expect(auditRule('stale-owner').explanation).toMatch(
      /outside its fields is its controller writing it: add the field to its fields, or make the controller stop sending it \(its next apply releases it; an Update entry keeps it until another manager changes it or it leaves the object\)/,
    );
  });
});
