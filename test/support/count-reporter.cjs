'use strict';
// Mocha's spec reporter, plus the one plain closing line CI reads: "N passed, N failed".
// It also writes the counts to build/test-counts.json (or $IRILINK_COUNTS_FILE) so .ci/run can add them up.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      const file = path.resolve(process.env.IRILINK_COUNTS_FILE || path.join('build', 'test-counts.json'));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ passes, failures, pending }) + '\n');
      // After the spec reporter's epilogue.
      process.nextTick(() => process.stdout.write(`${passes} passed, ${failures} failed\n`));
    });
  }
}

module.exports = CountReporter;
