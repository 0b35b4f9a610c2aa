import { formatPath } from '../../collect/ledger/field-path';
import { describeIdentity } from '../../collect/object-identity';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';

/**
 * `CAP006`: an aws-cdk token (a deployment-time value) in a runtime manifest.
 * Only the interface contract crosses from deployment time to runtime; without
 * this rule the token renders silently as the text `${Token[TOKEN.16]}`.
 */
export const boundaryLeaks = defineRule({
  code: ViolationCode.BOUNDARY_LEAK,
  title: 'boundary leaks',
  run: ({ facts }) =>
    facts.deployTimeValues.map((v) => {
      const object = facts.objects[v.object];
      const where = v.isKey ? `as a key at ${formatPath(v.path)}` : `at ${formatPath(v.path)}`;
      return {
        message: `${describeIdentity(object.identity)} declared by '${object.declarer}' holds a deployment-time value ${where}${v.producer ? ` produced by '${v.producer}'` : ''}, which would render as unresolved token text such as "\${Token[TOKEN.16]}". Publish it through the capability's InterfaceContract and read it with contract.consume(chart).`,
        paths: v.producer ? [object.declarer, v.producer] : [object.declarer],
      };
    }),
});
