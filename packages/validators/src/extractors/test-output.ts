import { stripAnsi } from "../ansi.ts";
import { displayPath, splitLines } from "../paths.ts";

export type TestFramework = "vitest" | "jest" | "node:test" | "deno" | "pytest" | "go" | "unknown";

export interface TestFailure {
  /** The test's name as the tool prints it (vitest `a > b`, jest `a › b`, pytest `Cls::test`). */
  readonly name: string;
  readonly file?: string;
  /** The first line of the failure message. */
  readonly message?: string;
}

export interface TestReport {
  readonly framework: TestFramework;
  readonly passed: number;
  readonly failed: number;
  /** Skipped, ignored, todo and expected-failure tests. */
  readonly skipped: number;
  readonly failures: TestFailure[];
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function failure(name: string, file?: string, message?: string): TestFailure {
  return {
    name,
    ...(file === undefined || file === "" ? {} : { file }),
    ...(message === undefined || message === "" ? {} : { message }),
  };
}

/** Adds `N word` parts (`2 failed`, `1 skipped`) to counts; words not about tests are ignored. */
function addCountParts(counts: Counts, parts: Iterable<string>): void {
  for (const part of parts) {
    const match = /(\d+)\s+([a-z ]+?)\s*$/i.exec(part.trim());
    if (!match) continue;
    const count = Number(match[1]);
    const word = (match[2] as string).toLowerCase();
    if (word === "passed" || word === "xpassed" || word === "pass") counts.passed += count;
    else if (/^(failed|fail|errors?|cancelled)$/.test(word)) counts.failed += count;
    else if (/^(skipped|skip|todo|ignored|pending|xfailed|expected fail)$/.test(word)) {
      counts.skipped += count;
    }
  }
}

function firstMessageLine(
  lines: readonly string[],
  from: number,
  stop?: RegExp,
): string | undefined {
  for (let index = from; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (stop?.test(lines[index] as string)) return undefined;
    if (line !== "" && !/^[⎯─-]{3,}/.test(line)) return line;
  }
  return undefined;
}

function splitLocation(location: string, cwd?: string): string {
  return displayPath(location.replace(/:\d+(?::\d+)?$/, ""), cwd);
}

// --- vitest --------------------------------------------------------------------------------------

function parseVitest(lines: readonly string[]): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: TestFailure[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const summary = /^\s*Tests\s{2,}(.+?)\s*\(\d+\)\s*$/.exec(line);
    if (summary) {
      addCountParts(counts, (summary[1] as string).split("|"));
      continue;
    }
    const failed = /^\s*FAIL\s+(?:\|[^|]+\|\s+)?(.+?)\s*$/.exec(line);
    if (failed) {
      const subject = (failed[1] as string).replace(/\s*\[.*\]$/, "");
      const parts = subject.split(" > ");
      const file = parts[0] as string;
      const name = parts.length > 1 ? parts.slice(1).join(" > ") : file;
      failures.push(failure(name, file, firstMessageLine(lines, index + 1, /^\s*FAIL\s/)));
    }
  }
  return { ...counts, failures };
}

// --- jest ----------------------------------------------------------------------------------------

function parseJest(lines: readonly string[]): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: TestFailure[] = [];
  let file: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const summary = /^Tests:\s+(.+)$/.exec(line);
    if (summary) {
      addCountParts(
        counts,
        (summary[1] as string).split(",").filter((part) => !/total/.test(part)),
      );
      continue;
    }
    const suite = /^(?:FAIL|PASS)\s+(.+?)(?:\s+\([\d.]+\s*m?s\))?$/.exec(line);
    if (suite) {
      file = (suite[1] as string).trim();
      continue;
    }
    const bullet = /^\s+● (.+)$/.exec(line);
    if (bullet && !/^Console$/.test(bullet[1] as string)) {
      failures.push(
        failure(bullet[1] as string, file, firstMessageLine(lines, index + 1, /^\s+● /)),
      );
    }
  }
  return { ...counts, failures };
}

// --- node:test -----------------------------------------------------------------------------------

function unquoteYamlScalar(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith("'") && trimmed.endsWith("'"))
    return trimmed.slice(1, -1).replaceAll("''", "'");
  if (trimmed.startsWith('"') && trimmed.endsWith('"')) {
    try {
      return JSON.parse(trimmed) as string;
    } catch {
      return trimmed.slice(1, -1);
    }
  }
  return trimmed;
}

