import { violation, ViolationCode } from '../violation';
import { Check } from './check';

/**
 * `CAP004`: every dependency cycle, with its full path by construct path
 * (`a => b => c => a`, read "a depends on b ..."), plus self-dependencies.
 */
export const dependencyCycles: Check = {
  name: 'dependency cycles',
  code: ViolationCode.DEPENDENCY_CYCLE,
  run({ graph, sorted }) {
    const cycles = sorted.cycles.map((cycle) => {
      const labels: string[] = [];
      for (const node of cycle) {
        const label = graph.graph.label(node);
        if (labels[labels.length - 1] !== label) labels.push(label);
      }
      return violation(
        ViolationCode.DEPENDENCY_CYCLE,
        `dependency cycle: ${labels.join(' => ')}. Remove one of these dependencies (addDependency, or the reference that implies it).`,
        labels,
      );
    });
    return [...graph.violations, ...cycles];
  },
};
