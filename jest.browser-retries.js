// Browser walks are retried once under CI, as Playwright's own test runner does on CI: the CI machine has two cores
// and runs every package's suites at once, and a walk of Chromium against the real services can then miss a state
// change it waits for. A retry is logged with the error that caused it (look for "RETRY" in the CI log), so a flaky
// walk is seen and mended, not hidden; a test that fails twice fails the run.
if (process.env.CI) jest.retryTimes(1, { logErrorsBeforeRetry: true });
