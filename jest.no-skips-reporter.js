// Under CI=true a skipped or todo test fails the run (the CI summary line must count 0 skipped): a suite that
// cannot run where CI runs it is a failure, never a silent pass. Locally skipped tests are only listed.
class NoSkipsReporter {
  constructor() {
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const skipped = [];
    for (const suite of results.testResults) {
      for (const test of suite.testResults) {
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
          skipped.push(`${suite.testFilePath}: ${test.fullName}`);
        }
      }
    }
    if (skipped.length === 0) return;
    const list = skipped.map((name) => `  ${name}`).join('\n');
    if (process.env.CI === 'true') {
      this.error = new Error(`${skipped.length} test(s) skipped under CI=true:\n${list}`);
      process.stderr.write(`\n${this.error.message}\n`);
    } else {
      process.stderr.write(`\n${skipped.length} test(s) skipped (a failure under CI=true):\n${list}\n`);
    }
  }

  getLastError() {
    return this.error;
  }
}

module.exports = NoSkipsReporter;
