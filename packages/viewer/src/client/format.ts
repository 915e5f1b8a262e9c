import type { TokenCounts, ViewJson } from "../view-model.ts";

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return integer.format(value);
}

/** `850 ms`, `3.2 s`, `4 min 05 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** `in 1,139 · out 1,097 · cache read 21,653 · cache write 4,210`. */
export function formatTokens(tokens: TokenCounts): string {
  return `in ${formatCount(tokens.input)} · out ${formatCount(tokens.output)} · cache read ${formatCount(tokens.cacheRead)} · cache write ${formatCount(tokens.cacheWrite)}`;
}

/** `2026-11-24 05:02:49` in the reader's time zone. */
export function formatTime(iso: string | null): string {
  if (iso === null) return "–";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A JSON value as the panel shows it: strings as they are, everything else pretty-printed. */
export function formatJson(value: ViewJson | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2);
}

/** `issue=1 task="The test suite fails…"`, shortened for a table cell. */
export function formatArgs(args: Readonly<Record<string, ViewJson>>, max = 60): string {
  const parts = Object.entries(args).map(([key, value]) => {
    const shown = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value);
    return `${key}=${shown}`;
  });
  const joined = parts.join(" ");
  return joined.length > max ? `${joined.slice(0, max - 1)}…` : joined;
}
