import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ledgerOf } from "@climpt/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// Runs the fix-bug example twice over (real git, real validators, the fake Messages API).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const SECRET = "ledger-secret-7f3a9c2e1d";

describe("the completion ledger of the fix-bug run", () => {
  it("records every attempt with its commit, tree, cleanliness, findings and output digest", async () => {
    const repo = makeSampleRepo();
    const initial = git(repo, "rev-parse", "HEAD");
    // An untracked file whose name is a secret's value: git status prints it, so the first
    // attempt's git-clean output, findings and the step's changes all carry it unless scrubbed.
    writeFileSync(path.join(repo, `notes-${SECRET}.txt`), "notes\n");
    const { client, fake } = await fakeModel("fix-bug");
    closers.push(() => fake.close());
    const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
    const result = await new StepFlowRunner(loaded, {
      modelClient: client,
      env: { LEDGER_TEST_TOKEN: SECRET },
    }).run({ args: { issue: 1 }, cwd: repo });
    expect(result.error).toBeUndefined();

    const ledger = result.ledger ?? [];
    expect(ledger.map((attempt) => [attempt.stepId, attempt.attempt, attempt.passed])).toEqual([
      ["closure.fix", 1, false],
      ["closure.fix", 2, true],
    ]);
    const [first, second] = ledger;
    // The refused attempt ran on the initial commit with the fix uncommitted.
    expect(first?.commit).toEqual({
      sha: initial,
      tree: git(repo, "rev-parse", `${initial}^{tree}`),
      clean: false,
      branch: "main",
    });
    const dirty = first?.entries.find((entry) => entry.validator === "git-clean");
    expect(dirty).toMatchObject({ command: "git status --porcelain", passed: false, exitCode: 0 });
    expect(dirty?.extracted.changedFiles).toContain("src/slugify.js");
    // The passing attempt ran on the commit the agent made, clean.
    const head = git(repo, "rev-parse", "HEAD");
    expect(head).not.toBe(initial);
    expect(second?.commit).toEqual({
      sha: head,
      tree: git(repo, "rev-parse", "HEAD^{tree}"),
      clean: true,
      branch: "main",
    });
    const tests = second?.entries.find((entry) => entry.validator === "tests");
    expect(tests).toMatchObject({ command: "node test/run.js", passed: true, exitCode: 0 });
    expect(tests?.durationMs).toBeGreaterThanOrEqual(0);
    expect(tests?.output.tail).toContain("# pass 6");
    // The digest is of the whole output, which here is short enough to be all in the tail.
    const tail = tests?.output.tail ?? "";
    expect(tests?.output.chars).toBe(tail.length);
    expect(tests?.output.sha256).toBe(`sha256:${createHash("sha256").update(tail).digest("hex")}`);

    // The journal holds the same ledger, and the secret appears nowhere in it.
    const journal = readJournal(result.journalPath as string);
    expect(ledgerOf(journal)).toEqual(ledger);
    const text = JSON.stringify(journal);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(text).not.toContain(SECRET);
    expect(JSON.stringify(first)).toContain("notes-");

    // Each step's changes: the implement step edited src/slugify.js; analysis changed nothing.
    const changes = journal.flatMap((event) =>
      event.type === "step_changes"
        ? [`${event.iteration}:${event.stepId}:${event.files.map((file) => file.path).join(",")}`]
        : [],
    );
    expect(changes[0]).toBe("1:initial.analyze:");
    expect(changes[1]).toBe("2:continuation.implement:src/slugify.js");
    const implement = journal.find(
      (event) => event.type === "step_changes" && event.iteration === 2,
    );
    expect(implement?.type === "step_changes" && implement.files[0]?.added).toBeGreaterThan(0);
    expect(changes).toHaveLength(7);
  });
});
