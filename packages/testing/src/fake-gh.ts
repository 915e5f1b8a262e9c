import { chmodSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** One issue as the fake `gh` keeps it. */
export interface SimpleFakeGhIssue {
  readonly title: string;
  readonly state: "OPEN" | "CLOSED";
  readonly labels: readonly string[];
  readonly comments: readonly string[];
}

/** One pull request as the fake `gh` keeps it. */
export interface SimpleFakeGhPullRequest {
  readonly title: string;
  readonly state: "OPEN" | "MERGED" | "CLOSED";
  readonly head: string;
  readonly base: string;
}

/** Everything the fake `gh` knows; it reads and rewrites this file on every call. */
export interface SimpleFakeGhState {
  readonly issues: Readonly<Record<string, SimpleFakeGhIssue>>;
  readonly pullRequests: Readonly<Record<string, SimpleFakeGhPullRequest>>;
}

export interface SimpleFakeGhSeed {
  /** The one repository it holds, `OWNER/NAME` (what `gh repo view` names). Default `climpt-test/sample`. */
  readonly repo?: string;
  readonly issues?: Readonly<Record<number, Partial<SimpleFakeGhIssue>>>;
  readonly pullRequests?: Readonly<Record<number, Partial<SimpleFakeGhPullRequest>>>;
}

export interface SimpleInstalledFakeGh {
  /** The folder holding `gh`: put it first on PATH. */
  readonly bin: string;
  /** The `gh` executable's path (for `ghCommand` options). */
  readonly gh: string;
  /** The state file. */
  readonly stateFile: string;
  /** The state now (after every call the run made). */
  state(): SimpleFakeGhState;
  /** One issue now; throws when the fake has no such issue. */
  issue(number: number): SimpleFakeGhIssue;
  /** Every call's argv (without `gh`), in order. */
  calls(): string[][];
  /** `PATH` with `bin` first. */
  readonly path: string;
}

/**
 * A stateful fake `gh` on disk: a Node script that keeps issues and pull requests in a JSON file,
 * so a test sees what a run did to them (labels added, an issue closed, a PR merged) the way it
 * would see it on GitHub. It understands the subcommands climpt and the original-shaped agents
 * use: `issue view|list|edit|close|reopen|comment`, `pr view|merge|create`, `repo view`; anything
 * else exits 1
 * naming the unsupported command, so a test never passes on a call the fake silently ignored.
 * `gh issue edit --add-label` accepts any label (the fake has no label catalogue).
 */
export function installSimpleFakeGh(seed: SimpleFakeGhSeed = {}): SimpleInstalledFakeGh {
  const bin = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-fake-gh-")));
  const stateFile = path.join(bin, "state.json");
  const callLog = path.join(bin, "calls.jsonl");
  const issues: Record<string, SimpleFakeGhIssue> = {};
  for (const [number, issue] of Object.entries(seed.issues ?? {})) {
    issues[number] = {
      title: issue.title ?? `Issue ${number}`,
      state: issue.state ?? "OPEN",
      labels: issue.labels ?? [],
      comments: issue.comments ?? [],
    };
  }
  const pullRequests: Record<string, SimpleFakeGhPullRequest> = {};
  for (const [number, pr] of Object.entries(seed.pullRequests ?? {})) {
    pullRequests[number] = {
      title: pr.title ?? `PR ${number}`,
      state: pr.state ?? "OPEN",
      head: pr.head ?? `branch-${number}`,
      base: pr.base ?? "main",
    };
  }
  writeFileSync(stateFile, `${JSON.stringify({ issues, pullRequests }, null, 2)}\n`);
  const gh = path.join(bin, "gh");
  writeFileSync(gh, ghScript(stateFile, callLog, seed.repo ?? "climpt-test/sample"));
  chmodSync(gh, 0o755);
  const state = (): SimpleFakeGhState =>
    JSON.parse(readFileSync(stateFile, "utf8")) as SimpleFakeGhState;
  return {
    bin,
    gh,
    stateFile,
    state,
    issue(number) {
      const found = state().issues[String(number)];
      if (found === undefined) throw new Error(`The fake gh has no issue #${number}.`);
      return found;
    },
    calls() {
      let text = "";
      try {
        text = readFileSync(callLog, "utf8");
      } catch {
        return [];
      }
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as string[]);
    },
    path: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
  };
}

