import { describe, expect, it } from "vitest";
import { ESC } from "./format.ts";
import { ProgressDisplay } from "./progress-display.ts";
import { renderTerminal, scriptedEvents, scriptedResult } from "./scripted-run.test-helper.ts";

/** Colour sequences only, so the tests can read the text a terminal shows. */
const COLOR = new RegExp(`${ESC}\\[[0-9;]*m`, "g");

function capture(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    sink: { write: (text: string) => void chunks.push(text), isTTY, columns: 100 },
    output: () => chunks.join(""),
    chunks,
  };
}

function display(isTTY: boolean, now = () => 0) {
  const out = capture(isTTY);
  const progress = new ProgressDisplay({
    out: out.sink,
    live: isTTY,
    columns: 120,
    now,
    resumeCommand: (runId) => `climpt run fix-bug --resume ${runId}`,
  });
  return { out, progress };
}

describe("ProgressDisplay without a terminal (logs, CI)", () => {
  it("prints plain lines only, with no escape code at all", () => {
    const { out, progress } = display(false);
    for (const event of scriptedEvents()) progress.handle(event);
    progress.textDelta("streamed text is not shown in logs");
    expect(out.output()).not.toContain("\x1b");
    expect(out.output()).not.toContain("\r");
    expect(out.output()).not.toContain("streamed text");
  });

  it("tells the story of the run: steps, tools, intents, routes, validators, verdicts, summary", () => {
    const { out, progress } = display(false);
    for (const event of scriptedEvents()) progress.handle(event);
    expect(out.output().split("\n")).toEqual([
      "climpt run fix-bug (gate dialect, entry initial.analyze, run 20261122T000000Z-abc123)",
      "[1] initial.analyze (work, claude-sonnet)",
      "  · Read src/slugify.js",
      "  · Bash node test/run.js",
      "    Bash failed: not ok 2 - slugify collapses dashes exit 1",
      "  ⊘ Bash refused: gh issue close is a boundary action",
      "  next → continuation.implement",
      "[2] closure.fix (closure, claude-sonnet)",
      "  closing → completion chain",
      "  ✗ git-clean: exit 0, but the output fails its successWhen (git status --porcelain)",
      "    M src/slugify.js",
      "  verdict: retry (git-dirty) → continuation.implement: git-clean failed",
      "[3] continuation.implement (work, claude-sonnet, retry prompt)",
      "[4] closure.fix (closure, claude-sonnet)",
      "  ✓ git-clean (12ms)",
      "  verdict: done all validators passed",
      "  warning: step closure.fix ran without tool calls",
      "✓ completed 4 iterations · 6,700 tokens (in 5,400, out 1,300) · $0.0351 · 1m 02s",
      "  closure.fix: closure.fix said closing and every validator passed",
      "  journal /repo/tmp/climpt/logs/fix-bug/20261122T000000Z-abc123.jsonl",
      "",
    ]);
  });

  it("ends a failed run with the code, the fix and how to resume it", () => {
    const { out, progress } = display(false);
    progress.finish(
      scriptedResult({
        success: false,
        error: {
          code: "AGENT_INTERRUPTED",
          severity: "error",
          message: "The run was stopped (SIGINT).",
          hint: "Continue it with --resume.",
        },
        resumable: true,
        iterations: 2,
      }),
    );
    const text = out.output();
    expect(text).toContain("✗ interrupted AGENT_INTERRUPTED: The run was stopped (SIGINT).");
    expect(text).toContain("  Fix: Continue it with --resume.");
    expect(text).toContain("  Resume: climpt run fix-bug --resume 20261122T000000Z-abc123");
    expect(text).not.toContain("\x1b");
  });

  it("names the run-level family after the specific code of a failed run", () => {
    const { out, progress } = display(false);
    progress.finish(
      scriptedResult({
        success: false,
        error: {
          code: "SR-INTENT-007",
          family: "FAILED_STEP_ROUTING",
          severity: "error",
          message: 'Step "continuation.work" returned no intent at "next_action.action".',
          path: '$.steps["continuation.work"].structuredGate.intentField',
        },
        iterations: 2,
      }),
    );
    expect(out.output()).toContain(
      '✗ failed SR-INTENT-007 (FAILED_STEP_ROUTING): Step "continuation.work" returned no intent',
    );
  });

  it("prints the summary once, whether run_end or the returned result comes first", () => {
    const { out, progress } = display(false);
    const result = scriptedResult();
    for (const event of scriptedEvents(result)) progress.handle(event);
    progress.finish(result);
    expect(out.output().match(/✓ completed/g)).toHaveLength(1);
  });
});

describe("ProgressDisplay on a terminal", () => {
  it("keeps a status line below the durable lines with step, iteration, tokens, cost and tools", () => {
    let clock = 0;
    const { out, progress } = display(true, () => clock);
    const events = scriptedEvents();
    // Everything up to the second tool result: a model call has reported its usage.
    for (const event of events.slice(0, 8)) progress.handle(event);
    clock = 42_000;
    progress.textDelta("Looking at slugify\nnow");
    const screen = renderTerminal(out.output());
    expect(screen.slice(0, -1).map((line) => line.replace(COLOR, ""))).toEqual([
      "climpt run fix-bug (gate dialect, entry initial.analyze, run 20261122T000000Z-abc123)",
      "[1] initial.analyze (work, claude-sonnet)",
      "  · Read src/slugify.js",
      "  · Bash node test/run.js",
      "    Bash failed: not ok 2 - slugify collapses dashes exit 1",
    ]);
    const status = (screen.at(-1) as string).replace(COLOR, "");
    expect(status).toBe(
      "⠋ 0:42 │ iter 1/100 │ initial.analyze │ thinking │ 1.50k tok │ $0.0081 │ 2 tools │ Looking at slugify now",
    );
    expect(status.length).toBeLessThan(120);
    progress.close();
  });

  it("redraws in place: every status update clears the line first and never adds a line", () => {
    const { out, progress } = display(true);
    for (const event of scriptedEvents().slice(0, 4)) progress.handle(event);
    const updates = out.chunks.filter(
      (chunk) => !chunk.endsWith("\n") && chunk.startsWith("\r\x1b[2K"),
    );
    expect(updates.length).toBeGreaterThan(2);
    expect(updates.every((chunk) => !chunk.includes("\n"))).toBe(true);
    progress.close();
  });

  it("cuts the status line to the terminal width so it never wraps", () => {
    const out = capture(true);
    const progress = new ProgressDisplay({ out: out.sink, live: true, columns: 40, now: () => 0 });
    for (const event of scriptedEvents().slice(0, 5)) progress.handle(event);
    const status = renderTerminal(out.output()).at(-1) as string;
    expect(status.replace(COLOR, "").length).toBeLessThanOrEqual(39);
    progress.close();
  });

  it("removes the status line when the run ends, leaving the summary last", () => {
    const { out, progress } = display(true);
    for (const event of scriptedEvents()) progress.handle(event);
    const screen = renderTerminal(out.output()).map((line) => line.replace(COLOR, ""));
    expect(screen.at(-1)).toBe("");
    expect(screen.at(-4)).toMatch(/^✓ completed 4 iterations/);
    expect(screen.filter((line) => line.includes("│"))).toEqual([]);
  });

  it("colours only when asked", () => {
    const out = capture(true);
    const progress = new ProgressDisplay({ out: out.sink, live: true, color: false, now: () => 0 });
    for (const event of scriptedEvents()) progress.handle(event);
    const withoutCursorMoves = out.output().replaceAll("\r\x1b[2K", "");
    expect(withoutCursorMoves).not.toContain("\x1b");
  });
});
