// `npx ts-node --transpile-only refused.ts`: exits 1 with CAP001, writes nothing.
import { build } from './composition';

build(false).synth();
