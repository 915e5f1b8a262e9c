/** Small text formatters shared by the progress display and the run summary. */

/** `1,234,567`. */
export function formatInteger(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** `950`, `12.3k`, `4.56M`: short enough for a status line. */
export function formatCompact(value: number): string {
  if (value < 1000) return String(Math.round(value));
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)}k`;
  return `${(value / 1_000_000).toFixed(2)}M`;
}

/** `$0.0042`, `$1.23`: four decimals below a dollar, where most steps cost. */
export function formatUsd(value: number): string {
  return value < 1 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

/** `850ms`, `4.2s`, `1m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.floor(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return hours > 0
    ? `${hours}h ${String(minutes).padStart(2, "0")}m`
    : `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}

/** `0:42`, `12:05`, `1:02:03`: a clock for the status line. */
export function formatClock(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, "0");
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `${minutes}:${seconds}`;
}

/** One line of at most `width` characters: newlines and tabs become spaces, an ellipsis marks a cut. */
export function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (width <= 1) return flat.slice(0, Math.max(0, width));
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

/** The escape character that starts every ANSI sequence. */
export const ESC: string = String.fromCharCode(27);
/** One ANSI control sequence (colour, cursor, clear): `ESC [ params letter`. */
const ANSI_SOURCE = `${ESC}\\[[0-9;?]*[A-Za-z]`;
const ANSI = new RegExp(ANSI_SOURCE, "g");
const ANSI_AT_START = new RegExp(`^${ANSI_SOURCE}`);

/** `text` without ANSI sequences: what a log file should hold. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** Characters a terminal shows (escape sequences take no room). */
export function visibleLength(text: string): number {
  return stripAnsi(text).length;
}

/** `text` cut to `width` visible characters, keeping escape sequences (and closing colour). */
export function truncateVisible(text: string, width: number): string {
  if (visibleLength(text) <= width) return text;
  let out = "";
  let shown = 0;
  for (let index = 0; index < text.length; ) {
    const match = ANSI_AT_START.exec(text.slice(index));
    if (match) {
      out += match[0];
      index += match[0].length;
      continue;
    }
    if (shown >= width - 1) break;
    out += text[index];
    shown++;
    index++;
  }
  // Close any colour the cut left open.
  return out.includes(ESC) ? `${out}…${ESC}[0m` : `${out}…`;
}

/** A shell word: quoted only when it has to be, so a printed command can be pasted back. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
