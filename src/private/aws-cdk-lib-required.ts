/**
 * The main entry point's first module: it loads aws-cdk-lib (the `Capability` of `cdk-capability` is an aws-cdk
 * `Stage`, and loads it next anyway), and refuses a program without it installed with one coded `CAP010` naming
 * the two ways on, not Node's `Cannot find module 'aws-cdk-lib'` with a stack into lib/bundle.js. aws-cdk-lib is an
 * optional peer: a program of `cdk-capability/runtime`, which never loads this module, need not install it.
 */
import { invalidInput } from './invalid-input';

/** The peer range of aws-cdk-lib (package.json's `peerDependencies`), as the message names it. */
const AWS_CDK_LIB_RANGE = '^2.262.0';

try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a require that may fail, caught to refuse with a code
  require('aws-cdk-lib');
} catch (e) {
  if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((e as Error).message).includes("'aws-cdk-lib'")) throw e;
  throw invalidInput(
    "cdk-capability's main entry point needs aws-cdk-lib (its Capability is an aws-cdk Stage that takes stacks), an optional peer, and it is not installed. "
      + `Install it (npm i aws-cdk-lib@${AWS_CDK_LIB_RANGE}), or import from 'cdk-capability/runtime' for a composition of cdk8s charts alone.`,
  );
}
