import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { issuesOf, okValue } from "./c3l-resolver.test-helper.ts";
import { checkRetryTemplate, renderRetryTemplate } from "./retry-template.ts";

const render = (template: string, params: Record<string, never> | object) =>
  okValue(renderRetryTemplate(template, params as never));

describe("renderRetryTemplate", () => {
  it("fills names, dot paths and array indices, tolerating spaces in tags", () => {
    const params = { count: 2, git: { branch: "main" }, files: ["a.ts", "b.ts"] };
    expect(render("{{ count }} on {{git.branch}}: {{files.0}}, {{files[1]}}", params).text).toBe(
      "2 on main: a.ts, b.ts",
    );
  });

  it("renders objects and arrays as JSON and null as null, like UV values", () => {
    expect(render("{{o}} {{n}}", { o: { a: [1] }, n: null }).text).toBe(
      '{\n  "a": [\n    1\n  ]\n} null',
    );
  });

  it("iterates with {{#each}}: this, this.field, @index, and nested lists", () => {
    const params = {
      errors: [
        { file: "a.ts", lines: [3, 9] },
        { file: "b.ts", lines: [1] },
      ],
    };
    const template =
      "{{#each errors}}{{@index}}. {{this.file}}:{{#each this.lines}} L{{this}}{{/each}}\n{{/each}}";
    expect(render(template, params).text).toBe("0. a.ts: L3 L9\n1. b.ts: L1\n");
  });

  it("reaches outer params and item fields by bare name inside a loop", () => {
    expect(
      render("{{#each files}}{{name}} in {{repo}}; {{/each}}", {
        repo: "climpt",
        files: [{ name: "x" }, { name: "y" }],
      }).text,
    ).toBe("x in climpt; y in climpt; ");
  });

  it("iterates an object's values with @key, and a single value once", () => {
    expect(render("{{#each m}}{{@key}}={{this}} {{/each}}", { m: { a: 1, b: 2 } }).text).toBe(
      "a=1 b=2 ",
    );
    expect(render("{{#each one}}[{{this}}]{{/each}}", { one: "only.ts" }).text).toBe("[only.ts]");
  });

  it("renders {{else}} of an each for an empty or missing list", () => {
    const template = "{{#each files}}{{this}}{{else}}no files{{/each}}";
    expect(render(template, { files: [] }).text).toBe("no files");
    expect(render(template, {}).text).toBe("no files");
  });

  it.each([
    [undefined, false],
    [null, false],
    [false, false],
    [0, false],
    ["", false],
    [[], false],
    [true, true],
    [1, true],
    ["x", true],
    [[0], true],
    [{}, true],
  ])("{{#if}} treats %j as %s", (value, truthy) => {
    expect(
      render("{{#if v}}yes{{else}}no{{/if}}", value === undefined ? {} : { v: value }).text,
    ).toBe(truthy ? "yes" : "no");
  });

  it("nests if inside each", () => {
    const params = {
      tests: [
        { name: "a", failed: true },
        { name: "b", failed: false },
      ],
    };
    expect(
      render("{{#each tests}}{{#if this.failed}}FAIL {{this.name}} {{/if}}{{/each}}", params).text,
    ).toBe("FAIL a ");
  });

  it("renders a missing value as empty text and lists it", () => {
    expect(render("Files: {{changedFiles}}{{#each x}}{{this.nope}}{{/each}}", { x: [1] })).toEqual({
      text: "Files: ",
      missing: ["changedFiles", "this.nope"],
    });
  });

  it("writes a literal {{ when escaped", () => {
    expect(render("use \\{{name}} syntax", { name: "x" }).text).toBe("use {{name}} syntax");
  });

  it("leaves single braces and {uv-*} placeholders alone", () => {
    expect(render('{"a": 1} {uv-issue} {c1}', {}).text).toBe('{"a": 1} {uv-issue} {c1}');
  });

  it("applies the literal transform to template text only, never to inserted values", () => {
    const out = okValue(
      renderRetryTemplate("A {{v}} B", { v: "a b" }, { literal: (t) => t.toUpperCase() }),
    );
    expect(out.text).toBe("A a b B");
  });

  it("renders text without tags unchanged", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.includes("{{"));
        expect(render(text, {}).text).toBe(text);
      }),
    );
  });
});

describe("retry template syntax errors (PR-RESOLVE-006)", () => {
  it.each([
    ["{{#each files}}{{this}}", "is never closed", "line 1, column 1"],
    [
      "ok\n  {{#if a}}{{#each b}}{{/if}}{{/each}}",
      "closes {{#each b}} opened at line 2, column 12",
      "line 2, column 23",
    ],
    ["x {{/each}}", "never opened", "line 1, column 3"],
    ["{{#with a}}{{/with}}", "Unknown block {{#with}}", "line 1, column 1"],
    ["{{#each}}{{/each}}", "needs exactly one name", "line 1, column 1"],
    ["{{#if a b}}{{/if}}", "needs exactly one name", "line 1, column 1"],
    ["{{else}}", "outside of", "line 1, column 1"],
    ["{{#if a}}1{{else}}2{{else}}3{{/if}}", "second {{else}}", "line 1, column 20"],
    ["hello {{name", "never closed with }}", "line 1, column 7"],
    ["{{a b}}", "not a value reference", "line 1, column 1"],
  ])("%j → %s at %s", (template, message, position) => {
    const [issue] = issuesOf(renderRetryTemplate(template, {}, { file: "/p/f_failed.md" }));
    expect(issue).toMatchObject({ code: "PR-RESOLVE-006", file: "/p/f_failed.md", path: position });
    expect(issue?.message).toContain(message);
  });

  it("gives positions in file lines after a stripped frontmatter", () => {
    expect(issuesOf(checkRetryTemplate("a\n{{/if}}", { firstLine: 4 }))[0]?.path).toBe(
      "line 5, column 1",
    );
  });

  it("accepts a valid template without rendering it", () => {
    expect(checkRetryTemplate("{{#each a}}{{#if this}}{{this}}{{/if}}{{/each}}").ok).toBe(true);
  });
});
