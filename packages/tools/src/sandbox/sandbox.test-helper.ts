/** Fixtures of the sandbox tests (not exported from the package). */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";

export const GH_TOKEN = "ghp_FAKEtoken0123456789abcdefABCDEF012345";
export const API_KEY = "sk-ant-api03-FAKEkey-0123456789abcdefghijklmnop";
export const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYFAKESECRET0";

/**
 * A recording fake `gh`, outside the working directory, that behaves like the real one where it
 * matters: it acts only with a token in GH_TOKEN (the real gh reads it, or its config directory),
 * on the repository gh would pick — `-R/--repo`, else `GH_REPO`, else the github.com `origin` of
 * the git repository of the folder it runs in (`o/r` where there is none) — and records each call
 * in a state file next to it. Inside the sandbox it has neither.
 */
export interface FakeGh {
  readonly bin: string;
  readonly path: string;
  /**
   * Argument vectors of the calls that had the token (the ones that reached "GitHub"), but for
   * the host's own question for the run's repository (`repo view --json nameWithOwner`).
   */
  calls(): string[][];
  /** Bodies read from stdin, one per call of `calls()`. */
  bodies(): string[];
  /** The calls with the repository each acted on and the folder it ran in. */
  log(): { argv: string[]; repository: string; cwd: string }[];
}

/** The fake's logic: the repository it acts on, its record, its answer. */
const FAKE_GH_SCRIPT = String.raw`
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const [state, body, ...argv] = process.argv.slice(2);
function flagRepo() {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repo" || argv[i] === "-R") return argv[i + 1];
    if (argv[i].startsWith("--repo=")) return argv[i].slice(7);
  }
  return undefined;
}
function remoteRepo() {
  try {
    const url = execFileSync("git", ["remote", "get-url", "origin"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const match = /github\.com[:/]([^/]+)\/([^/\s]+?)(\.git)?\s*$/.exec(url);
    return match === null ? undefined : (match[1] + "/" + match[2]).toLowerCase();
  } catch {
    return undefined;
  }
}
const viewsRepo = argv[0] === "repo" && argv[1] === "view";
const positional = viewsRepo ? argv.slice(2).find((a, i, all) => !a.startsWith("-") && !(all[i - 1] || "").startsWith("--")) : undefined;
// gh repo view reads the folder, not GH_REPO; the other commands take GH_REPO over the folder.
const repository = (viewsRepo ? positional || remoteRepo() : flagRepo() || process.env.GH_REPO || remoteRepo()) || "o/r";
fs.appendFileSync(state, JSON.stringify({ argv, body, repository, cwd: process.cwd() }) + "\n");
const verb = argv[0] + " " + argv[1];
if (verb === "issue view") process.stdout.write("title: Fix the parser\nstate: OPEN\n");
if (verb === "issue comment") process.stdout.write("https://github.com/" + repository + "/issues/" + argv[2] + "#issuecomment-1\n");
if (verb === "repo view") process.stdout.write(argv.includes("--json") ? JSON.stringify({ nameWithOwner: repository }) + "\n" : repository + "\n");
if (verb === "pr view") process.stdout.write('{"mergeable":"MERGEABLE","reviewDecision":"APPROVED","statusCheckRollup":[],"baseRefName":"main","headRefName":"feature"}\n');
`;

/** What the toolbox asks gh to learn the run's repository (`resolveRunRepository`). */
const RESOLVE_QUESTION = "repo view --json nameWithOwner";

