import { formatCode } from "@climpt/model";
import { runStatusOf } from "@climpt/protocol";
import type { RunEvent, RunResult, RunUsage, WorktreeReport } from "@climpt/runner";
import type { TerminalSink } from "../cli-io.ts";
import {
  formatClock,
  formatCompact,
  formatDuration,
  formatInteger,
  formatUsd,
  oneLine,
  truncateVisible,
} from "./format.ts";
import { COLOR_STYLE, PLAIN_STYLE, type Style } from "./style.ts";

export interface ProgressDisplayOptions {
  /** stderr. */
  readonly out: TerminalSink;
  /**
   * Redraw a status line under the durable lines (ANSI). Off: plain lines only, no escape code
   * at all, fit for logs and CI.
   */
  readonly live: boolean;
  /** Colour the durable lines (only with `live`; NO_COLOR turns it off). */
  readonly color?: boolean;
  /** Terminal width; the status line is cut to fit so it never wraps. */
  readonly columns?: number;
  /** Clock, for the elapsed time. */
  readonly now?: () => number;
  /** How `climpt run` was pointed at the agent, for the resume hint: `fix-bug --agent-dir x`. */
  readonly resumeCommand?: (runId: string) => string;
  /** `--verbose`: print each step's resolved prompt and the model's text replies. */
  readonly verbose?: boolean;
  /**
   * The run being resumed: when it had completed already, the runner returns its stored result
   * without running anything, and the summary says so.
   */
  readonly resuming?: string;
}

