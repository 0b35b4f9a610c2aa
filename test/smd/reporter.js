/**
 * A jest reporter that ends the run with ONE line saying how structured-merge-diff's verdicts were obtained:
 * live from the Go oracle, or from the vectors recorded in test/smd/vectors/ and why (Go absent).
 *
 * It gives the test processes a folder (CDK_CAPABILITY_SMD_RUN_DIR, inherited by jest's workers, which start
 * after the reporters) where test/smd/verdicts.ts leaves one note per suite; it prints nothing when no suite ran.
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

class SmdVerdictsReporter {
  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-smd-run-'));
    process.env.CDK_CAPABILITY_SMD_RUN_DIR = this.dir;
  }

  onRunComplete() {
    let runs = [];
    try {
      runs = fs.readdirSync(this.dir).sort().map((f) => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf-8')));
    } finally {
      fs.rmSync(this.dir, { recursive: true, force: true });
    }
    if (runs.length === 0) return;
    const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
    const count = (list) => `${plural(list.length, 'suite')}, ${plural(list.reduce((n, r) => n + r.cases, 0), 'case')}`;
    const recorded = runs.filter((r) => r.mode === 'recorded');
    const live = runs.filter((r) => r.mode === 'live');
    const parts = [];
    if (live.length > 0) parts.push(`${count(live)} ran live against the Go oracle and matched the recorded vectors`);
    if (recorded.length > 0) {
      const reasons = [...new Set(recorded.map((r) => r.reason))].join('; ');
      parts.push(`${count(recorded)} compared with the vectors recorded in test/smd/vectors/, not live: ${reasons} (install with \`bash test/smd/install.sh\`; .ci/run does)`);
    }
    process.stdout.write(`structured-merge-diff: ${parts.join('; ')}\n`);
  }
}

module.exports = SmdVerdictsReporter;
