import { describe, expect, it } from "vitest";
import { resumeCommandFor } from "./resume-hint.ts";

describe("resumeCommandFor", () => {
  it("names the agent by path when the run was started that way, and keeps --replay and --cwd", () => {
    const argv = ["./agents/fix-bug", "--issue", "3", "--replay", "c.json", "--cwd=/repo"];
    expect(resumeCommandFor("./agents/fix-bug", argv, "20261122T000000Z-abc123")).toBe(
      "climpt resume 20261122T000000Z-abc123 --agent ./agents/fix-bug --replay c.json --cwd /repo",
    );
  });

  it("leaves a name to be found under .agent/ again, keeping --agent-dir", () => {
    expect(resumeCommandFor("fix-bug", ["fix-bug", "--agent-dir", "my agents"], "R1")).toBe(
      "climpt resume R1 --agent-dir 'my agents'",
    );
  });
});
