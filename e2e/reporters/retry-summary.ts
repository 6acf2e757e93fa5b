import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * One line at the end of a run that names every test that passed only on a retry. CI retries a
 * failed test once (playwright.config.ts) so that one flake does not stop a landing; this line
 * (which `.ci/run` repeats in its summary) keeps the flake in sight until it is fixed.
 */
export default class RetrySummary implements Reporter {
  private readonly retried = new Map<string, TestCase>();

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry > 0 && result.status === 'passed') this.retried.set(test.id, test);
  }

  onEnd(_result: FullResult): void {
    const names = [...this.retried.values()].map((test) => test.titlePath().filter(Boolean).join(' › '));
    console.log(names.length ? `e2e passed on retry: ${names.length} — ${names.join('; ')}` : 'e2e passed on retry: 0');
  }

  printsToStdio(): boolean {
    return false;
  }
}
