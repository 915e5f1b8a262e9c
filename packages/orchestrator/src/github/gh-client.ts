import { spawn } from "node:child_process";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { LabelChange } from "../phase-machine/label-changes.ts";

/** Every gh call's answer: a value, or a coded failure (never a throw). */
export type GhResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: OrchestratorError };

export interface GhIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly state: "OPEN" | "CLOSED";
  readonly labels: readonly string[];
}

export interface GhComment {
  readonly body: string;
  readonly createdAt: string;
}

export interface GhIssueDetail extends GhIssue {
  readonly comments: readonly GhComment[];
}

/** A gh command's exit code and output, for commands whose exit code carries meaning. */
export interface GhExit {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GhLabel {
  readonly name: string;
  readonly color: string;
  readonly description: string;
}

export interface GhClientOptions {
  /** Where gh runs (it reads the repository from the git remote there). */
  readonly cwd: string;
  /** The gh executable. Default `gh`. */
  readonly command?: string;
  /** The environment gh runs with. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `owner/name`: passed as `--repo`, for a checkout whose remote gh cannot read. */
  readonly repo?: string | null;
  /** Per call. Default 60 s: a hung gh (a network stall) must not hang the orchestrator. */
  readonly timeoutMs?: number;
}

export interface IssueQuery {
  /** Every label must be on the issue. */
  readonly labels?: readonly string[];
  readonly state?: "open" | "closed" | "all";
  readonly limit?: number;
}

interface RawIssue {
  number: number;
  title: string;
  body?: string;
  state: string;
  labels: { name: string }[];
  comments?: { body: string; createdAt: string }[];
}

const ISSUE_FIELDS = "number,title,body,state,labels";

/**
 * GitHub through the real `gh` CLI, the only way the orchestrator reaches it. Every failure —
 * gh missing, a non-zero exit, a timeout, output that is not the JSON asked for — comes back as
 * a coded `GhResult`, so a caller decides what a failure means for the issue instead of crashing
 * the batch.
 */
export class GhClient {
  readonly #options: GhClientOptions;

  constructor(options: GhClientOptions) {
    this.#options = options;
  }

  /** What the client was built with (for a dispatcher that runs gh-using agents alike). */
  get options(): GhClientOptions {
    return this.#options;
  }

  /** `owner/name` of the repository gh acts on (the `repo` option, else the checkout's remote). */
  async repoName(): Promise<GhResult<string>> {
    if (this.#options.repo) return { ok: true, value: this.#options.repo };
    const json = await this.#json<{ nameWithOwner: string }>([
      "repo",
      "view",
      "--json",
      "nameWithOwner",
    ]);
    return json.ok ? { ok: true, value: json.value.nameWithOwner } : json;
  }

  async listIssues(query: IssueQuery = {}): Promise<GhResult<GhIssue[]>> {
    const args = ["issue", "list", "--json", ISSUE_FIELDS, "--state", query.state ?? "open"];
    args.push("--limit", String(query.limit ?? 100));
    for (const label of query.labels ?? []) args.push("--label", label);
    const json = await this.#json<RawIssue[]>(args);
    return json.ok ? { ok: true, value: json.value.map(toIssue) } : json;
  }

