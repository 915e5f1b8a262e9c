import { collectSecrets, createScrubber, type SecretScrubber } from "@climpt/model";
import type { PullRequestCheck } from "./gh-checks.ts";

/** Per failing check, the log tail the fix agent is given. */
export const LOG_TAIL_CHARS = 4_000;
/** All logs together. */
export const LOGS_TOTAL_CHARS = 12_000;
const NAME_CHARS = 120;
const MAX_CHECKS_LISTED = 20;

/**
 * The scrubber for CI text: the secret values of this process's environment (the project's one
 * scrubber), and credential-shaped text whose value is not known (a token a test printed).
 */
export function ciScrubber(env: Readonly<Record<string, string | undefined>>): SecretScrubber {
  return createScrubber(collectSecrets({ env }), { credentialShapes: true });
}

/**
 * A check's name as one line of plain text: CI names are untrusted (the model can edit the CI
 * configuration), so control characters and line breaks go, and the length is bounded.
 */
export function checkName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  const flat = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  return flat.length > NAME_CHARS ? `${flat.slice(0, NAME_CHARS - 1)}…` : flat || "(unnamed)";
}

/** The check's link when it is a plain https URL (no spaces, quotes, brackets); else null. */
export function safeLink(link: string): string | null {
  return /^https:\/\/[A-Za-z0-9.-]+(?:\/[A-Za-z0-9._~%/-]*)?(?:\?[A-Za-z0-9._~%=&-]*)?$/.test(link)
    ? link
    : null;
}

/**
 * `text` in a fenced code block no line of it can close: the fence is longer than any run of
 * backticks inside, so untrusted text stays text in a markdown comment.
 */
export function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\n+$/, "")}\n${fence}`;
}

/** The log lines without gh's `<job>\t<step>\t<time> ` prefix. */
function logLines(log: string): string {
  return log
    .split("\n")
    .map((line) => {
      const parts = line.split("\t");
      const last = parts.length >= 3 ? parts.slice(2).join("\t") : line;
      return last.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z ?/, "");
    })
    .join("\n")
    .trim();
}

/** The last `chars` characters of `text`, from a line start when one is near. */
function tail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const newline = cut.indexOf("\n");
  return `…\n${newline !== -1 && newline < 200 ? cut.slice(newline + 1) : cut}`;
}

/** The fix agent's `failedChecks`: the failing checks' names, one per line. */
export function failedChecksText(checks: readonly PullRequestCheck[]): string {
  const names = checks.slice(0, MAX_CHECKS_LISTED).map((check) => checkName(check.name));
  if (checks.length > MAX_CHECKS_LISTED)
    names.push(`(and ${checks.length - MAX_CHECKS_LISTED} more)`);
  return names.join("\n");
}

/**
 * The fix agent's `checkLogs`: per failing check a `== <name> ==` line and the tail of its failed
 * steps' log, scrubbed, bounded per check and in all.
 */
export function checkLogsText(
  logs: readonly { readonly check: PullRequestCheck; readonly log: string }[],
  scrubber: SecretScrubber,
): string {
  const parts: string[] = [];
  let left = LOGS_TOTAL_CHARS;
  for (const { check, log } of logs) {
    if (left <= 0) break;
    const body = tail(scrubber.scrub(logLines(log)), Math.min(LOG_TAIL_CHARS, left));
    const part = `== ${scrubber.scrub(checkName(check.name))} ==\n${body || "(empty log)"}`;
    parts.push(part);
    left -= part.length;
  }
  return parts.join("\n\n");
}

/**
 * The checks for a comment: their names (and state) inside a code fence, then the links of their
 * runs — only plain https URLs, outside the fence so GitHub links them.
 */
export function checksList(checks: readonly PullRequestCheck[], scrubber: SecretScrubber): string {
  const listed = checks.slice(0, MAX_CHECKS_LISTED);
  const lines = listed.map((check) => `${scrubber.scrub(checkName(check.name))}: ${check.bucket}`);
  if (checks.length > MAX_CHECKS_LISTED)
    lines.push(`(and ${checks.length - MAX_CHECKS_LISTED} more)`);
  const links = listed
    .map((check) => safeLink(scrubber.scrub(check.link)))
    .filter((link): link is string => link !== null);
  const runs = [...new Set(links)].map((link) => `- ${link}`).join("\n");
  const names = fenced(lines.join("\n"));
  return runs === "" ? names : `${names}\n\nRuns:\n${runs}`;
}
