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

/** The exact CAP002 message for two writers, named as messages name them. */
export const conflict = (a: string, b: string, fields: string, object: string) =>
  `field conflict: ${a} and ${b} both write ${fields} of ${object}. Give each field one owner: drop it from one writer (its props, Contribution, addJsonPatch or addPropertyOverride).`;
