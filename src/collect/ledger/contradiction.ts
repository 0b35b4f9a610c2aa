// Its own module (types only), so that the facts' declarations name it without the ledger's modules (issue 23).
import type { FieldPath } from './field-path';

/**
 * Something in a merged object that the API server refuses although every
 * writer's own fields are fine: the writers' fields together contradict.
 */
export type Contradiction =
  | {
    /** Two or more elements of one associative list with one key: server-side apply refuses the object. */
    readonly kind: 'duplicate-key';
    /** The list. */
    readonly path: FieldPath;
    /** The element key segment the elements share, `k:{"name":"api"}`. */
    readonly key: string;
    /** How many elements have it. */
    readonly count: number;
  }
  | {
    /** Elements of one associative list without a key field that has no default: server-side apply refuses the object. */
    readonly kind: 'missing-key';
    /** The list. */
    readonly path: FieldPath;
    /** The element key segment the elements have, a missing key spelt `null`: `k:{"host":"b","port":null}`. */
    readonly key: string;
    /** The key fields missing, in the schema's order. */
    readonly missing: readonly string[];
    /** How many elements have this key. */
    readonly count: number;
  }
  | {
    /** A value held twice or more by one set (`finalizers: [a, a]`): server-side apply refuses the object. */
    readonly kind: 'duplicate-value';
    /** The set. */
    readonly path: FieldPath;
    /** The set value segment, `v:"a"`. */
    readonly value: string;
    /** How many times the set holds it. */
    readonly count: number;
  }
  | {
    /** A Service with more than one port, some without a name: the API server requires each to have one. */
    readonly kind: 'unnamed-ports';
    /** The ports list, `spec.ports`. */
    readonly path: FieldPath;
    /** The element key segments of the ports without a name, `k:{"port":443,"protocol":"TCP"}`. */
    readonly keys: readonly string[];
    /** How many ports the Service has. */
    readonly count: number;
  }
  | {
    /** Fields of one struct of which the API server allows at most one (`value` beside `valueFrom`). */
    readonly kind: 'exclusive-fields';
    /** The struct. */
    readonly path: FieldPath;
    /** The fields set, in the schema's order. */
    readonly fields: readonly string[];
  };