function parseNodeTap(lines: readonly string[], cwd?: string): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: TestFailure[] = [];
  const open: { indent: number; name: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const total = /^# (pass|fail|skipped|todo|cancelled) (\d+)$/.exec(line);
    if (total) {
      addCountParts(counts, [`${total[2]} ${total[1]}`]);
      continue;
    }
    const subtest = /^(\s*)# Subtest: (.+)$/.exec(line);
    if (subtest) {
      const indent = (subtest[1] as string).length;
      while (open.length > 0 && (open.at(-1)?.indent ?? 0) >= indent) open.pop();
      open.push({ indent, name: subtest[2] as string });
      continue;
    }
    const result = /^(\s*)(not ok|ok) \d+ - (.+?)(?: # .*)?$/.exec(line);
    if (!result) continue;
    const indent = (result[1] as string).length;
    const parents = open.filter((item) => item.indent < indent).map((item) => item.name);
    while (open.length > 0 && (open.at(-1)?.indent ?? 0) >= indent) open.pop();
    if (result[2] !== "not ok") continue;
    // The YAML diagnostic block under the result line.
    let failureType: string | undefined;
    let location: string | undefined;
    let message: string | undefined;
    for (let inner = index + 1; inner < lines.length; inner++) {
      const detail = lines[inner] as string;
      if (/^\s*\.\.\.$/.test(detail)) break;
      if (/^\s*(?:not ok|ok) \d+ /.test(detail) || /^\s*# Subtest:/.test(detail)) break;
      const field = /^\s+(failureType|location|error):\s?(.*)$/.exec(detail);
      if (!field) continue;
      const value = field[2] as string;
      if (field[1] === "failureType") failureType = unquoteYamlScalar(value);
      if (field[1] === "location") location = unquoteYamlScalar(value);
      if (field[1] === "error") {
        message = /^[|>][-+]?$/.test(value.trim())
          ? firstMessageLine(lines, inner + 1)
          : unquoteYamlScalar(value);
      }
    }
    if (failureType === "subtestsFailed") continue;
    const name = [...parents, (result[3] as string).replaceAll("\\#", "#")].join(" > ");
    failures.push(
      failure(name, location === undefined ? undefined : splitLocation(location, cwd), message),
    );
  }
  return { ...counts, failures };
}

function parseNodeSpec(lines: readonly string[], cwd?: string): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: TestFailure[] = [];
  let inFailing = false;
  let location: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const total = /^ℹ (pass|fail|skipped|todo|cancelled) (\d+)$/.exec(line);
    if (total) {
      addCountParts(counts, [`${total[2]} ${total[1]}`]);
      continue;
    }
    if (/^✖ failing tests:$/.test(line)) {
      inFailing = true;
      continue;
    }
    if (!inFailing) continue;
    const at = /^test at (.+)$/.exec(line);
    if (at) {
      location = at[1] as string;
      continue;
    }
    const failed = /^✖ (.+?)(?: \([\d.]+m?s\))?(?: # .*)?$/.exec(line);
    if (failed) {
      failures.push(
        failure(
          failed[1] as string,
          location === undefined ? undefined : splitLocation(location, cwd),
          firstMessageLine(lines, index + 1, /^(?:test at |✖ )/),
        ),
      );
      location = undefined;
    }
  }
  return { ...counts, failures };
}

// --- deno ----------------------------------------------------------------------------------------

function parseDeno(lines: readonly string[]): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: TestFailure[] = [];
  let section: "none" | "errors" | "failures" = "none";
  const seen = new Set<string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const summary = /^(?:ok|FAILED) \| (.+?)(?:\s+\([\d.]+m?s\))?$/.exec(line);
    if (summary) {
      const parts = (summary[1] as string).split("|").map((part) => part.replace(/\(.*?\)/g, ""));
      addCountParts(counts, parts);
      continue;
    }
    if (/^\s*ERRORS\s*$/.test(line)) {
      section = "errors";
      continue;
    }
    if (/^\s*FAILURES\s*$/.test(line)) {
      section = "failures";
      continue;
    }
    if (section === "none") continue;
    const head = /^(.+?) => (.+?):\d+:\d+$/.exec(line);
    if (!head) continue;
    const name = head[1] as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const file = (head[2] as string).replace(/^\.\//, "");
    const message =
      section === "errors"
        ? firstMessageLine(lines, index + 1, / => .+:\d+:\d+$/)?.replace(/^error: /, "")
        : undefined;
    failures.push(failure(name, file, message));
  }
  return { ...counts, failures };
}

