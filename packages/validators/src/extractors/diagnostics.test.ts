import { describe, expect, it } from "vitest";
import { FIXTURE_ROOT, loadFixture } from "../fixtures.test-helper.ts";
import { parseFormatOutput } from "./format-output.ts";
import { parseLintErrors } from "./lint-errors.ts";
import { parseTypeErrors } from "./type-errors.ts";

function run<T>(
  name: string,
  project: string,
  parse: (out: string, err: string, cwd: string, command: string) => T,
): T {
  const fixture = loadFixture(name);
  return parse(fixture.stdout, fixture.stderr, `${FIXTURE_ROOT}/${project}`, fixture.command);
}

const TSC_ERRORS = [
  {
    file: "src/math.ts",
    line: 4,
    column: 7,
    code: "TS2322",
    message: "Type 'number' is not assignable to type 'string'.",
  },
  {
    file: "src/user name.ts",
    line: 4,
    column: 40,
    code: "TS2353",
    message:
      "Object literal may only specify known properties, and 'age' does not exist in type 'User'.",
  },
  {
    file: "src/user name.ts",
    line: 6,
    column: 12,
    code: "TS2339",
    message: "Property 'nickname' does not exist on type 'User'.",
  },
];

describe("parseTypeErrors on captured output", () => {
  it.each(["tsc-errors", "tsc-errors-pretty"])("tsc: %s", (name) => {
    expect(run(name, "tsc", parseTypeErrors)).toEqual(TSC_ERRORS);
  });

  it("tsc: a clean run has none", () => {
    expect(run("tsc-clean", "tsc", parseTypeErrors)).toEqual([]);
  });

  it("deno check: the location from the `at file://` line, relative to the project", () => {
    expect(run("deno-check", "deno", parseTypeErrors)).toEqual([
      {
        file: "types.ts",
        line: 1,
        column: 7,
        code: "TS2322",
        message: "Type 'string' is not assignable to type 'number'.",
      },
      {
        file: "types.ts",
        line: 3,
        column: 24,
        code: "TS2554",
        message: "Expected 0 arguments, but got 1.",
      },
    ]);
  });
});

describe("parseTypeErrors on other shapes", () => {
  it("keeps a plain message's indented elaboration and reads project-wide errors", () => {
    const output = [
      "src/a.ts(1,7): error TS2322: Type '{ a: number; }' is not assignable to type 'B'.",
      "  Property 'b' is missing in type '{ a: number; }' but required in type 'B'.",
      "error TS18003: No inputs were found in config file 'tsconfig.json'.",
    ].join("\n");
    expect(parseTypeErrors(output)).toEqual([
      {
        file: "src/a.ts",
        line: 1,
        column: 7,
        code: "TS2322",
        message:
          "Type '{ a: number; }' is not assignable to type 'B'.\nProperty 'b' is missing in type '{ a: number; }' but required in type 'B'.",
      },
      {
        file: "",
        line: 0,
        column: 0,
        code: "TS18003",
        message: "No inputs were found in config file 'tsconfig.json'.",
      },
    ]);
  });
});

const ESLINT = [
  {
    file: "src/app.js",
    line: 1,
    column: 7,
    severity: "error",
    rule: "no-unused-vars",
    message: "'unused' is assigned a value but never used",
  },
  {
    file: "src/app.js",
    line: 3,
    column: 9,
    severity: "error",
    rule: "eqeqeq",
    message: "Expected '===' and instead saw '=='",
  },
  {
    file: "src/app.js",
    line: 4,
    column: 5,
    severity: "warning",
    rule: "no-debugger",
    message: "Unexpected 'debugger' statement",
  },
];

describe("parseLintErrors on captured output", () => {
  it("eslint stylish", () => {
    expect(run("eslint-stylish", "eslint", parseLintErrors)).toEqual(ESLINT);
  });

  it("eslint unix formatter (its messages end with a period)", () => {
    expect(run("eslint-unix", "eslint", parseLintErrors)).toEqual(
      ESLINT.map((item) => ({ ...item, message: `${item.message}.` })),
    );
  });

  it.each(["biome-lint", "biome-check", "biome-ci"])(
    "biome: %s reports the lint rule and leaves format diagnostics out",
    (name) => {
      expect(run(name, "biome", parseLintErrors)).toEqual([
        {
          file: "src/lint.js",
          line: 2,
          column: 20,
          severity: "error",
          rule: "lint/suspicious/noDebugger",
          message: "This is an unexpected use of the debugger statement.",
        },
      ]);
    },
  );

  it("biome format alone has no lint errors", () => {
    expect(run("biome-format", "biome", parseLintErrors)).toEqual([]);
  });

  it("deno lint", () => {
    expect(run("deno-lint", "deno", parseLintErrors)).toEqual([
      {
        file: "lint.ts",
        line: 2,
        column: 3,
        severity: "error",
        rule: "no-debugger",
        message: "`debugger` statement is not allowed",
      },
      {
        file: "lint.ts",
        line: 3,
        column: 3,
        severity: "error",
        rule: "no-var",
        message: "`var` keyword is not allowed.",
      },
    ]);
  });

  it("an eslint row without a rule (a parsing error)", () => {
    const output =
      "\n/p/src/bad.js\n  2:1  error  Parsing error: Unexpected token }\n\n✖ 1 problem\n";
    expect(parseLintErrors(output, "", "/p")).toEqual([
      {
        file: "src/bad.js",
        line: 2,
        column: 1,
        severity: "error",
        rule: "",
        message: "Parsing error: Unexpected token }",
      },
    ]);
  });
});

describe("parseFormatOutput on captured output", () => {
  it.each(["biome-format", "biome-check", "biome-ci"])("biome: %s", (name) => {
    expect(run(name, "biome", parseFormatOutput)).toEqual(["src/lint.js", "src/ugly.js"]);
  });

  it("prettier --check", () => {
    expect(run("prettier-check", "prettier", parseFormatOutput)).toEqual([
      "README.md",
      "src/ugly.js",
    ]);
  });

  it("prettier --list-different: bare lines count because the command says so", () => {
    expect(run("prettier-list-different", "prettier", parseFormatOutput)).toEqual([
      "README.md",
      "src/ugly.js",
    ]);
    const { stdout } = loadFixture("prettier-list-different");
    expect(parseFormatOutput(stdout, "", undefined, "cat list.txt")).toEqual([]);
  });

  it("deno fmt --check", () => {
    expect(run("deno-fmt-check", "deno", parseFormatOutput)).toEqual(["ugly.ts", "math_test.ts"]);
  });

  it("biome lint output names no unformatted files", () => {
    expect(run("biome-lint", "biome", parseFormatOutput)).toEqual([]);
  });
});
