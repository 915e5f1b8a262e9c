import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type { GhClient, GhResult } from "../github/gh-client.ts";

/** The open pull request of an issue's branch, at its current head commit. */
export interface IssuePullRequest {
  readonly number: number;
  readonly url: string;
  readonly headSha: string;
}

export type CheckBucket = "pass" | "fail" | "pending" | "skipping" | "cancel";

/** One check of the head commit, as `gh pr checks --json` gives it (names and links untrusted). */
export interface PullRequestCheck {
  readonly name: string;
  readonly state: string;
  readonly bucket: CheckBucket;
  readonly link: string;
  readonly workflow: string;
}

const BUCKETS: readonly CheckBucket[] = ["pass", "fail", "pending", "skipping", "cancel"];

/** The open pull request whose head is `branch` (ours: `climpt/issue-<n>`), or null. */
export async function pullRequestOf(
  gh: GhClient,
  branch: string,
): Promise<GhResult<IssuePullRequest | null>> {
  const listed = await gh.exec([
    "pr",
    "list",
    "--head",
    branch,
    "--state",
    "open",
    "--json",
    "number,url,headRefOid",
  ]);
  if (!listed.ok) return listed;
  if (listed.value.exitCode !== 0) return failed("gh pr list", listed.value);
  const rows = parseJson(listed.value.stdout);
  const first = Array.isArray(rows) ? (rows[0] as Record<string, unknown> | undefined) : undefined;
  if (!Array.isArray(rows)) return badOutput("gh pr list", listed.value.stdout);
  if (first === undefined) return { ok: true, value: null };
  const { number, url, headRefOid } = first;
  if (
    typeof number !== "number" ||
    typeof url !== "string" ||
    typeof headRefOid !== "string" ||
    !/^[0-9a-f]{40,64}$/.test(headRefOid)
  )
    return badOutput("gh pr list", listed.value.stdout);
  return { ok: true, value: { number, url, headSha: headRefOid } };
}

/**
 * The checks of the pull request's head commit. gh prints them and exits 1 when one failed, 8
 * while one is pending; before any check is reported it says so and exits 1 (read as no checks:
 * CI may not have started yet).
 */
export async function checksOf(
  gh: GhClient,
  pullRequest: number,
): Promise<GhResult<PullRequestCheck[]>> {
  const run = await gh.exec([
    "pr",
    "checks",
    String(pullRequest),
    "--json",
    "name,state,bucket,link,workflow",
  ]);
  if (!run.ok) return run;
  const { exitCode, stdout, stderr } = run.value;
  if (exitCode === 1 && stdout.trim() === "" && /no checks reported/i.test(stderr))
    return { ok: true, value: [] };
  if (![0, 1, 8].includes(exitCode)) return failed("gh pr checks", run.value);
  const rows = parseJson(stdout);
  if (!Array.isArray(rows)) {
    return exitCode === 0 ? badOutput("gh pr checks", stdout) : failed("gh pr checks", run.value);
  }
  const checks: PullRequestCheck[] = [];
  for (const row of rows as Record<string, unknown>[]) {
    const bucket = BUCKETS.find((candidate) => candidate === row?.bucket);
    if (bucket === undefined || typeof row.name !== "string")
      return badOutput("gh pr checks", stdout);
    checks.push({
      name: row.name,
      state: typeof row.state === "string" ? row.state : "",
      bucket,
      link: typeof row.link === "string" ? row.link : "",
      workflow: typeof row.workflow === "string" ? row.workflow : "",
    });
  }
  return { ok: true, value: checks };
}

/**
 * The GitHub Actions run (and job) a check's link names, as digits only: the link is CI's text,
 * so nothing but these ids ever reaches gh's argument list.
 */
export function actionsRunOf(link: string): { run: string; job: string | null } | null {
  const match =
    /^https:\/\/[^/\s]+\/[^/\s]+\/[^/\s]+\/actions\/runs\/(\d{1,20})(?:\/job\/(\d{1,20}))?(?:[?#][^\s]*)?$/.exec(
      link,
    );
  return match === null ? null : { run: match[1] as string, job: match[2] ?? null };
}

/** The failed steps' log of a check's run (`gh run view <id> --log-failed`), or why there is none. */
export async function failedLogOf(gh: GhClient, check: PullRequestCheck): Promise<string> {
  const ids = actionsRunOf(check.link);
  if (ids === null) return "(no log: the check's link is not a GitHub Actions run)";
  const args = ["run", "view", ids.run, "--log-failed"];
  if (ids.job !== null) args.push("--job", ids.job);
  const run = await gh.exec(args);
  if (!run.ok) return `(the log could not be read: ${run.error.message})`;
  if (run.value.exitCode !== 0)
    return `(the log could not be read: gh run view exited ${run.value.exitCode}: ${run.value.stderr.trim().slice(0, 300)})`;
  return run.value.stdout;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function failed(
  what: string,
  exit: { exitCode: number; stderr: string },
): { ok: false; error: { code: string; message: string; hint: string } } {
  return {
    ok: false,
    error: {
      code: C.ghFailed,
      message: `\`${what}\` exited ${exit.exitCode}: ${exit.stderr.trim().slice(0, 500) || "(no message)"}`,
      hint: "Check gh auth status and GitHub's status; the issue keeps its phase and is read again on the next pass.",
    },
  };
}

function badOutput(
  what: string,
  stdout: string,
): { ok: false; error: { code: string; message: string; hint: string } } {
  return {
    ok: false,
    error: {
      code: C.ghBadOutput,
      message: `\`${what}\` printed something that is not the JSON asked for: ${stdout.slice(0, 200)}`,
      hint: "Check the gh version (gh --version; 2.x prints JSON with --json).",
    },
  };
}
