import type { OutputWriter } from './output-writer';
import { auditObjects } from './writers/audit-objects';
import { deployAssembly } from './writers/deploy-assembly';
import { interfaceJson } from './writers/interface-json';
import { planJson } from './writers/plan-json';
import { runtimeManifests } from './writers/runtime-manifests';

/** The outputs every synth writes. A new format is one file in `writers/` and one line here. */
export const WRITERS: readonly OutputWriter[] = [planJson, interfaceJson, runtimeManifests, auditObjects, deployAssembly];
