import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** One test file's times, as `scripts/slowest-tests.mjs` reads them. */
export interface TestFileTimes {
  readonly file: string;
  /** Its tests and hooks (beforeAll/afterAll included), the time the file held its worker. */
  readonly ms: number;
  /** Importing the file and running its suite callbacks. */
  readonly collectMs: number;
  readonly tests: number;
  readonly slowestTestMs: number;
  readonly state: string;
}

/**
 * Writes each test file's times to a JSON file when the run ends. vitest's own JSON report times a
 * file from its first test to its last, leaving out `beforeAll` hooks, where the end-to-end files
 * build their projects; this reporter takes vitest's module diagnostic, which counts them.
 */
export class TestTimesReporter implements Reporter {
  private root = process.cwd();

  constructor(private readonly outputFile: string) {}

  onInit(vitest: { readonly config: { readonly root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files: TestFileTimes[] = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const tests = [...module.children.allTests()];
      const slowest = Math.max(0, ...tests.map((test) => test.diagnostic()?.duration ?? 0));
      return {
        file: module.moduleId,
        ms: Math.round(diagnostic.duration),
        collectMs: Math.round(diagnostic.collectDuration),
        tests: tests.length,
        slowestTestMs: Math.round(slowest),
        state: module.state(),
      };
    });
    const target = path.resolve(this.root, this.outputFile);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify({ files }, null, 2)}\n`);
  }
}
