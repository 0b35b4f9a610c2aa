import { Rule } from './rule';
import { autoscaledReplicas, undeclaredAutoscalers } from './rules/autoscaled-replicas';
import { boundaryLeaks } from './rules/boundary-leaks';
import { conflictingRoutes } from './rules/conflicting-routes';
import { conflictingVirtualServices } from './rules/conflicting-virtual-services';
import { constructValidation } from './rules/construct-validation';
import { contractParameterSize } from './rules/contract-parameter-size';
import { contractShapes } from './rules/contract-shapes';
import { contractUsage } from './rules/contract-usage';
import { contributionProps } from './rules/contribution-props';
import { danglingReferences } from './rules/dangling-references';
import { dependencyCycles } from './rules/dependency-cycles';
import { deploySynthesis } from './rules/deploy-synthesis';
import { duplicateObjects } from './rules/duplicate-objects';
import { duplicateSharedBases } from './rules/duplicate-shared-bases';
import { duplicateStackNames } from './rules/duplicate-stack-names';
import { enforcedIdentities } from './rules/enforced-identities';
import { enforcedResourceGuesses } from './rules/enforced-resource-guesses';
import { enforcedResourceNames } from './rules/enforced-resource-names';
import { fieldConflicts } from './rules/field-conflicts';
import { headerAgreement } from './rules/header-agreement';
import { hookDeletePolicyWarnings } from './rules/hook-delete-policies';
import { hookGenerateNames } from './rules/hook-generate-names';
import { hookPhases } from './rules/hook-phases';
import { identityRewrites } from './rules/identity-rewrites';
import { interfaceCompatibility } from './rules/interface-compatibility';
import { jsonValues } from './rules/json-values';
import { listDocuments } from './rules/list-documents';
import { lockFile } from './rules/lock-file';
import { mergedContradictions } from './rules/merged-contradictions';
import { namedReplacements } from './rules/named-replacements';
import { nestingDepth } from './rules/nesting-depth';
import { objectShapes } from './rules/object-shapes';
import { objectValidity } from './rules/object-validity';
import { outputAnnotations } from './rules/output-annotations';
import { overlappingWorkloads } from './rules/overlapping-workloads';
import { parameterNames } from './rules/parameter-names';
import { patchValues } from './rules/patch-values';
import { physicalNameMoves } from './rules/physical-name-moves';
import { physicalNames } from './rules/physical-names';
import { statefulSetPodSpecs } from './rules/pod-spec-stateful-sets';
import { podSpecValidity } from './rules/pod-spec-validity';
import { possibleSecrets } from './rules/possible-secrets';
import { quantityFormats } from './rules/quantity-formats';
import { runtimeWriterFields } from './rules/runtime-writer-fields';
import { runtimeWriterKinds } from './rules/runtime-writer-kinds';
import { runtimeWriterManagers } from './rules/runtime-writer-managers';
import { runtimeWriterOverlaps } from './rules/runtime-writer-overlaps';
import { scalarTypes } from './rules/scalar-types';
import { secretTypes } from './rules/secret-types';
import { statusWrites } from './rules/status-writes';
import { templateValidationErrors, templateValidationWarnings } from './rules/template-validation';
import { unkeptHooks } from './rules/unkept-hooks';
import { unsafeDeletions } from './rules/unsafe-deletions';

/** Every rule synth runs, by code. A new rule is one file in `rules/` and one line here. */
export const RULES: readonly Rule[] = [
  duplicateObjects, // CAP001
  duplicateSharedBases,
  duplicateStackNames,
  fieldConflicts, // CAP002
  runtimeWriterOverlaps,
  identityRewrites,
  physicalNames,
  overlappingWorkloads,
  conflictingRoutes,
  conflictingVirtualServices,
  outputAnnotations,
  autoscaledReplicas,
  undeclaredAutoscalers,
  statusWrites, // CAP003
  dependencyCycles, // CAP004
  hookPhases,
  danglingReferences, // CAP005
  boundaryLeaks, // CAP006
  interfaceCompatibility, // CAP007
  unsafeDeletions, // CAP008
  physicalNameMoves,
  namedReplacements,
  contractUsage, // CAP009
  contractParameterSize,
  headerAgreement,
  objectValidity, // CAP010
  listDocuments,
  secretTypes,
  mergedContradictions,
  objectShapes,
  unkeptHooks,
  hookGenerateNames,
  hookDeletePolicyWarnings,
  scalarTypes,
  quantityFormats,
  patchValues,
  podSpecValidity,
  statefulSetPodSpecs,
  nestingDepth,
  jsonValues,
  contractShapes,
  constructValidation,
  runtimeWriterFields,
  runtimeWriterKinds,
  runtimeWriterManagers,
  enforcedResourceNames,
  enforcedResourceGuesses,
  enforcedIdentities,
  contributionProps,
  deploySynthesis,
  templateValidationErrors,
  templateValidationWarnings,
  parameterNames,
  lockFile,
  possibleSecrets, // CAP012 (warning)
];
