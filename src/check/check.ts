import { compareFindings, Finding } from './finding';
import { internalError } from './internal-error';
import { CheckContext, Rule } from './rule';
import { RULES } from './rules';
import { appendAll } from '../private/append';

/**
 * The check stage: runs every rule over the facts and returns all findings,
 * sorted. A rule that throws becomes one `CAP000` finding naming the rule; the
 * other rules still run.
 *
 * @param rules the rules to run
 */
export function check(context: CheckContext, rules: readonly Rule[] = RULES): Finding[] {
  const found: Finding[] = [];
  for (const rule of rules) {
    try {
      appendAll(found, rule.run(context));
    } catch (e) {
      found.push(internalError(`the '${rule.title}' rule`, e));
    }
  }
  return found.sort(compareFindings);
}
