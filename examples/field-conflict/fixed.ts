// `npx ts-node --transpile-only fixed.ts` (or `cdk8s synth`): one object with every field, in dist/.
import { build } from './composition';

build(true).synth();
