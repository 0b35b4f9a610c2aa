/**
 * Edits of examples/published-construct/queue-worker/src/index.ts that make its other releases, as [text, replacement]
 * pairs: the tests of package releases (trial10, advice2) build each release from the example's source with them.
 */

/** Release 2.0.0 with major 1 retired: release 3.0.0. */
export const RETIRE_V1: Array<[string, string]> = [
  [`    this.contractV1 = new InterfaceContract(this, 'Queue', {
      version: '1.1.0',
      fields: { queueUrl: Field.string(), tableName: Field.string(), deadLetterQueueUrl: Field.string() },
    });
`, ''],
  ['    this.contractV1.publish(this.base, { queueUrl: this.queue.queueUrl, tableName: this.table.tableName, deadLetterQueueUrl: deadLetters.queueUrl });\n', ''],
];
