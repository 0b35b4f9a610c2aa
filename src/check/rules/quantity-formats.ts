import type { ObjectFact } from '../../collect/facts';
import { describeIdentity } from '../../collect/object-identity';
import { quantityProblems } from '../../collect/scalar-types';
import { topologyOf } from '../../collect/topology/field-topology';
import { manifestPathText } from '../../collect/topology/manifest-path-text';
import { parseQuantity } from '../../private/quantity';
import { ViolationCode } from '../finding';
import { objectField } from '../placement';
import { defineRule, RuleFinding } from '../rule';
import { fieldPathOf } from './unseen-fields';

/** What a quantity is, as the message says it. */
const GRAMMAR = 'a quantity is a number with an optional suffix: n, u, m, k, M, G, T, P, E (powers of 10), Ki, Mi, Gi, Ti, Pi, Ei (powers of 2), or an exponent such as e3';

/**
 * `CAP010`: a resource quantity the API server cannot parse (`resources.limits.memory: 1Gb`, `cpu: 500 m`),
 * in any field Kubernetes 1.30's schema types `Quantity` (`quantityProblems`). kubectl, Argo CD and Flux send
 * the manifest and the API server refuses it (`quantities must match the regular expression ...`), after earlier
 * steps were already applied. The message names the field, the value, and the nearest text that parses.
 */
export const quantityFormats = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'quantity formats',
  explanation: "A resource quantity (a container's limits and requests, a volume's sizeLimit, a PVC's storage) must parse as Kubernetes parses it: a number and one of its suffixes, as 500m, 1.5Gi, 2e3; the API server refuses any other text.",
  run: ({ facts }) => facts.objects.flatMap((o) => (o.duplicateOf === undefined ? problemsOf(o) : [])),
});

function problemsOf(object: ObjectFact): RuleFinding[] {
  const problems = quantityProblems(object.identity.group, object.identity.kind, object.manifest);
  if (problems.length === 0) return [];
  const what = describeIdentity({ ...object.identity, name: object.identity.name || '(no name)' });
  const topology = topologyOf(String(object.manifest?.apiVersion ?? ''), object.identity.kind);
  return problems.map((p) => {
    const field = manifestPathText(p.at, object.manifest, topology);
    const nearest = nearestQuantities(p.value);
    const fix = nearest.length > 0 ? `Write ${nearest.map((q) => JSON.stringify(q)).join(' or ')}.` : 'Write a number, or a number and a suffix.';
    return {
      message: `'${field}' (${JSON.stringify(p.value)}) of ${what} declared by '${object.declarer}' is no quantity the API server can parse: ${GRAMMAR}. ${fix}`,
      paths: [object.declarer],
      field: objectField(object, fieldPathOf(p.at, object.manifest, topology)),
    };
  });
}

/**
 * The quantities nearest to a text the API server refuses, from the mistakes people make: a unit of bytes
 * (`1Gb`, `512MB`: both the power of 10 and the power of 2), a space (`500 m`), a decimal comma (`1,5Gi`), a
 * binary suffix in lower case (`1gi`), a unit word (`2 cores`, `1cpu`). Only texts that parse are offered.
 */
export function nearestQuantities(text: string): string[] {
  const squeezed = text.replace(/\s+/g, '').replace(/,/g, '.');
  const candidates: string[] = [squeezed];
  const bytes = /^([+-]?[0-9.]+)([kKmMgGtTpPeE])(i?)[bB]$/.exec(squeezed);
  if (bytes) {
    const [, n, unit, binary] = bytes;
    const decimal = unit === 'k' || unit === 'K' ? 'k' : unit.toUpperCase();
    candidates.length = 0;
    if (binary === '') candidates.push(`${n}${decimal}`);
    candidates.push(`${n}${unit.toUpperCase()}i`);
  }
  const lowerBinary = /^([+-]?[0-9.]+)([kmgtpe])i$/i.exec(squeezed);
  if (lowerBinary) candidates.push(`${lowerBinary[1]}${lowerBinary[2].toUpperCase()}i`);
  const word = /^([+-]?[0-9.]+)(cores?|cpus?|vcpus?)$/i.exec(squeezed);
  if (word) candidates.push(word[1]);
  const unique = [...new Set(candidates)];
  return unique.filter((q) => q !== text && parseQuantity(q) !== undefined);
}