/** The script's source: plain JavaScript run by this very Node, with the file paths baked in. */
function ghScript(stateFile: string, callLog: string, repo: string): string {
  return `#!${process.execPath}
"use strict";
const fs = require("node:fs");
const STATE = ${JSON.stringify(stateFile)};
const LOG = ${JSON.stringify(callLog)};
const REPO = ${JSON.stringify(repo)};
const argv = process.argv.slice(2);
fs.appendFileSync(LOG, JSON.stringify(argv) + "\\n");
const state = JSON.parse(fs.readFileSync(STATE, "utf8"));
const save = () => fs.writeFileSync(STATE, JSON.stringify(state, null, 2) + "\\n");
const fail = (message) => { process.stderr.write("fake gh: " + message + "\\n"); process.exit(1); };
const VALUED = new Set(["--json", "--repo", "-R", "--add-label", "--remove-label", "--body", "-b",
  "--state", "--label", "-l", "--title", "-t", "--base", "-B", "--head", "-H", "--limit", "-L",
  "--comment", "-c", "--reason", "-r", "--jq", "-q"]);
const positionals = [];
const options = {};
for (let i = 0; i < argv.length; i++) {
  const word = argv[i];
  const eq = word.startsWith("--") ? word.indexOf("=") : -1;
  if (eq > 0) { (options[word.slice(0, eq)] ??= []).push(word.slice(eq + 1)); continue; }
  if (VALUED.has(word)) { (options[word] ??= []).push(argv[++i] ?? ""); continue; }
  if (word.startsWith("-")) { (options[word] ??= []).push(true); continue; }
  positionals.push(word);
}
const [group, action, id] = positionals;
const one = (...names) => { for (const n of names) if (options[n]) return options[n][0]; return undefined; };
const list = (name) => (options[name] ?? []).flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter(Boolean);
const pick = (object, fields) => {
  if (fields === undefined) return object;
  const out = {};
  for (const f of String(fields).split(",")) out[f] = object[f];
  return out;
};
const issueJson = (number, issue) => ({ number: Number(number), title: issue.title, state: issue.state,
  labels: issue.labels.map((name) => ({ name })), comments: issue.comments.map((body) => ({ body })) });
const issueOf = (number) => {
  const issue = state.issues[String(number).replace(/^#/, "")];
  if (issue === undefined) fail("no issue #" + number);
  return issue;
};
const prOf = (number) => {
  const pr = state.pullRequests[String(number).replace(/^#/, "")];
  if (pr === undefined) fail("no pull request #" + number);
  return pr;
};
if (group === "issue" && action === "view") {
  process.stdout.write(JSON.stringify(pick(issueJson(id, issueOf(id)), one("--json"))) + "\\n");
} else if (group === "issue" && action === "list") {
  const wanted = (one("--state") ?? "open").toUpperCase();
  const labels = list("--label").concat(list("-l"));
  const rows = Object.entries(state.issues)
    .filter(([, issue]) => wanted === "ALL" || issue.state === wanted)
    .filter(([, issue]) => labels.every((l) => issue.labels.includes(l)))
    .map(([number, issue]) => pick(issueJson(number, issue), one("--json")));
  process.stdout.write(JSON.stringify(rows) + "\\n");
} else if (group === "issue" && action === "edit") {
  const issue = issueOf(id);
  const removed = new Set(list("--remove-label"));
  const next = issue.labels.filter((l) => !removed.has(l));
  for (const l of list("--add-label")) if (!next.includes(l)) next.push(l);
  issue.labels = next;
  save();
  process.stdout.write("https://github.invalid/issues/" + id + "\\n");
} else if (group === "issue" && (action === "close" || action === "reopen")) {
  const issue = issueOf(id);
  issue.state = action === "close" ? "CLOSED" : "OPEN";
  const comment = one("--comment", "-c");
  if (comment !== undefined) issue.comments.push(String(comment));
  save();
} else if (group === "issue" && action === "comment") {
  const body = one("--body", "-b");
  if (body === undefined) fail("gh issue comment needs --body");
  issueOf(id).comments.push(String(body));
  save();
} else if (group === "pr" && action === "view") {
  const pr = prOf(id);
  process.stdout.write(JSON.stringify(pick({ number: Number(id), title: pr.title, state: pr.state,
    headRefName: pr.head, baseRefName: pr.base }, one("--json"))) + "\\n");
} else if (group === "pr" && action === "merge") {
  const pr = prOf(id);
  if (pr.state !== "OPEN") fail("pull request #" + id + " is " + pr.state);
  pr.state = "MERGED";
  save();
} else if (group === "pr" && action === "create") {
  const number = String(Object.keys(state.pullRequests).length + 1);
  state.pullRequests[number] = { title: String(one("--title", "-t") ?? ""), state: "OPEN",
    head: String(one("--head", "-H") ?? ""), base: String(one("--base", "-B") ?? "main") };
  save();
  process.stdout.write("https://github.invalid/pull/" + number + "\\n");
} else if (group === "repo" && action === "view") {
  const [owner, name] = REPO.split("/");
  process.stdout.write(JSON.stringify(pick({ name, nameWithOwner: REPO, owner: { login: owner },
    url: "https://github.com/" + REPO, defaultBranchRef: { name: "main" } }, one("--json"))) + "\\n");
} else {
  fail("unsupported command: gh " + argv.join(" "));
}
`;
}