export function fakeGh(dir: string): FakeGh {
  const bin = path.join(dir, "gh-bin");
  mkdirSync(bin, { recursive: true });
  const state = path.join(dir, "gh-state.jsonl");
  const script = path.join(bin, "fake-gh.cjs");
  writeFileSync(script, FAKE_GH_SCRIPT);
  const file = path.join(bin, "gh");
  writeFileSync(
    file,
    [
      "#!/bin/sh",
      `if [ "$GH_TOKEN" != "${GH_TOKEN}" ]; then echo "To get started with GitHub CLI, please run: gh auth login" >&2; exit 4; fi`,
      'body=""',
      'for arg in "$@"; do if [ "$arg" = "-" ]; then body=$(cat); fi; done',
      `exec node "${script}" "${state}" "$body" "$@"`,
    ].join("\n"),
  );
  chmodSync(file, 0o755);
  const lines = (): { argv: string[]; body: string; repository: string; cwd: string }[] =>
    existsSync(state)
      ? readFileSync(state, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map(
            (line) =>
              JSON.parse(line) as { argv: string[]; body: string; repository: string; cwd: string },
          )
      : [];
  const modelCalls = () => lines().filter((line) => line.argv.join(" ") !== RESOLVE_QUESTION);
  return {
    bin,
    path: file,
    calls: () => modelCalls().map((line) => line.argv),
    bodies: () => modelCalls().map((line) => line.body),
    log: () => lines().map(({ argv, repository, cwd }) => ({ argv, repository, cwd })),
  };
}

/** A git repository (one commit on main) whose `origin` is a local bare repository. */
export function repoWithRemote(dir: string): { work: string; remote: string; refs(): string } {
  const remote = path.join(dir, "remote.git");
  const work = path.join(dir, "work");
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.invalid",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.invalid",
      },
    });
  mkdirSync(work);
  git(dir, "init", "-q", "--bare", "-b", "main", remote);
  git(work, "init", "-q", "-b", "main");
  writeFileSync(path.join(work, "README.md"), "hello\n");
  git(work, "add", ".");
  git(work, "commit", "-qm", "first");
  writeFileSync(path.join(work, "a.txt"), "a\n");
  git(work, "add", ".");
  git(work, "commit", "-qm", "second");
  git(work, "remote", "add", "origin", remote);
  git(work, "push", "-q", "origin", "main");
  return { work, remote, refs: () => git(remote, "show-ref") };
}

/** A home directory full of credentials, as a developer's looks. */
export function credentialHome(dir: string): string {
  const home = path.join(dir, "host-home");
  mkdirSync(path.join(home, ".config", "gh"), { recursive: true });
  mkdirSync(path.join(home, ".ssh"), { recursive: true });
  writeFileSync(
    path.join(home, ".config", "gh", "hosts.yml"),
    `github.com:\n    oauth_token: ${GH_TOKEN}\n`,
  );
  writeFileSync(path.join(home, ".git-credentials"), `https://x:${GH_TOKEN}@github.com\n`);
  writeFileSync(path.join(home, ".ssh", "id_ed25519"), `PRIVATE ${API_KEY}\n`);
  writeFileSync(
    path.join(home, ".gitconfig"),
    "[user]\n\tname = Host User\n\temail = host@example.invalid\n[credential]\n\thelper = store\n",
  );
  return home;
}

/** The environment a developer runs climpt with: credentials everywhere. */
export function credentialEnv(home: string, gh: FakeGh): Record<string, string> {
  return {
    HOME: home,
    PATH: `${gh.bin}:${process.env.PATH ?? ""}`,
    ANTHROPIC_API_KEY: API_KEY,
    GH_TOKEN,
    GITHUB_TOKEN: GH_TOKEN,
    AWS_SECRET_ACCESS_KEY: AWS_SECRET,
    SSH_AUTH_SOCK: path.join(home, "agent.sock"),
    GIT_ASKPASS: "/bin/echo",
  };
}

/** An HTTP server on 127.0.0.1 that counts the requests it gets. */
export async function countingServer(): Promise<{
  port: number;
  hits(): number;
  close(): Promise<void>;
}> {
  let hits = 0;
  const server = http.createServer((_request, response) => {
    hits++;
    response.end("reached\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A unix socket server (an SSH agent, a docker socket) that counts connections. */
export async function countingSocket(file: string): Promise<{
  connections(): number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.end("agent\n");
  });
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return {
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Whether any process on the host has `marker` among its arguments. */
export function hostProcessWith(marker: string): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.includes(marker)) return true;
    } catch {
      // The process ended while we looked.
    }
  }
  return false;
}