  async viewIssue(issue: number): Promise<GhResult<GhIssueDetail>> {
    const json = await this.#json<RawIssue>([
      "issue",
      "view",
      String(issue),
      "--json",
      `${ISSUE_FIELDS},comments`,
    ]);
    if (!json.ok) return json;
    return {
      ok: true,
      value: {
        ...toIssue(json.value),
        comments: (json.value.comments ?? []).map((comment) => ({
          body: comment.body,
          createdAt: comment.createdAt,
        })),
      },
    };
  }

  /** One `gh issue edit` with every label to add and remove: the change is applied whole or not at all. */
  async editLabels(issue: number, change: LabelChange): Promise<GhResult<void>> {
    const args = ["issue", "edit", String(issue)];
    for (const label of change.add) args.push("--add-label", label);
    for (const label of change.remove) args.push("--remove-label", label);
    if (args.length === 3) return { ok: true, value: undefined };
    return this.#void(args);
  }

  /** The body goes through stdin: a long comment never meets the argument-length limit. */
  comment(issue: number, body: string): Promise<GhResult<void>> {
    return this.#void(["issue", "comment", String(issue), "--body-file", "-"], body);
  }

  close(issue: number): Promise<GhResult<void>> {
    return this.#void(["issue", "close", String(issue)]);
  }

  async listLabels(): Promise<GhResult<GhLabel[]>> {
    const json = await this.#json<{ name: string; color: string; description?: string }[]>([
      "label",
      "list",
      "--json",
      "name,color,description",
      "--limit",
      "1000",
    ]);
    if (!json.ok) return json;
    return {
      ok: true,
      value: json.value.map((label) => ({
        name: label.name,
        color: label.color.replace(/^#/, "").toLowerCase(),
        description: label.description ?? "",
      })),
    };
  }

  createLabel(label: GhLabel): Promise<GhResult<void>> {
    return this.#void([
      "label",
      "create",
      label.name,
      "--color",
      label.color,
      "--description",
      label.description,
    ]);
  }

  editLabel(label: GhLabel): Promise<GhResult<void>> {
    return this.#void([
      "label",
      "edit",
      label.name,
      "--color",
      label.color,
      "--description",
      label.description,
    ]);
  }

  /** The URL of the open pull request whose head is `branch`, or null when there is none. */
  async findPullRequest(branch: string): Promise<GhResult<string | null>> {
    const json = await this.#json<{ url: string }[]>([
      "pr",
      "list",
      "--head",
      branch,
      "--state",
      "open",
      "--json",
      "url",
    ]);
    return json.ok ? { ok: true, value: json.value[0]?.url ?? null } : json;
  }

  /** Opens a pull request (the body through stdin); its URL. */
  async createPullRequest(pr: {
    readonly head: string;
    readonly base: string;
    readonly title: string;
    readonly body: string;
  }): Promise<GhResult<string>> {
    const run = await this.#run(
      [
        "pr",
        "create",
        "--head",
        pr.head,
        "--base",
        pr.base,
        "--title",
        pr.title,
        "--body-file",
        "-",
      ],
      pr.body,
    );
    if (!run.ok) return run;
    return { ok: true, value: run.value.trim().split("\n").at(-1) ?? "" };
  }

  /**
   * A gh command whose exit code is part of its answer (`gh pr checks`: 1 when a check failed, 8
   * while one is pending, its JSON printed either way): every exit is a value; only a gh that
   * cannot start or does not finish in time is an error.
   */
  exec(args: string[]): Promise<GhResult<GhExit>> {
    return this.#spawn(args);
  }

  async #void(args: string[], input?: string): Promise<GhResult<void>> {
    const run = await this.#run(args, input);
    return run.ok ? { ok: true, value: undefined } : run;
  }

  async #json<T>(args: string[]): Promise<GhResult<T>> {
    const run = await this.#run(args);
    if (!run.ok) return run;
    try {
      return { ok: true, value: JSON.parse(run.value) as T };
    } catch {
      return {
        ok: false,
        error: {
          code: C.ghBadOutput,
          message: `\`gh ${args.slice(0, 2).join(" ")}\` printed something that is not JSON: ${run.value.slice(0, 200)}`,
          hint: "Check the gh version (gh --version; 2.x prints JSON with --json).",
        },
      };
    }
  }

  async #run(args: string[], input?: string): Promise<GhResult<string>> {
    const run = await this.#spawn(args, input);
    if (!run.ok) return run;
    const { exitCode, stdout, stderr } = run.value;
    if (exitCode === 0) return { ok: true, value: stdout };
    return {
      ok: false,
      error: {
        code: C.ghFailed,
        message: `\`gh ${args.slice(0, 3).join(" ")}\` exited ${exitCode}: ${stderr.trim().slice(0, 500) || "(no message)"}`,
        hint: "Check gh auth status, that the issue and labels exist (climpt labels sync), and GitHub's status.",
      },
    };
  }

  #spawn(args: string[], input?: string): Promise<GhResult<GhExit>> {
    const options = this.#options;
    const command = options.command ?? "gh";
    const full = options.repo ? [...args, "--repo", options.repo] : args;
    const what = `\`gh ${args.slice(0, 3).join(" ")}\``;
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise((resolve) => {
      const child = spawn(command, full, {
        cwd: options.cwd,
        env: { ...(options.env ?? process.env), GH_PROMPT_DISABLED: "1", NO_COLOR: "1" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, timeoutMs);
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.stdin.on("error", () => {
        // gh exited before reading its input; its exit code says why.
      });
      child.stdin.end(input ?? "");
      child.on("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve({
          ok: false,
          error:
            error.code === "ENOENT"
              ? {
                  code: C.ghNotFound,
                  message: `The gh CLI (${command}) was not found.`,
                  hint: "Install GitHub's gh (https://cli.github.com, or apt-get install gh) and run gh auth login.",
                }
              : { code: C.ghFailed, message: `${what} could not start: ${error.message}` },
        });
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        if (timedOut) {
          resolve({
            ok: false,
            error: {
              code: C.ghTimedOut,
              message: `${what} did not finish within ${timeoutMs} ms and was stopped.`,
              hint: "Check the network and GitHub's status; the issue keeps its labels and is retried on the next pass.",
            },
          });
        } else {
          resolve({ ok: true, value: { exitCode: code ?? 1, stdout, stderr } });
        }
      });
    });
  }
}

function toIssue(raw: RawIssue): GhIssue {
  return {
    number: raw.number,
    title: raw.title,
    body: raw.body ?? "",
    state: raw.state === "CLOSED" ? "CLOSED" : "OPEN",
    labels: raw.labels.map((label) => label.name),
  };
}
