// A fresh git copy of examples/sample-repo, for the demo and for recording its cassettes.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");

export function makeSampleRepo(prefix = "climpt-demo-") {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(path.join(ROOT, "examples", "sample-repo"), dir, { recursive: true });
  const git = (...args) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  // The agent commits in this repository: give it an identity of its own, so the demo works on
  // a machine where git has none configured.
  git("config", "user.name", "climpt demo");
  git("config", "user.email", "demo@climpt.invalid");
  git("add", "-A");
  git("commit", "-qm", "textkit: initial");
  return dir;
}
