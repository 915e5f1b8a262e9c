import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { scaffoldFiles } from "../init/write-scaffold.ts";
import { tempDir } from "./spawn-cli.test-helper.ts";

/** Commits made by the tests (and by the fake model's Bash calls) need an identity. */
export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "climpt-test",
  GIT_AUTHOR_EMAIL: "test@climpt.invalid",
  GIT_COMMITTER_NAME: "climpt-test",
  GIT_COMMITTER_EMAIL: "test@climpt.invalid",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    env: { ...process.env, ...GIT_IDENTITY },
    encoding: "utf8",
  }).trim();
}

export type AgentFiles = Readonly<Record<string, string | object>>;

/**
 * A git repository with one commit holding the agent under `.agent/<name>/` and a .gitignore
 * for the journal (tmp/), so the git-clean validator sees only what the model changed.
 */
export function makeProject(name: string, files: AgentFiles): string {
  const root = tempDir("project");
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, ".agent", name, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(
      target,
      typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
  writeFileSync(path.join(root, ".gitignore"), "tmp/\n");
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "agent");
  return root;
}

/** What `climpt init <name>` writes, as files for `makeProject`. */
export function initFiles(name: string, dialect: "gate" | "check" = "gate"): AgentFiles {
  return Object.fromEntries(scaffoldFiles(name, dialect).map((file) => [file.path, file.content]));
}
