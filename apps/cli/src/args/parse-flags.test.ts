import { type AgentParameter, ownRecord, setEntry } from "@climpt/model";
import { validateArgs } from "@climpt/runner";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLI_CODES } from "../cli-codes.ts";
import { wantsJson } from "../commands/command-line.ts";
import { RUN_FLAGS } from "../commands/run-flags.ts";
import { collectAgentArgs, parameterFlagSpecs, passedArgs } from "./agent-flags.ts";
import { parseFlags } from "./parse-flags.ts";

const parameters: Record<string, AgentParameter> = {
  issue: {
    name: "issue",
    type: "number",
    required: true,
    cli: "--issue",
    description: "Issue number",
  },
  task: { name: "task", type: "string", required: false, default: "fix it", cli: "--task" },
  dryRun: { name: "dryRun", type: "boolean", required: false, cli: "--dry-run" },
};
const specs = [...RUN_FLAGS, ...parameterFlagSpecs(parameters)];

/** What `climpt run` does: parse, collect, then the runner's one check (not when resuming). */
function parseRun(argv: string[], options: { resume?: boolean } = {}) {
  const parsed = parseFlags(argv, specs);
  const collected = collectAgentArgs(
    parsed.values,
    (parsed.values.get("param") ?? []) as string[],
    parameters,
  );
  const checked = options.resume
    ? undefined
    : validateArgs({ name: "a", parameters }, collected.args);
  const problems = [...parsed.problems, ...collected.problems];
  if (checked !== undefined && !checked.ok) problems.push(...checked.issues);
  const args = checked?.ok ? passedArgs(checked.value, collected.args) : collected.args;
  return { parsed, args, problems };
}

describe("typed agent parameter flags", () => {
  it("types each value by the parameter's declaration", () => {
    const { args, problems, parsed } = parseRun([
      "fix-bug",
      "--issue",
      "123",
      "--task=make it pass",
      "--dry-run",
    ]);
    expect(problems).toEqual([]);
    expect(parsed.positionals).toEqual(["fix-bug"]);
    expect(args).toEqual({ issue: 123, task: "make it pass", dryRun: true });
  });

  it("accepts --no-<flag> and --flag=false for booleans", () => {
    expect(parseRun(["a", "--issue", "1", "--no-dry-run"]).args.dryRun).toBe(false);
    expect(parseRun(["a", "--issue", "1", "--dry-run=false"]).args.dryRun).toBe(false);
    expect(parseRun(["a", "--issue", "1", "--dry-run=yes"]).args.dryRun).toBe(true);
  });

  it("refuses a value of the wrong type, saying what was expected", () => {
    const { problems } = parseRun(["a", "--issue", "abc"]);
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: "RUN-ARGS-002",
        message: 'Parameter "issue" (--issue) must be a number; got "abc".',
      }),
    );
  });

  it("takes a negative number as a value, not as a flag", () => {
    const { args, problems } = parseRun(["a", "--issue", "-4"]);
    expect(problems).toEqual([]);
    expect(args.issue).toBe(-4);
  });

  it("reports a flag with no value", () => {
    const { problems } = parseRun(["a", "--issue", "1", "--task"]);
    expect(problems).toEqual([
      expect.objectContaining({ code: CLI_CODES.missingValue, message: "--task needs a value." }),
    ]);
  });

  it("round-trips any declared value given as its flag", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.string().filter((text) => !text.startsWith("-")),
        fc.boolean(),
        (issue, task, dryRun) => {
          const { args, problems } = parseRun([
            "agent",
            "--issue",
            String(issue),
            `--task=${task}`,
            dryRun ? "--dry-run" : "--no-dry-run",
          ]);
          expect(problems).toEqual([]);
          expect(args).toEqual({ issue, task, dryRun });
        },
      ),
    );
  });
});

describe("--param NAME=VALUE", () => {
  it("sets parameters by name or by flag name, typed the same way", () => {
    const { args, problems } = parseRun([
      "a",
      "--param",
      "issue=42",
      "--param",
      "dry-run=true",
      "--param=task=a=b",
    ]);
    expect(problems).toEqual([]);
    expect(args).toEqual({ issue: 42, dryRun: true, task: "a=b" });
  });

  it("reports an entry without '=' and a name the agent does not declare, with a suggestion", () => {
    const { problems } = parseRun(["a", "--issue", "1", "--param", "issue", "--param", "isue=3"]);
    expect(problems).toEqual([
      expect.objectContaining({
        code: CLI_CODES.badParam,
        message: '--param expects NAME=VALUE, got "issue".',
      }),
      expect.objectContaining({
        code: "RUN-ARGS-001",
        message: 'Agent "a" has no parameter "isue".',
        hint: "Did you mean issue? Declared parameters: issue (--issue), task (--task), dryRun (--dry-run).",
      }),
    ]);
  });

  it("refuses the same parameter given twice", () => {
    const { problems } = parseRun(["a", "--issue", "1", "--param", "issue=2"]);
    expect(problems).toEqual([expect.objectContaining({ code: CLI_CODES.repeatedFlag })]);
  });

  it("type-checks its value", () => {
    const { problems } = parseRun(["a", "--param", "issue=twelve"]);
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: "RUN-ARGS-002",
        message: 'Parameter "issue" (--issue) must be a number; got "twelve".',
      }),
    );
  });
});