// --- pytest --------------------------------------------------------------------------------------

function parsePytest(lines: readonly string[]): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: TestFailure[] = [];
  let summary: string | undefined;
  for (const line of lines) {
    const match = /^(?:=+ )?((?:\d+ [a-z]+(?:, )?)+)(?: in [\d.]+s(?: \([^)]*\))?)(?: =+)?$/.exec(
      line.trim(),
    );
    if (match) summary = match[1];
  }
  if (summary !== undefined) addCountParts(counts, summary.split(","));
  for (const line of lines) {
    const short = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/.exec(line);
    if (!short) continue;
    const nodeId = short[2] as string;
    const separator = nodeId.indexOf("::");
    const file = separator === -1 ? nodeId : nodeId.slice(0, separator);
    const name = separator === -1 ? nodeId : nodeId.slice(separator + 2);
    failures.push(failure(name, file, short[3]));
  }
  if (failures.length > 0) return { ...counts, failures };
  // Without the short summary (-rN): the `____ name ____` sections of the FAILURES block.
  for (let index = 0; index < lines.length; index++) {
    const head = /^_{3,} (.+?) _{3,}$/.exec(lines[index] as string);
    if (!head) continue;
    let file: string | undefined;
    let message: string | undefined;
    for (let inner = index + 1; inner < lines.length; inner++) {
      const detail = lines[inner] as string;
      if (/^_{3,} .+ _{3,}$/.test(detail) || /^=+ .* =+$/.test(detail)) break;
      const error = /^E\s+(.*)$/.exec(detail);
      if (error && message === undefined) message = (error[1] as string).trim();
      const where = /^(\S+\.py):\d+: /.exec(detail);
      if (where && file === undefined) file = where[1];
    }
    failures.push(failure((head[1] as string).replace(/\./g, "::"), file, message));
  }
  return { ...counts, failures };
}

// --- go test -------------------------------------------------------------------------------------

function parseGo(lines: readonly string[]): Omit<TestReport, "framework"> {
  const results: { name: string; status: string }[] = [];
  const logs = new Map<string, { file: string; message: string }>();
  const buildFailures: TestFailure[] = [];
  let current: string | undefined;
  for (const line of lines) {
    const run = /^=== (?:RUN|CONT|PAUSE)\s+(\S+)/.exec(line);
    if (run) {
      current = run[1];
      continue;
    }
    const result = /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/.exec(line);
    if (result) {
      results.push({ status: result[1] as string, name: result[2] as string });
      current = result[2];
      continue;
    }
    const log = /^\s+(\S+\.go):\d+: (.*)$/.exec(line);
    if (log && current !== undefined && !logs.has(current)) {
      logs.set(current, { file: log[1] as string, message: (log[2] as string).trim() });
      continue;
    }
    const build = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]$/.exec(line);
    if (build) buildFailures.push(failure(build[1] as string, undefined, build[2]));
  }
  // A test with subtests reports its own PASS/FAIL too; count only the leaves.
  const names = results.map((item) => item.name);
  const leaves = results.filter(
    (item) => !names.some((other) => other.startsWith(`${item.name}/`)),
  );
  const counts: Counts = { passed: 0, failed: buildFailures.length, skipped: 0 };
  const failures: TestFailure[] = [];
  const seen = new Set<string>();
  for (const item of leaves) {
    if (seen.has(item.name)) continue;
    seen.add(item.name);
    if (item.status === "PASS") counts.passed += 1;
    else if (item.status === "SKIP") counts.skipped += 1;
    else {
      counts.failed += 1;
      const log = logs.get(item.name);
      failures.push(failure(item.name, log?.file, log?.message));
    }
  }
  return { ...counts, failures: [...failures, ...buildFailures] };
}

interface GoEvent {
  readonly Action?: string;
  readonly Package?: string;
  readonly Test?: string;
  readonly Output?: string;
}

