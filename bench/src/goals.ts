/**
 * The goals `pnpm bench` checks, each as one line: what was measured in this run, the target,
 * and whether it is met — where it is missed, by how much (measured ÷ target). Ratios come from
 * the one run, so load from other processes falls on both sides alike.
 */
import type { TransitionStats, TransitionVariant } from "./transition-overhead.ts";

/** What the rows measured, as far as they ran (a row left out leaves its goals unmeasured). */
export interface Measured {
  /** Chain size → variant → stats (row 1). */
  readonly transitions: ReadonlyMap<number, Partial<Record<TransitionVariant, TransitionStats>>>;
  /** Steps → median ms of load + analysis (row 2). */
  readonly load: ReadonlyMap<number, number>;
  /** Row 3. */
  readonly firstRequest?: { readonly climptMs: number; readonly nodeMs: number } | undefined;
  /** Row 5: MB of RSS per run in flight. */
  readonly perRunMb?: number | undefined;
}

export interface GoalLine {
  readonly goal: string;
  readonly measured: string;
  readonly target: string;
  readonly verdict: string;
}

/** `measured ≤ limit`: met, or missed by measured ÷ limit. */
function check(goal: string, value: number | undefined, limit: number, unit: string): GoalLine {
  const shown = (number: number): string =>
    unit === "×" ? `${number.toFixed(2)}×` : `${number.toFixed(number >= 10 ? 0 : 2)} ${unit}`;
  const target = `≤ ${shown(limit)}`;
  if (value === undefined || !Number.isFinite(value)) {
    return { goal, measured: "not measured", target, verdict: "–" };
  }
  return {
    goal,
    measured: shown(value),
    target,
    verdict: value <= limit ? "met" : `missed by ${(value / limit).toFixed(2)}×`,
  };
}

function p50Ratio(
  stats: Partial<Record<TransitionVariant, TransitionStats>> | undefined,
  ours: TransitionVariant,
  theirs: TransitionVariant,
): number | undefined {
  const a = stats?.[ours]?.p50;
  const b = stats?.[theirs]?.p50;
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

const CLIMPT_VARIANTS: readonly [TransitionVariant, string][] = [
  ["climpt-journal-off", "no persistence"],
  ["climpt-journal-no-fsync", "journal, fsync off"],
  ["climpt-journal-fsync", "durable journal (default)"],
];

export function goalLines(measured: Measured): GoalLine[] {
  const lines: GoalLine[] = [];
  const sizes = [...measured.transitions.keys()].sort((a, b) => a - b);
  for (const size of sizes) {
    const stats = measured.transitions.get(size);
    const steps = `${size.toLocaleString("en-US")} steps`;
    lines.push(
      check(
        `no persistence vs LangGraph.js, p50, ${steps}`,
        p50Ratio(stats, "climpt-journal-off", "langgraph"),
        0.2,
        "×",
      ),
      check(
        `durable default vs LangGraph MemorySaver, p50, ${steps}`,
        p50Ratio(stats, "climpt-journal-fsync", "langgraph-memorysaver"),
        1,
        "×",
      ),
      check(
        `durable default vs LangGraph SqliteSaver (durable), p50, ${steps}`,
        p50Ratio(stats, "climpt-journal-fsync", "langgraph-sqlite"),
        0.2,
        "×",
      ),
    );
  }
  const smallest = measured.transitions.get(10);
  const largest = measured.transitions.get(1_000);
  for (const [variant, label] of CLIMPT_VARIANTS) {
    const at10 = smallest?.[variant]?.p50;
    const at1000 = largest?.[variant]?.p50;
    lines.push(
      check(
        `flat: p50 at 1,000 steps ÷ p50 at 10 steps, ${label}`,
        at10 === undefined || at1000 === undefined ? undefined : at1000 / at10,
        1.5,
        "×",
      ),
    );
  }
  const load1000 = measured.load.get(1_000);
  const load10000 = measured.load.get(10_000);
  lines.push(
    check("load + analysis, 1,000 steps", load1000, 50, "ms"),
    check(
      "load + analysis, 10,000 steps ÷ 1,000 steps",
      load1000 === undefined || load10000 === undefined ? undefined : load10000 / load1000,
      12,
      "×",
    ),
  );
  const first = measured.firstRequest;
  lines.push(
    check(
      "time to first model request of `climpt run` ÷ `node -e 0`",
      first === undefined ? undefined : first.climptMs / first.nodeMs,
      3,
      "×",
    ),
    check("RSS per run with 50 runs in flight", measured.perRunMb, 1, "MB"),
  );
  return lines;
}

export function renderGoals(lines: readonly GoalLine[]): string {
  const header: GoalLine = {
    goal: "goal",
    measured: "measured",
    target: "target",
    verdict: "verdict",
  };
  const columns = ["goal", "measured", "target", "verdict"] as const;
  const all = [header, ...lines];
  const widths = columns.map((column) => Math.max(...all.map((line) => line[column].length)));
  const render = (line: GoalLine): string =>
    `| ${columns.map((column, index) => line[column].padEnd(widths[index] as number)).join(" | ")} |`;
  const rule = `|${widths.map((width) => `:${"-".repeat(width + 1)}`).join("|")}|`;
  return [render(header), rule, ...lines.map(render)].join("\n");
}
