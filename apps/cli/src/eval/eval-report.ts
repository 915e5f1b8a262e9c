import { formatTable } from "../commands/runs.ts";
import { formatDuration, formatUsd } from "../progress/format.ts";
import type { CaseReport } from "./eval-case.ts";

/** "pass", "FAIL", "needs live run from continuation.implement", "ERROR". */
export function resultLabel(report: CaseReport): string {
  switch (report.status) {
    case "passed":
      return report.rerecorded === true ? `pass (re-recorded from ${report.fromStep})` : "pass";
    case "failed":
      return "FAIL";
    case "needs-live":
      return `needs a live run from ${report.fromStep}`;
    case "error":
      return "ERROR";
  }
}

/** The table for people: one row per case, then the failures' details. */
export function formatEvalTable(reports: readonly CaseReport[]): string {
  const rows = [
    ["CASE", "RESULT", "ITER", "COST", "TIME"],
    ...reports.map((report) => [
      report.name,
      resultLabel(report),
      String(report.iterations),
      formatUsd(report.costUsd),
      formatDuration(report.durationMs),
    ]),
  ];
  const details = reports
    .filter((report) => report.status !== "passed" && report.details.length > 0)
    .map((report) => `${report.name}:\n${report.details.map((line) => `  - ${line}`).join("\n")}`);
  const kept = reports.flatMap((report) =>
    (report.kept ?? []).map((dir) => `${report.name}: kept ${dir}`),
  );
  if (kept.length > 0) details.push(kept.join("\n"));
  const passed = reports.filter((report) => report.status === "passed").length;
  return `${formatTable(rows)}\n${details.length === 0 ? "" : `\n${details.join("\n")}\n`}\n${passed} of ${reports.length} case(s) passed.\n`;
}

function xml(text: string): string {
  let escaped = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    // Control characters other than tab and newline are not allowed in XML 1.0.
    if (code < 0x20 && char !== "\t" && char !== "\n") continue;
    escaped +=
      char === "&"
        ? "&amp;"
        : char === "<"
          ? "&lt;"
          : char === ">"
            ? "&gt;"
            : char === '"'
              ? "&quot;"
              : char;
  }
  return escaped;
}

/**
 * JUnit XML, as CI test reporters read it: one testcase per case; a failed or needs-live case is
 * a <failure>, a case that could not run an <error>.
 */
export function formatJunit(suiteName: string, reports: readonly CaseReport[]): string {
  const failures = reports.filter((r) => r.status === "failed" || r.status === "needs-live").length;
  const errors = reports.filter((r) => r.status === "error").length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = reports.reduce((sum, report) => sum + report.durationMs, 0);
  const cases = reports.map((report) => {
    const open = `    <testcase classname="climpt.eval" name="${xml(report.name)}" time="${seconds(report.durationMs)}"`;
    if (report.status === "passed") return `${open}/>`;
    const tag = report.status === "error" ? "error" : "failure";
    const message =
      report.status === "needs-live"
        ? resultLabel(report)
        : (report.details[0] ?? resultLabel(report));
    return `${open}>\n      <${tag} message="${xml(message)}">${xml(report.details.join("\n"))}</${tag}>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${reports.length}" failures="${failures}" errors="${errors}" time="${seconds(total)}">`,
    `  <testsuite name="${xml(suiteName)}" tests="${reports.length}" failures="${failures}" errors="${errors}" time="${seconds(total)}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A markdown summary for a CI job page or a pull request comment. */
export function formatMarkdown(suiteName: string, reports: readonly CaseReport[]): string {
  const passed = reports.filter((report) => report.status === "passed").length;
  const icon = (report: CaseReport) =>
    report.status === "passed" ? "✅" : report.status === "needs-live" ? "🔁" : "❌";
  const lines = [
    `## climpt eval: ${cell(suiteName)}`,
    "",
    `${passed} of ${reports.length} case(s) passed.`,
    "",
    "| case | result | iterations | cost |",
    "| --- | --- | ---: | ---: |",
    ...reports.map(
      (report) =>
        `| ${cell(report.name)} | ${icon(report)} ${cell(resultLabel(report))} | ${report.iterations} | ${formatUsd(report.costUsd)} |`,
    ),
  ];
  const failing = reports.filter((report) => report.status !== "passed");
  if (failing.length > 0) {
    lines.push("", "### Details", "");
    for (const report of failing) {
      lines.push(`- **${cell(report.name)}**`);
      for (const line of report.details) lines.push(`  - ${cell(line)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