/** Each line of `text` indented, for the verbose prompt and reply blocks. */
function indented(text: string, prefix: string): string {
  return text
    .replace(/\s+$/, "")
    .split("\n")
    .map((line) => `${prefix}${line}`.trimEnd())
    .join("\n");
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Input of a tool call worth showing, in order of preference. */
const TOOL_ARGUMENT_KEYS = ["file_path", "path", "command", "pattern", "url", "query"];

function toolArgument(input: unknown): string {
  if (typeof input !== "object" || input === null) return "";
  const record = input as Record<string, unknown>;
  for (const key of TOOL_ARGUMENT_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return "";
}

/**
 * The live view of a run on stderr, fed with the runner's `RunEvent`s. Durable lines say what
 * happened (a step started, the intent and where the flow went, tool calls, validators, the
 * verdict); with `live`, a status line below them is redrawn in place with the step, iteration,
 * what the run is waiting for, tokens, cost and elapsed time.
 */
export class ProgressDisplay {
  private readonly out: TerminalSink;
  private readonly live: boolean;
  private readonly style: Style;
  private readonly columns: number;
  private readonly now: () => number;
  private readonly resumeCommand: ((runId: string) => string) | undefined;
  private readonly verbose: boolean;
  private readonly resuming: string | undefined;
  /** Whether any event of this process's run arrived (a finished run resumed sends none). */
  private ran = false;
  private readonly startedAt: number;
  private statusShown = false;
  /** What the status line shows now, so an unchanged redraw writes nothing. */
  private shownStatus = "";
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  private finished = false;

  private stepId: string | undefined;
  private iteration = 0;
  private iterationCap: number | undefined;
  private activity = "starting";
  private totals: RunUsage | undefined;
  private toolCalls = 0;
  private lastIntent: { iteration: number; stepId: string; intent: string } | undefined;
  private textTail = "";

  constructor(options: ProgressDisplayOptions) {
    this.out = options.out;
    this.live = options.live;
    this.style = options.live && options.color !== false ? COLOR_STYLE : PLAIN_STYLE;
    // A pseudo-terminal without a size reports 0 columns: assume the classic 80.
    const columns = options.columns !== undefined && options.columns > 0 ? options.columns : 80;
    this.columns = Math.max(20, columns);
    this.now = options.now ?? Date.now;
    this.resumeCommand = options.resumeCommand;
    this.verbose = options.verbose === true;
    this.resuming = options.resuming;
    this.startedAt = this.now();
  }

  /** Redraw the status line every `intervalMs` so the clock and spinner move (live only). */
  startTicking(intervalMs = 200): void {
    if (!this.live || this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.frame++;
      this.drawStatus();
    }, intervalMs);
    this.timer.unref?.();
  }

  /** A line that stays (above the status line when live). */
  line(text: string): void {
    this.clearStatus();
    this.out.write(`${text}\n`);
    this.drawStatus();
  }

  /** Streamed model text: its latest words appear in the status line (live only). */
  textDelta(delta: string): void {
    if (!this.live) return;
    this.textTail = `${this.textTail}${delta}`.slice(-400);
    this.drawStatus();
  }

  handle(event: RunEvent): void {
    const s = this.style;
    this.ran = true;
    switch (event.type) {
      case "run_start":
        this.iterationCap = event.iterationCap;
        this.line(
          `${s.bold(`climpt run ${event.agent}`)} ${s.dim(`(${event.dialect} dialect, entry ${event.entryStepId}, run ${event.runId})`)}`,
        );
        if (event.worktree !== null) {
          this.line(s.dim(`  worktree ${event.worktree.path} on branch ${event.worktree.branch}`));
        }
        break;
      case "run_resume":
        this.stepId = event.stepId;
        this.iteration = event.iteration;
        this.line(
          `${s.cyan("↻")} resuming run ${event.runId} at ${event.stepId} (iteration ${event.iteration}); ${event.replayedModelCalls} model call${event.replayedModelCalls === 1 ? "" : "s"} served from the journal`,
        );
        break;
      case "step_start": {
        this.stepId = event.stepId;
        this.iteration = event.iteration;
        this.activity = "preparing the prompt";
        this.textTail = "";
        const what = event.phase === "check" ? `${event.stepId} check` : event.stepId;
        const tags = [event.stepKind, event.model, ...(event.retry ? ["retry prompt"] : [])];
        this.line(`${s.bold(`[${event.iteration}] ${what}`)} ${s.dim(`(${tags.join(", ")})`)}`);
        break;
      }
      case "prompt_resolved":
        if (event.source.startsWith("fallback")) {
          this.line(s.dim(`  prompt: built-in template (${event.source})`));
        }
        if (this.verbose) {
          this.line(s.dim(`  prompt (${event.promptFile ?? event.source}):`));
          this.line(indented(event.text, "  │ "));
        }
        break;
      case "model_request":
        this.activity = `${event.repair ? "repair turn, " : ""}waiting for ${event.model}`;
        this.textTail = "";
        if (event.repair) this.line(s.yellow("  output did not match the schema: one repair turn"));
        this.drawStatus();
        break;
      case "model_response": {
        this.totals = event.totals;
        this.activity = "thinking";
        const text = event.content
          .flatMap((block) => (block.type === "text" ? [block.text] : []))
          .join("\n");
        if (this.verbose && text.trim() !== "") {
          this.line(s.dim(`  ${event.model} (call ${event.call}):`));
          this.line(indented(text, "  ┆ "));
        } else this.drawStatus();
        break;
      }
      case "tool_call":
        this.toolCalls++;
        this.activity = `running ${event.call.name}`;
        this.line(
          `  ${s.dim("·")} ${event.call.name} ${s.dim(oneLine(toolArgument(event.call.input), Math.max(20, this.columns - event.call.name.length - 6)))}`.trimEnd(),
        );
        break;
      case "tool_result":
        this.activity = "thinking";
        if (event.result.isError) {
          this.line(
            s.yellow(
              `    ${event.call.name} failed: ${oneLine(event.result.content, this.columns - 12)}`,
            ),
          );
        } else this.drawStatus();
        break;
      case "program": {
        const command = oneLine(event.command.join(" "), this.columns - 12);
        const exit = event.timedOut === true ? "timed out" : `exit ${event.exitCode}`;
        const text = `  ${s.dim("·")} ${command} ${s.dim(`(${exit})`)}`;
        this.line(event.exitCode === 0 && event.timedOut !== true ? text : s.yellow(text));
        break;
      }
      case "tool_refused":
        this.line(
          s.yellow(`  ⊘ ${event.tool} refused: ${oneLine(event.reason, this.columns - 16)}`),
        );
        break;
      case "step_failed":
        this.line(
          s.red(
            `  ✗ ${formatCode(event.error)}: ${oneLine(event.error.message, 200)}${event.consecutiveSchemaFailures > 0 ? ` (${event.consecutiveSchemaFailures} in a row)` : ""}`,
          ),
        );
        break;
      case "gate":
        this.lastIntent = {
          iteration: event.iteration,
          stepId: event.stepId,
          intent: event.intent,
        };
        if (event.usedFallback) {
          this.line(
            s.yellow(
              `  intent ${event.intent} (fallback${event.reason ? `: ${event.reason}` : ""})`,
            ),
          );
        }
        break;
      case "check":
        this.line(
          event.passed
            ? `  ${s.green("✓")} check passed${event.message ? `: ${oneLine(event.message, 160)}` : ""}`
            : `  ${s.red("✗")} check failed${event.message ? `: ${oneLine(event.message, 160)}` : ""}`,
        );
        break;
      case "route": {
        const intent =
          this.lastIntent?.iteration === event.iteration && this.lastIntent.stepId === event.from
            ? this.lastIntent.intent
            : undefined;
        this.line(
          `  ${intent === undefined ? "" : `${s.cyan(intent)} `}→ ${routeTarget(event.decision, event.to)}`,
        );
        break;
      }
      case "validator":
        this.activity = `validating`;
        this.line(
          event.passed
            ? `  ${s.green("✓")} ${event.validator} ${s.dim(`(${formatDuration(event.durationMs)})`)}`
            : `  ${s.red("✗")} ${event.validator}: ${event.timedOut ? "timed out" : event.exitCode === 0 ? "exit 0, but the output fails its successWhen" : `exit ${event.exitCode ?? "?"}`} ${s.dim(`(${event.command})`)}${event.output.trim() === "" ? "" : `\n    ${s.dim(oneLine(event.output, this.columns - 6))}`}`,
        );
        break;
      case "verdict":
        this.line(
          event.outcome === "done"
            ? `  ${s.green("verdict: done")} ${s.dim(oneLine(event.reason, 160))}`
            : event.outcome === "retry"
              ? `  ${s.yellow(`verdict: retry${event.failurePattern ? ` (${event.failurePattern})` : ""}`)}${event.returnStepId ? ` → ${event.returnStepId}` : ""}: ${s.dim(oneLine(event.reason, 120))}`
              : `  ${s.red("verdict: abort")} ${oneLine(event.reason, 160)}`,
        );
        break;
      case "boundary_hook":
        this.line(
          event.ok
            ? `  ${s.green("✓")} boundary hook (${event.actions.length} action${event.actions.length === 1 ? "" : "s"})`
            : `  ${s.red("✗")} boundary hook failed`,
        );
        break;
      case "step_end":
        this.totals = event.totals;
        this.activity = "routing";
        this.drawStatus();
        break;
      case "budget": {
        const reached = event.reached;
        const owner = reached.stepId === undefined ? "run" : `step ${reached.stepId}`;
        this.line(
          s.yellow(
            `  budget: ${owner} ${reached.limit} ${reached.max} reached${reached.onBudget === null ? "" : ` → ${reached.onBudget}`}`,
          ),
        );
        break;
      }
      case "notice":
        this.line(
          event.level === "warning"
            ? s.yellow(`  warning: ${event.message}`)
            : s.dim(`  ${event.message}`),
        );
        break;
      case "run_end":
        this.finish(event.result);
        break;
    }
  }

  /** The summary of a finished run, once (run_end or the returned result, whichever comes first). */
  finish(result: RunResult): void {
    if (this.finished) return;
    this.finished = true;
    this.stopTicking();
    this.clearStatus();
    const s = this.style;
    if (this.resuming !== undefined && !this.ran) {
      this.out.write(
        `Run ${this.resuming} had already completed; nothing ran. Its recorded result:\n`,
      );
    }
    const usage = result.usage;
    const tokens = usage.inputTokens + usage.outputTokens;
    const numbers = [
      `${result.iterations} iteration${result.iterations === 1 ? "" : "s"}`,
      `${formatInteger(tokens)} tokens (in ${formatInteger(usage.inputTokens)}, out ${formatInteger(usage.outputTokens)}${usage.cacheReadInputTokens > 0 ? `, cache read ${formatInteger(usage.cacheReadInputTokens)}` : ""})`,
      formatUsd(usage.costUsd),
      formatDuration(result.durationMs),
    ].join(" · ");
    const lines: string[] = [];
    if (result.success) {
      lines.push(`${s.green("✓ completed")} ${numbers}`);
      lines.push(`  ${result.finalStepId ?? "?"}: ${oneLine(result.completionReason, 200)}`);
    } else {
      const error = result.error;
      lines.push(
        `${s.red(`✗ ${runStatusOf(result)}`)} ${error ? `${s.bold(formatCode(error))}: ${error.message}` : oneLine(result.completionReason, 200)}`,
      );
      if (error?.file !== undefined)
        lines.push(`  in ${error.file}${error.path ? ` at ${error.path}` : ""}`);
      if (error?.hint !== undefined) lines.push(`  Fix: ${error.hint}`);
      lines.push(`  ${numbers}${result.finalStepId ? ` · last step ${result.finalStepId}` : ""}`);
    }
    if (result.boundary !== undefined && !result.boundary.ok) {
      lines.push(s.red("  the boundary hook failed; see boundary in the result"));
    }
    const worktree = result.worktree;
    if (worktree !== undefined) lines.push(`  ${worktreeLine(worktree)}`);
    if (result.journalPath !== null) lines.push(s.dim(`  journal ${result.journalPath}`));
    if (!result.success && result.resumable) {
      const command =
        this.resumeCommand?.(result.runId) ?? `climpt run <agent> --resume ${result.runId}`;
      lines.push(`  Resume: ${command}`);
    }
    this.out.write(`${lines.join("\n")}\n`);
  }

  /** Removes the status line and stops the clock (safe to call more than once). */
  close(): void {
    this.stopTicking();
    this.clearStatus();
  }

  private stopTicking(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private statusText(): string {
    const s = this.style;
    const elapsed = formatClock(this.now() - this.startedAt);
    const parts = [`${SPINNER[this.frame % SPINNER.length]} ${elapsed}`];
    if (this.stepId !== undefined) {
      parts.push(
        `iter ${this.iteration}${this.iterationCap === undefined ? "" : `/${this.iterationCap}`}`,
        this.stepId,
      );
    }
    parts.push(this.activity);
    if (this.totals !== undefined) {
      parts.push(
        `${formatCompact(this.totals.inputTokens + this.totals.outputTokens)} tok`,
        formatUsd(this.totals.costUsd),
      );
    }
    if (this.toolCalls > 0) parts.push(`${this.toolCalls} tool${this.toolCalls === 1 ? "" : "s"}`);
    // The newest words of the streamed text: its end, not its beginning.
    const flat = this.textTail.replace(/\s+/g, " ").trim();
    const tail = flat.length > 50 ? `…${flat.slice(-49)}` : flat;
    const status = parts.join(s.dim(" │ "));
    return tail === "" ? status : `${status}${s.dim(` │ ${tail}`)}`;
  }

  private drawStatus(): void {
    if (!this.live || this.finished) return;
    const text = truncateVisible(this.statusText(), this.columns - 1);
    if (this.statusShown && text === this.shownStatus) return;
    this.out.write(`\r\x1b[2K${text}`);
    this.statusShown = true;
    this.shownStatus = text;
  }

  private clearStatus(): void {
    if (!this.live || !this.statusShown) return;
    this.out.write("\r\x1b[2K");
    this.statusShown = false;
  }
}

function routeTarget(decision: string, to: string | null): string {
  switch (decision) {
    case "closing":
      return "completion chain";
    case "complete":
      return "complete";
    case "abort":
      return "abort";
    case "validation-retry":
      return `${to ?? "?"} (validation retry)`;
    default:
      return to ?? decision;
  }
}

/** What a worktree run did with its branch, in one line of the summary. */
function worktreeLine(worktree: WorktreeReport): string {
  const done: string[] = [];
  if (worktree.merged) {
    done.push(
      `merged into ${worktree.baseBranch} (${worktree.commits} commit${worktree.commits === 1 ? "" : "s"})`,
    );
  }
  if (worktree.pushed !== null) done.push(`pushed ${worktree.pushed}`);
  if (worktree.pr !== null) done.push(`pull request ${worktree.pr.url}`);
  done.push(worktree.removed ? "worktree removed" : `worktree kept at ${worktree.path}`);
  return `branch ${worktree.branch}: ${done.join(", ")}`;
}
