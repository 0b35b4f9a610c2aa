import type { Stack } from 'aws-cdk-lib';
import type { CollectionProblems, ConstructAnnotation, TemplateFinding } from './facts';
import type { StackDependency } from './graph/composition-graph';

/** What deploy synthesis produced: templates, stack dependencies, assemblies, and what went wrong. */
export interface DeploySynthesis {
  /** Each capability's cloud assembly folder (in the run folder beside the outdir, not the outdir). */
  readonly assemblyDirs: string[];
  /** Stack dependencies as the assemblies record them. */
  readonly stackDependencies: StackDependency[];
  /** Template file of each stack, relative to the assembly. */
  readonly templateFiles: Map<Stack, string>;
  /** The synthesized template of each stack. */
  readonly templates: Map<Stack, any>;
  /** aws-cdk synthesis errors, per capability. */
  readonly synthesisErrors: Array<CollectionProblems['synthesisErrors'][number]>;
  /** Tenant aggregates that could not be made to depend on their shared base. */
  readonly wiringErrors: Array<CollectionProblems['wiringErrors'][number]>;
  /** Cycles of stacks that a `node.addDependency` closes; the stacks are not synthesized then. */
  readonly stackCycles: Array<CollectionProblems['stackCycles'][number]>;
  /** The error and warning annotations of the synthesized stacks (`Annotations.of(c).addError/addWarning`). */
  readonly annotations: ConstructAnnotation[];
  /** What aws-cdk's template validator found; undefined when it is off. */
  templateFindings?: TemplateFinding[];
}

/** An empty result: what a composition without aws-cdk yields, and where deploy synthesis starts (its own module, so collect needs no aws-cdk-lib for it). */
export function noDeployment(): DeploySynthesis {
  return {
    assemblyDirs: [],
    stackDependencies: [],
    templateFiles: new Map(),
    templates: new Map(),
    synthesisErrors: [],
    wiringErrors: [],
    stackCycles: [],
    annotations: [],
  };
}