/** `go test -json`: one event per line; results from pass/fail/skip events, messages from output. */
function parseGoJson(lines: readonly string[]): Omit<TestReport, "framework"> {
  const text: string[] = [];
  const failedPackages = new Set<string>();
  const packagesWithFailedTests = new Set<string>();
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    let event: GoEvent;
    try {
      event = JSON.parse(line) as GoEvent;
    } catch {
      continue;
    }
    if (event.Action === "output" && event.Output !== undefined) {
      // Packages run in parallel and their events interleave; the event names its test, so the
      // line is attributed to it whatever printed last.
      if (event.Test !== undefined) text.push(`=== CONT  ${event.Test}`);
      text.push(...splitLines(event.Output.replace(/\n$/, "")));
    }
    if (event.Action === "fail" && event.Package !== undefined) {
      if (event.Test === undefined) failedPackages.add(event.Package);
      else packagesWithFailedTests.add(event.Package);
    }
  }
  const report = parseGo(text);
  // A package that failed with no failing test did not build (or its TestMain failed).
  const broken = [...failedPackages].filter((name) => !packagesWithFailedTests.has(name));
  const known = new Set(report.failures.map((item) => item.name));
  const extra = broken
    .filter((name) => !known.has(name))
    .map((name) => failure(name, undefined, "package failed"));
  return {
    ...report,
    failed: report.failed + extra.length,
    failures: [...report.failures, ...extra],
  };
}

// --- any -----------------------------------------------------------------------------------------

function parsePlain(lines: readonly string[]): Omit<TestReport, "framework"> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const line of lines) {
    const match = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/.exec(line.trim());
    if (match) {
      counts.passed = Number(match[1]);
      counts.failed = Number(match[2]);
      counts.skipped = Number(match[3] ?? 0);
    }
  }
  return { ...counts, failures: [] };
}

/** Which runner printed this text (ANSI already stripped). */
export function detectTestFramework(text: string): TestFramework {
  if (/^running \d+ tests? from /m.test(text) || /^(?:ok|FAILED) \| \d+ passed/m.test(text)) {
    return "deno";
  }
  if (/^\s*Test Files\s{2,}.*\(\d+\)\s*$/m.test(text) || /^\s*RUN\s+v\d+\.\d+/m.test(text)) {
    return "vitest";
  }
  if (/^Tests:\s+.*\d+ total/m.test(text) || /^\s+● .+/m.test(text)) return "jest";
  if (/^# (?:pass|fail) \d+$/m.test(text) || /^TAP version \d+/m.test(text)) return "node:test";
  if (/^ℹ (?:tests|pass|fail) \d+$/m.test(text)) return "node:test";
  if (
    /^=+ test session starts =+$/m.test(text) ||
    /^=+ .*\bin [\d.]+s.* =+$/m.test(text) ||
    /^(?:FAILED|ERROR) \S+\.py::/m.test(text) ||
    /^\d+ (?:passed|failed|errors?|skipped)(?:, \d+ [a-z]+)* in [\d.]+s$/m.test(text)
  ) {
    return "pytest";
  }
  if (/^\{"Time":.*"Action":/m.test(text)) return "go";
  if (/^\s*--- (?:PASS|FAIL|SKIP): /m.test(text) || /^(?:ok|FAIL|\?)\s+\S+\s/m.test(text)) {
    return "go";
  }
  return "unknown";
}

/**
 * Counts and failures from a test runner's output: vitest, jest, node:test (TAP and spec
 * reporters), deno test, pytest, go test. Output of an unrecognised runner gives framework
 * `unknown` with counts from a plain `N passed, N failed[, N skipped]` line, or zeros.
 */
export function parseTestOutput(stdout: string, stderr = "", cwd?: string): TestReport {
  const text = [stripAnsi(stdout), stripAnsi(stderr)].filter((part) => part !== "").join("\n");
  const lines = splitLines(text);
  const framework = detectTestFramework(text);
  switch (framework) {
    case "vitest":
      return { framework, ...parseVitest(lines) };
    case "jest":
      return { framework, ...parseJest(lines) };
    case "node:test":
      return {
        framework,
        ...(/^# (?:pass|fail) \d+$/m.test(text) || /^TAP version/m.test(text)
          ? parseNodeTap(lines, cwd)
          : parseNodeSpec(lines, cwd)),
      };
    case "deno":
      return { framework, ...parseDeno(lines) };
    case "pytest":
      return { framework, ...parsePytest(lines) };
    case "go":
      return {
        framework,
        ...(/^\{"Time":.*"Action":/m.test(text) ? parseGoJson(lines) : parseGo(lines)),
      };
    case "unknown":
      return { framework, ...parsePlain(lines) };
  }
}