describe("required parameters", () => {
  it("reports every missing required parameter with how to pass it", () => {
    const { problems } = parseRun(["a"]);
    expect(problems).toEqual([
      {
        code: "RUN-ARGS-003",
        severity: "error",
        message: 'Agent "a" needs parameter "issue" (--issue, number): Issue number.',
        path: "$.parameters.issue.required",
        hint: "Pass --issue 123 (or --param issue=123).",
      },
    ]);
  });

  it("does not require what has a default, nor anything when resuming", () => {
    expect(parseRun(["a", "--issue", "3"]).problems).toEqual([]);
    expect(parseRun(["a", "--resume", "run-1"], { resume: true }).problems).toEqual([]);
  });
});

describe("unknown flags", () => {
  it("is an error that suggests the closest command or parameter flag", () => {
    const { problems } = parseRun(["a", "--isue", "5"]);
    expect(problems).toContainEqual({
      code: CLI_CODES.unknownFlag,
      severity: "error",
      message: "Unknown flag --isue.",
      hint: "Did you mean --issue? Run the command with --help to see its flags.",
    });
    // The typo's value is not reported again as a stray argument.
    expect(parseFlags(["a", "--isue", "5"], specs).positionals).toEqual(["a"]);
    const command = parseFlags(["a", "--max-iteration", "3"], specs).problems[0];
    expect(command?.hint).toContain("Did you mean --max-iterations?");
    const negated = parseFlags(["a", "--no-dryrun"], specs).problems[0];
    expect(negated?.hint).toContain("Did you mean --no-dry-run?");
  });

  it("says so when nothing is close", () => {
    const [problem] = parseFlags(["--frobnicate"], specs).problems;
    expect(problem?.hint).toBe("Run the command with --help to see its flags.");
  });

  it("collects unknown flags in lenient mode, keeping a possible value aside", () => {
    const parsed = parseFlags(["--issue", "5", "fix-bug", "--json"], RUN_FLAGS, { lenient: true });
    expect(parsed.problems).toEqual([]);
    expect(parsed.positionals).toEqual(["fix-bug"]);
    expect(parsed.unknown).toEqual([{ name: "issue", index: 0, maybeValueIndex: 1 }]);
    expect(parsed.values.get("json")).toBe(true);
  });
});

describe("command flags", () => {
  it("reads the run flags with their types", () => {
    const parsed = parseFlags(
      [
        "a",
        "--max-iterations",
        "5",
        "--max-cost=0.5",
        "--max-time",
        "1h30m",
        "--max-tokens",
        "9000",
        "--no-worktree",
        "--model",
        "haiku",
      ],
      RUN_FLAGS,
    );
    expect(parsed.problems).toEqual([]);
    expect(Object.fromEntries(parsed.values)).toEqual({
      maxIterations: 5,
      maxCost: 0.5,
      maxTime: 5_400_000,
      maxTokens: 9000,
      worktree: false,
      model: "haiku",
    });
  });

  it("reports a single-value flag given twice", () => {
    const [problem] = parseFlags(["--model", "opus", "--model", "haiku"], RUN_FLAGS).problems;
    expect(problem).toMatchObject({
      code: CLI_CODES.repeatedFlag,
      message: "--model is given more than once.",
    });
  });

  it("treats everything after -- as positional", () => {
    const parsed = parseFlags(["--", "--json"], RUN_FLAGS);
    expect(parsed.positionals).toEqual(["--json"]);
    expect(parsed.values.has("json")).toBe(false);
  });

  it("sees -h and --help", () => {
    expect(parseFlags(["-h"], RUN_FLAGS).help).toBe(true);
    expect(parseFlags(["x", "--help"], RUN_FLAGS).help).toBe(true);
  });
});

describe("--json", () => {
  it("is a plain boolean flag", () => {
    expect(parseFlags(["a", "--json"], RUN_FLAGS).values.get("json")).toBe(true);
    expect(parseFlags(["a", "--json=false"], RUN_FLAGS).values.get("json")).toBe(false);
  });

  it("is found even when the rest of the line does not parse, so errors honour it", () => {
    expect(wantsJson(["a", "--isue", "3", "--json"])).toBe(true);
    expect(wantsJson(["a", "--", "--json"])).toBe(false);
    expect(wantsJson(["a"])).toBe(false);
  });
});

describe("parameters named like Object.prototype's members", () => {
  // The loader gives parameters as a record with no prototype; the CLI must not bring one back.
  const toStringParameter: AgentParameter = {
    name: "toString",
    type: "string",
    required: true,
    cli: "--to-string",
  };
  const proto: AgentParameter = {
    name: "__proto__",
    type: "string",
    required: false,
    cli: "--proto",
  };
  const named = ownRecord<AgentParameter>();
  setEntry(named, "toString", toStringParameter);
  setEntry(named, "__proto__", proto);
  const namedSpecs = [...RUN_FLAGS, ...parameterFlagSpecs(named)];

  it("takes __proto__ and toString as the parameters they are, by flag and by --param", () => {
    for (const argv of [
      ["a", "--to-string", "x", "--proto", "y"],
      ["a", "--param", "toString=x", "--param", "__proto__=y"],
    ]) {
      const parsed = parseFlags(argv, namedSpecs);
      const { args, problems } = collectAgentArgs(
        parsed.values,
        (parsed.values.get("param") ?? []) as string[],
        named,
      );
      expect(problems).toEqual([]);
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(Object.entries(args).sort()).toEqual([
        ["__proto__", "y"],
        ["toString", "x"],
      ]);
    }
  });

  it("still says a required toString is missing when it is", () => {
    const parsed = parseFlags(["a"], namedSpecs);
    const { args } = collectAgentArgs(parsed.values, [], named);
    const checked = validateArgs({ name: "a", parameters: named }, args);
    expect(checked.ok ? "" : checked.issues.map((problem) => problem.message).join("\n")).toContain(
      "--to-string",
    );
  });
});
