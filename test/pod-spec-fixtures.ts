import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { newApp } from './util';
import { ruleOf } from '../src/check/finding';

/** GIVEN-side helper: an app with capability `shop` and its routing chart. */
export function routing(): { app: CapabilityApp; chart: RuntimeRouting } {
  const app = newApp();
  return { app, chart: new RuntimeRouting(new Capability(app, 'shop'), 'Routing') };
}

/** The pod spec rule's messages of a synth. */
export function podSpecFindings(app: CapabilityApp): string[] {
  return app.synthesize().violations.filter((v) => ruleOf(v) === 'CAP010/pod-spec-validity').map((v) => `${v.code} ${v.message}`);
}
