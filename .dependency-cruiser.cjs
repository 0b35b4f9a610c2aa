// The architecture rule (docs/ARCHITECTURE.md), run by `npx projen architecture` and by the test task.
//
// src/ is layered; a module may import only from its own layer or a lower one. From the bottom:
//   private, imports      helpers and generated CRD classes
//   constructs            Capability, stacks, Contribution, Reference
//   contract              InterfaceContract, Field
//   routing               RuntimeRouting and its helpers
//   collect               stage 1: (root) -> Facts, the only stage touching the construct tree and aws-cdk
//   release               the lock and interface comparisons (pure, over facts)
//   cluster               the map in the cluster: field-manager names, the apply sequence, the audit of managedFields (pure)
//   check                 stage 2: (facts, previous) -> Finding[], one rule per file
//   render                stage 3: (facts) -> OutputTree, one writer per format
//   app                   CapabilityApp and the pipeline that runs the stages
//   testing, cli, plugin, index   the entry points (plugin: the cdk8s validation plugin)
const LAYERS = [
  ['private', 'imports'],
  ['constructs'],
  ['contract'],
  ['routing'],
  ['collect'],
  ['release'],
  ['cluster'],
  ['check'],
  ['render'],
  ['app'],
  ['testing\\.ts', 'cli', 'plugin', 'index\\.ts'],
];

const folder = (names) => `^src/(${names.join('|')})($|/)`;

const layerRules = LAYERS.slice(0, -1).map((names, i) => ({
  name: `layer-${names[0].replace(/\\.ts$/, '')}`,
  comment: `${names.join(', ')} must not import a later layer (${LAYERS.slice(i + 1).flat().join(', ')})`,
  severity: 'error',
  from: { path: folder(names) },
  to: { path: folder(LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment: 'A run-time import cycle (type-only imports do not count): fix it by design, never by moving an import.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/imports/' },
  },
};
