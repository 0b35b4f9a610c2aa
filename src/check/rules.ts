import { CheckContext, Rule } from './rule';
import { autoscaledReplicas, undeclaredAutoscalers } from './rules/autoscaled-replicas';
import { boundaryLeaks } from './rules/boundary-leaks';
import { conflictingRoutes } from './rules/conflicting-routes';
import { conflictingVirtualServices } from './rules/conflicting-virtual-services';
import { constructErrors, constructWarnings } from './rules/construct-annotations';
import { constructValidation } from './rules/construct-validation';
import { contributionProps } from './rules/contribution-props';
import { danglingImports } from './rules/dangling-imports';
import { danglingReferences } from './rules/dangling-references';
import { dependencyCycles } from './rules/dependency-cycles';
import { deploySynthesis, misplacedStacks } from './rules/deploy-synthesis';
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
import { ingressSpecValidity } from './rules/ingress-spec-validity';
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
import { statefulSetPodSpecs, statefulSetRestartPolicy } from './rules/pod-spec-stateful-sets';
import { podSpecValidity } from './rules/pod-spec-validity';
import { possibleSecrets } from './rules/possible-secrets';
import { quantityFormats } from './rules/quantity-formats';
import { runtimeWriterFields } from './rules/runtime-writer-fields';
import { runtimeWriterKinds } from './rules/runtime-writer-kinds';
import { runtimeWriterManagers } from './rules/runtime-writer-managers';
import { runtimeWriterOverlaps } from './rules/runtime-writer-overlaps';
import { scalarTypes } from './rules/scalar-types';
import { secretTypes } from './rules/secret-types';
import { serviceSpecValidity } from './rules/service-spec-validity';
import { statusWrites } from './rules/status-writes';
import { templateValidationErrors, templateValidationWarnings } from './rules/template-validation';
import { unkeptHooks } from './rules/unkept-hooks';
import { unknownFieldsRule } from './rules/unknown-fields';
import { unsafeDeletions } from './rules/unsafe-deletions';

/**
 * A rule whose module loads on first use: its `run` when `needed` says the facts hold its input (else it finds
 * nothing, exactly as the rule would), or any of its other members (a report's list of rules reads them).
 *
 * @param load requires the rule's module (deliberately lazy) and returns the rule
 * @param needed false only when the rule would find nothing in this context
 */
function lazyRule(load: () => Rule, needed: (context: CheckContext) => boolean): Rule {
  let rule: Rule | undefined;
  const loaded = () => (rule ??= load());
  return {
    get id() { return loaded().id; },
    get code() { return loaded().code; },
    get title() { return loaded().title; },
    get explanation() { return loaded().explanation; },
    get severity() { return loaded().severity; },
    run: (context) => (needed(context) ? loaded().run(context) : []),
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- deliberately lazy: a composition without their input never loads them */
/** The contract rules: each reads only `facts.contracts`, so none finds anything in a composition without a contract. */
const hasContracts = ({ facts }: CheckContext) => facts.contracts.length > 0;
const contractUsage = lazyRule(() => require('./rules/contract-usage').contractUsage, hasContracts);
const contractParameterSize = lazyRule(() => require('./rules/contract-parameter-size').contractParameterSize, hasContracts);
const contractShapes = lazyRule(() => require('./rules/contract-shapes').contractShapes, hasContracts);
/** Compares this release's contracts with the locked ones: nothing to compare in a first release. */
const interfaceCompatibility = lazyRule(() => require('./rules/interface-compatibility').interfaceCompatibility, ({ previous }) => previous !== undefined);
/** Validates custom resources against their CRDs' schemas: nothing to validate in a composition without a CRD. */
const customResourceSchemas = lazyRule(() => require('./rules/custom-resource-schema').customResourceSchemas,
  ({ facts }) => facts.objects.some((o) => o.identity.kind === 'CustomResourceDefinition' && o.identity.group === 'apiextensions.k8s.io'));
/* eslint-enable @typescript-eslint/no-require-imports */

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
  danglingImports,
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
  unknownFieldsRule,
  customResourceSchemas,
  quantityFormats,
  patchValues,
  podSpecValidity,
  statefulSetPodSpecs,
  statefulSetRestartPolicy,
  serviceSpecValidity,
  ingressSpecValidity,
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
  misplacedStacks, // CAP015
  templateValidationErrors,
  templateValidationWarnings,
  parameterNames,
  lockFile,
  possibleSecrets, // CAP012 (warning)
  constructErrors,
  constructWarnings, // CAP018 (warning)
];
