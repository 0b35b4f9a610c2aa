// Run after the test framework is set up in every test file (jest `setupFilesAfterEnv`, set in .projenrc.ts):
// a synth holds its outdir lock and run folder with a refreshing worker thread, and a test that synthesizes
// without releasing them leaves that thread to the end of the file. Each file has its own copy of the module
// (jest's module registry), so each ends its own thread here; otherwise the threads of many files pile up in one
// jest worker and delay its exit ("A worker process has failed to exit gracefully").
import { endRefreshingThread } from '../src/private/heartbeat';

afterAll(() => endRefreshingThread());
