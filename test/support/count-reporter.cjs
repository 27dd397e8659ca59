'use strict';
// Mocha's spec reporter, plus the one plain closing line CI reads: "N passed, N failed".
// It also writes the counts to build/test-counts.json so .ci/run can check them.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      const dir = path.resolve('build');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'test-counts.json'), JSON.stringify({ passes, failures, pending }) + '\n');
      // After the spec reporter's epilogue.
      process.nextTick(() => process.stdout.write(`${passes} passed, ${failures} failed\n`));
    });
  }
}

module.exports = CountReporter;
