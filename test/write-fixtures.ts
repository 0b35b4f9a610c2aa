/**
 * The fixture of the write-path tests: an app with a capability `cdn`, its runtime chart, its shared base, and
 * two teams in each; and the exact CAP002 message for two writers.
 */
import { Construct } from 'constructs';
import { Capability, CapabilityTesting, RuntimeRouting, SharedBase } from '../src';

/** An app with a capability `cdn`, its runtime chart, its shared base, and two teams in each. */
export function fixture() {
  const app = CapabilityTesting.app();
  const cdn = new Capability(app, 'cdn');
  const routing = new RuntimeRouting(cdn, 'Routing');
  const base = new SharedBase(cdn, 'Base');
  return {
    app,
    cdn,
    routing,
    base,
    deployTeam: new Construct(routing, 'DeployTeam'),
    netOp: new Construct(routing, 'NetOp'),
    storage: new Construct(base, 'Storage'),
    security: new Construct(base, 'Security'),
  };
}

/**
 * The exact CAP002 message for two writers, named as messages name them, with how each wrote the fields (`ways`,
 * in the order of the writers: `declares`, `contributes`, `calls`, `inCluster`).
 */
export const conflict = (a: string, b: string, fields: string, object: string, ...ways: string[]) =>
  `field conflict: ${a} and ${b} both write ${fields} of ${object}. Give each field one owner: drop it from one of them (${ways.join('; ')}).`;

/** How CAP002's fix names writers that wrote a field one way: `'a' writes it ...`, `'a' and 'b' write it ...`; the root as the app. */
export function way(verb: 'declare' | 'write', how: string, ...paths: string[]): string {
  const named = paths.map((p) => (p === '' ? 'the app' : `'${p}'`));
  const who = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
  return `${who} ${paths.length === 1 ? `${verb}s` : verb} it ${how}`;
}

/** Writers that declare the field (the object's declaring construct: its props or its own methods). */
export const declares = (...paths: string[]) => way('declare', 'in its props or methods', ...paths);
/** Contributions that write the field through one of their props. */
export const contributes = (props: 'fields' | 'patches' | 'write callback' | 'fields and patches', ...paths: string[]) => way('write', `as a Contribution, in its ${props}`, ...paths);
/** A plain call that writes the field: `calls('cdn/Routing/Web', 'addJsonPatch at main.ts:12')`. */
export const calls = (path: string, call: string) => way('write', `through ${call}`, path);
/** A RuntimeWriter that writes the field in the cluster. */
export const inCluster = (path: string) => way('write', 'in the cluster, as a RuntimeWriter', path);
