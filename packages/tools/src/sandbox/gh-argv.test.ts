import { describe, expect, it } from "vitest";
import { type ParsedGh, parseGhArgv } from "./gh-argv.ts";

function parsed(argv: readonly string[]): {
  path: string;
  args: readonly string[];
  flags: Record<string, readonly string[]>;
  help: boolean;
} {
  const result = parseGhArgv(argv);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  const value: ParsedGh = result.parsed;
  return {
    path: value.path.join(" "),
    args: value.args,
    flags: Object.fromEntries(value.flags),
    help: value.help,
  };
}

const refusal = (argv: readonly string[]): string => {
  const result = parseGhArgv(argv);
  if (result.ok) throw new Error(`parsed: ${JSON.stringify(result.parsed)}`);
  return result.reason;
};

describe("parseGhArgv (cobra + pflag rules)", () => {
  it("reads every spelling of a value-taking flag the same", () => {
    for (const argv of [
      ["api", "-X", "PATCH", "repos/o/r"],
      ["api", "-XPATCH", "repos/o/r"],
      ["api", "-X=PATCH", "repos/o/r"],
      ["api", "--method", "PATCH", "repos/o/r"],
      ["api", "--method=PATCH", "repos/o/r"],
      ["api", "repos/o/r", "-XPATCH"],
      ["api", "-iXPATCH", "repos/o/r"],
      ["api", "-iX", "PATCH", "repos/o/r"],
    ]) {
      expect(parsed(argv).flags.method, argv.join(" ")).toEqual(["PATCH"]);
      expect(parsed(argv).args, argv.join(" ")).toEqual(["repos/o/r"]);
    }
  });

  it("groups booleans, gives a value-taking letter the rest of the group or the next word", () => {
    expect(parsed(["issue", "view", "1", "-cq.title"]).flags).toEqual({
      comments: ["true"],
      jq: [".title"],
    });
    expect(parsed(["pr", "merge", "5", "-sd"]).flags).toEqual({
      squash: ["true"],
      "delete-branch": ["true"],
    });
    // A value is taken whatever it looks like.
    expect(parsed(["issue", "comment", "1", "--body", "--web"]).flags).toEqual({ body: ["--web"] });
    expect(parsed(["issue", "comment", "1", "-b", "-"]).flags).toEqual({ body: ["-"] });
    // `-f=x`: the value after `=`; `-b=` alone gives "=".
    expect(parsed(["api", "x", "-f=a=b"]).flags).toEqual({ "raw-field": ["a=b"] });
    expect(parsed(["issue", "comment", "1", "-b="]).flags).toEqual({ body: ["="] });
  });

  it("reads booleans written with a value, and refuses values that are not booleans", () => {
    expect(parsed(["issue", "view", "1", "--web=false"]).flags).toEqual({ web: ["false"] });
    expect(parsed(["issue", "view", "1", "-w=0"]).flags).toEqual({ web: ["false"] });
    // A separate `false` is a positional, as in pflag: here one argument too many.
    expect(refusal(["issue", "view", "1", "--web", "false"])).toContain("takes 1 argument, not 2");
    expect(refusal(["issue", "view", "1", "--web=maybe"])).toContain("not true or false");
    expect(refusal(["issue", "view", "1", "-c="])).toContain("-=");
  });

  it("ends flags at `--` and keeps flags anywhere among positionals, repeated in order", () => {
    expect(parsed(["search", "issues", "a", "--limit", "3", "b", "--", "-c", "--json"])).toEqual({
      path: "search issues",
      args: ["a", "b", "-c", "--json"],
      flags: { limit: ["3"] },
      help: false,
    });
    expect(
      parsed(["issue", "edit", "1", "--add-label", "a", "--add-label=b,c", "--remove-label", "d"])
        .flags,
    ).toEqual({ "add-label": ["a", "b,c"], "remove-label": ["d"] });
  });

  it("finds the command past flags before it, as cobra does", () => {
    expect(parsed(["-R", "o/r", "issue", "view", "1"])).toMatchObject({
      path: "issue view",
      flags: { repo: ["o/r"] },
    });
    expect(parsed(["issue", "--repo=o/r", "view", "1"]).path).toBe("issue view");
    expect(parsed(["issue", "-Ro/r", "view", "1"]).path).toBe("issue view");
    // cobra reads `--jq issue` at the root as a flag with a value, so no command is found.
    expect(refusal(["--jq", "issue", "issue", "view", "1"])).toContain("also the value of a flag");
    // Older cobra removes the first "issue" (the -R value), newer the command: refused.
    expect(refusal(["-R", "issue", "issue", "close", "2"])).toContain("also the value of a flag");
  });

  it("stops at help, wherever `--help` or `-h` stands", () => {
    expect(parsed(["issue", "close", "--help"]).help).toBe(true);
    // `-c` of `issue close` takes a value: the rest of the group, "h".
    expect(parsed(["issue", "close", "1", "-ch"])).toMatchObject({
      help: false,
      flags: { comment: ["h"] },
    });
    expect(parsed(["issue", "view", "1", "-ch"]).help).toBe(true);
    expect(parsed(["issue", "view", "1", "--help=false"]).help).toBe(false);
  });

  it("refuses what it cannot read with certainty", () => {
    expect(refusal(["issue", "view", "1", "--jsno", "x"])).toContain("no flag `--jsno`");
    expect(refusal(["issue", "view", "1", "-z"])).toContain("no flag `-z`");
    expect(refusal(["issue", "view", "1", "---json"])).toContain("not a flag gh can read");
    expect(refusal(["issue", "view", "1", "--=x"])).toContain("not a flag gh can read");
    expect(refusal(["issue", "view", "1", "-test.v"])).toContain("skips");
    expect(refusal(["issue", "view", "1", "--json"])).toContain("needs a value");
    expect(refusal(["issue", "view"])).toContain("takes 1 argument");
    expect(refusal(["issue", "view", "1", "2"])).toContain("takes 1 argument");
    expect(refusal(["issue"])).toContain("without a subcommand");
    expect(refusal(["issue", "ls"])).toContain("`gh issue ls` is not brokered");
    expect(refusal(["auth", "token"])).toContain("`gh auth` is not brokered");
    expect(refusal([])).toContain("without a subcommand");
  });
});
