import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/** aws-cdk's synthesis errors that are cycles between stacks. */
export const CYCLE_ERROR = /cycl/i;

/**
 * `CAP004`: every dependency cycle, with its full path by construct path
 * (`a => b => c => a`, read "a depends on b ..."); constructs that depend on
 * themselves; a shared base that depends on its own tenant aggregate; and the
 * cycles aws-cdk finds between stacks.
 */
export const dependencyCycles = defineRule({
  code: ViolationCode.DEPENDENCY_CYCLE,
  title: 'dependency cycles',
  run({ facts }) {
    const { graph, problems } = facts;
    const found: RuleFinding[] = graph.sort().cycles.map((cycle) => {
      const labels: string[] = [];
      for (const node of cycle) {
        const label = graph.label(node);
        if (labels[labels.length - 1] !== label) labels.push(label);
      }
      return { message: `${labels.join(' => ')}. Remove one of these dependencies (addDependency, or the reference that implies it).`, paths: labels };
    });
    for (const path of problems.selfDependencies) {
      found.push({ message: `'${path}' depends on itself. Remove the addDependency call that names the construct itself.`, paths: [path] });
    }
    for (const w of problems.wiringErrors) {
      found.push({
        message: `'${w.tenant}' must deploy after its shared base '${w.base}', but ${w.error}. Remove the dependency of the shared base on the tenant aggregate.`,
        paths: [w.tenant, w.base],
      });
    }
    for (const s of problems.synthesisErrors.filter((e) => CYCLE_ERROR.test(e.error))) {
      found.push({ message: `the stacks of capability '${s.capability}' could not be synthesized: ${s.error}`, paths: [s.capability] });
    }
    return found;
  },
});
