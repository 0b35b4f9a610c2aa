import type { ContractFact } from '../../collect/facts';
import { dataKeyProblem, MAX_DATA_KEY, suggestDataKey } from '../../private/data-key';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';

/**
 * `CAP010`: a contract the runtime side cannot receive. Each field becomes a
 * key of the Secret the `ExternalSecret` binds, so its name must be a valid
 * Secret key; and a number must be finite, because JSON has no NaN or
 * Infinity: `JSON.stringify` writes them as `null`, which no consumer of a
 * number expects.
 */
export const contractShapes = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'contract shapes',
  explanation: 'The objects the interface contract emits (the ExternalSecret and the Secret it fills) must be ones the API server accepts, or the runtime side never receives the values.',
  run: ({ facts }) => facts.contracts.flatMap(contractShapeProblems),
});

function contractShapeProblems(contract: ContractFact): RuleFinding[] {
  const found: RuleFinding[] = [];
  for (const name of Object.keys(contract.fields)) {
    const problem = dataKeyProblem(name);
    if (!problem) continue;
    found.push({
      message: `field ${JSON.stringify(name)} of '${contract.path}' becomes a key of the Secret its consumers read, so it must be a valid Secret key (at most ${MAX_DATA_KEY} letters, digits, '-', '_' and '.'), but ${problem}. Rename the field${suggestDataKey(name)}.`,
      paths: [contract.path],
    });
  }
  for (const p of contract.publications) {
    for (const [name, value] of Object.entries(p.values)) {
      if (typeof value.literal !== 'number' || Number.isFinite(value.literal)) continue;
      const required = contract.fields[name]?.required ? 'required ' : '';
      found.push({
        message: `'${p.stack}' publishes ${String(value.literal)} as the ${required}number '${name}' of '${contract.path}'; JSON has no ${String(value.literal).replace('-', '')}, so the parameter would hold null. Publish a finite number.`,
        paths: [contract.path, p.stack],
      });
    }
  }
  return found;
}
