// A vitest reporter beside the default one: every minute it names the test files that have been running for more
// than three minutes, with the test each is in, so that a hang says where it is. (The longest file takes about 40 s.)
const REPORT_AFTER_MS = 3 * 60_000;

export default class LongFilesReporter {
  running = new Map();
  timer = undefined;

  onTestRunStart() {
    this.timer = setInterval(() => this.report(), 60_000);
    this.timer.unref();
  }

  onTestModuleStart(testModule) {
    this.running.set(testModule.moduleId, { since: Date.now(), test: undefined });
  }

  onTestCaseReady(testCase) {
    const entry = this.running.get(testCase.module.moduleId);
    if (entry) entry.test = testCase.fullName;
  }

  onTestModuleEnd(testModule) {
    this.running.delete(testModule.moduleId);
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  report() {
    const now = Date.now();
    for (const [file, { since, test }] of this.running) {
      if (now - since < REPORT_AFTER_MS) continue;
      const minutes = Math.floor((now - since) / 60_000);
      const where = test ? ` (in "${test}")` : ' (in its set-up)';
      process.stderr.write(`Still running after ${minutes} min: ${file.replace(`${process.cwd()}/`, '')}${where}\n`);
    }
  }
}
