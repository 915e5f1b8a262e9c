import { describe, expect, it } from "vitest";
import { FIXTURE_ROOT, loadFixture } from "../fixtures.test-helper.ts";
import { detectTestFramework, parseTestOutput } from "./test-output.ts";

function parseFixture(name: string, project: string) {
  const fixture = loadFixture(name);
  return parseTestOutput(fixture.stdout, fixture.stderr, `${FIXTURE_ROOT}/${project}`);
}

describe("parseTestOutput on captured runs", () => {
  it.each(["vitest-failures", "vitest-failures-verbose", "vitest-failures-color"])(
    "vitest: %s",
    (name) => {
      expect(parseFixture(name, "vitest")).toEqual({
        framework: "vitest",
        passed: 3,
        failed: 2,
        skipped: 1,
        failures: [
          {
            name: "math > subtracts wrongly",
            file: "test/math.test.ts",
            message: "AssertionError: expected 2 to be 1 // Object.is equality",
          },
          { name: "throws", file: "test/strings.test.ts", message: "Error: boom in strings" },
        ],
      });
    },
  );

  it("vitest: a passing run", () => {
    expect(parseFixture("vitest-pass", "vitest")).toEqual({
      framework: "vitest",
      passed: 1,
      failed: 0,
      skipped: 0,
      failures: [],
    });
  });

  it.each(["jest-failures", "jest-failures-verbose"])("jest: %s", (name) => {
    expect(parseFixture(name, "jest")).toEqual({
      framework: "jest",
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: [
        {
          name: "math › subtracts wrongly",
          file: "__tests__/math.test.js",
          message: "expect(received).toBe(expected) // Object.is equality",
        },
      ],
    });
  });

  it("node:test, TAP reporter: suite names prefix the test, suites that only failed through children are left out", () => {
    expect(parseFixture("node-test-tap", "node-test")).toEqual({
      framework: "node:test",
      passed: 1,
      failed: 2,
      skipped: 2,
      failures: [
        {
          name: "math > subtracts wrongly",
          file: "test/math.test.mjs",
          message: "Expected values to be strictly equal:",
        },
        { name: "top-level failure", file: "test/math.test.mjs", message: "boom at top level" },
      ],
    });
  });

  it("node:test, spec reporter", () => {
    expect(parseFixture("node-test-spec", "node-test")).toEqual({
      framework: "node:test",
      passed: 1,
      failed: 2,
      skipped: 2,
      failures: [
        {
          name: "subtracts wrongly",
          file: "test/math.test.mjs",
          message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
        },
        {
          name: "top-level failure",
          file: "test/math.test.mjs",
          message: "Error: boom at top level",
        },
      ],
    });
  });

  it("deno test: tests, not steps, are counted", () => {
    expect(parseFixture("deno-test", "deno")).toEqual({
      framework: "deno",
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: [
        { name: "subtracts wrongly", file: "math_test.ts", message: "Error: expected 1, got 2" },
      ],
    });
  });

  it.each(["pytest-failures", "pytest-failures-verbose"])("pytest: %s", (name) => {
    expect(parseFixture(name, "pytest")).toEqual({
      framework: "pytest",
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: [
        {
          name: "test_subtracts_wrongly",
          file: "tests/test_math.py",
          message: "assert (5 - 3) == 1",
        },
        {
          name: "TestStrings::test_raises",
          file: "tests/test_math.py",
          message: "ValueError: boom in strings",
        },
      ],
    });
  });

  const goFailures = [
    { name: "TestSubtractWrongly", file: "calc_test.go", message: "5 - 3 = 2, want 1" },
    { name: "TestTable/bad_case", file: "calc_test.go", message: "sub failed" },
  ];

  it.each(["go-test-failures-verbose", "go-test-json"])(
    "go test: %s counts leaf tests (a parent of subtests is not a test of its own)",
    (name) => {
      expect(parseFixture(name, "go")).toEqual({
        framework: "go",
        passed: 3,
        failed: 2,
        skipped: 1,
        failures: goFailures,
      });
    },
  );

  it("go test without -v: only failures are printed, so only they are counted", () => {
    expect(parseFixture("go-test-failures", "go")).toEqual({
      framework: "go",
      passed: 0,
      failed: 2,
      skipped: 0,
      failures: goFailures,
    });
    expect(parseFixture("go-test-pass", "go").failed).toBe(0);
  });
});

describe("parseTestOutput on other shapes", () => {
  it("pytest without the short summary falls back to the failure sections", () => {
    const output = [
      "============================= test session starts ==============================",
      "=================================== FAILURES ===================================",
      "_________________________ TestThing.test_bad _________________________",
      "",
      "    def test_bad(self):",
      ">       assert 1 == 2",
      "E       assert 1 == 2",
      "",
      "tests/test_thing.py:4: AssertionError",
      "========================= 1 failed, 3 passed in 0.10s ==========================",
    ].join("\n");
    expect(parseTestOutput(output)).toEqual({
      framework: "pytest",
      passed: 3,
      failed: 1,
      skipped: 0,
      failures: [
        { name: "TestThing::test_bad", file: "tests/test_thing.py", message: "assert 1 == 2" },
      ],
    });
  });

  it("pytest -q summary line and errors count as failures", () => {
    const report = parseTestOutput(
      "..F\nERROR tests/test_x.py::test_fixture - RuntimeError: no db\n1 failed, 2 passed, 1 error in 0.05s\n",
    );
    expect(report.framework).toBe("pytest");
    expect(report).toMatchObject({ passed: 2, failed: 2 });
  });

  it("go: a package that does not build is a failure", () => {
    const report = parseTestOutput(
      "# example.com/broken\n./a.go:3:1: syntax error\nFAIL\texample.com/broken [build failed]\nFAIL\n",
    );
    expect(report).toEqual({
      framework: "go",
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: [{ name: "example.com/broken", message: "build failed" }],
    });
  });

  it("an unknown runner gives counts from a plain closing line, or zeros", () => {
    expect(parseTestOutput("custom runner\nresult: 7 passed, 1 failed, 2 skipped\n")).toEqual({
      framework: "unknown",
      passed: 7,
      failed: 1,
      skipped: 2,
      failures: [],
    });
    expect(parseTestOutput("nothing to see")).toEqual({
      framework: "unknown",
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [],
    });
  });

  it("recognises each captured runner", () => {
    const cases: [string, string][] = [
      ["vitest-pass", "vitest"],
      ["jest-failures", "jest"],
      ["node-test-tap", "node:test"],
      ["node-test-spec", "node:test"],
      ["deno-test", "deno"],
      ["pytest-failures", "pytest"],
      ["go-test-pass", "go"],
      ["go-test-json", "go"],
    ];
    for (const [name, framework] of cases) {
      const fixture = loadFixture(name);
      expect(detectTestFramework(`${fixture.stdout}\n${fixture.stderr}`), name).toBe(framework);
    }
  });
});
