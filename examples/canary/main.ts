// `cdk8s synth` entry point: CANARY_STAGE=canary|half|rollback (default canary).
import { build, Stage, STAGES } from './composition';
import { CapabilityApp } from '../../src';

const stage = (process.env.CANARY_STAGE ?? 'canary') as Stage;
if (!(stage in STAGES)) throw new Error(`CANARY_STAGE must be one of ${Object.keys(STAGES).join(', ')}, not ${JSON.stringify(stage)}`);
const app = new CapabilityApp();
build(app, stage);
app.synth();
