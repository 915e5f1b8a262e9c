/**
 * The GitHub broker's decision on one `gh` invocation from inside the sandbox, made on its final
 * argument vector: whatever the shell did to build it (variables, base64, a renamed copy), this
 * is what would run. Pure.
 */

export type GhStepKind = "work" | "verification" | "closure" | "section";

export type GhDecision =
  /** Run the real `gh` with these arguments (outside the sandbox, with credentials). */
  | { readonly kind: "run" }
  /** Record a close request for the boundary hook instead of closing now (closure steps). */
  | {
      readonly kind: "record-close";
      readonly issue: number;
      readonly comment?: string;
    }
  | { readonly kind: "refuse"; readonly reason: string };

/** Subcommands that only read. */
const READ_ONLY: Readonly<Record<string, readonly string[]>> = {
  issue: ["list", "view", "status"],
  pr: ["list", "view", "status", "diff", "checks"],
  repo: ["view"],
  release: ["list", "view"],
  label: ["list"],
  search: ["issues", "prs", "repos", "commits", "code"],
  run: ["list", "view"],
  workflow: ["list", "view"],
};

/** Flags whose value names a file the real `gh` (outside the sandbox) would read. */
const FILE_FLAGS = new Set(["--body-file", "-F", "--input"]);

/** Flags whose value is an expression that could read gh's environment (gojq `$ENV`, `env`). */
const EXPRESSION_FLAGS = new Set(["--jq", "-q", "--template", "-t"]);

/** Flags that take a value, wherever they stand (the repository, and `gh api`'s request flags). */
const VALUE_FLAGS = new Set([
  "-R",
  "--repo",
  "-X",
  "--method",
  "-H",
  "--header",
  "-f",
  "--field",
  "--raw-field",
  "-p",
  "--preview",
  "--cache",
]);

const BOUNDARY_NOTE =
  "Closing, merging, releasing and other writes happen only in the boundary hook, after the run is validated.";

function refuse(reason: string): GhDecision {
  return { kind: "refuse", reason };
}

interface ParsedGh {
  readonly positionals: readonly string[];
  /** Flag name → its values (a flag may repeat); `true` for flags without a value we know of. */
  readonly flags: ReadonlyMap<string, readonly string[]>;
}

/**
 * Splits `gh` arguments into positionals and flags. A flag's value is the next argument unless
 * it is written `--flag=value`; flags are assumed to take a value when the next argument does not
 * start with `-`, which is how gh reads the flags this policy looks at.
 */
function parseGh(argv: readonly string[]): ParsedGh {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  const add = (name: string, value: string): void => {
    flags.set(name, [...(flags.get(name) ?? []), value]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--") && arg.includes("=")) {
      const eq = arg.indexOf("=");
      add(arg.slice(0, eq), arg.slice(eq + 1));
    } else if (arg.startsWith("-") && arg.length > 1) {
      const next = argv[i + 1];
      const takesValue =
        VALUE_FLAGS.has(arg) ||
        FILE_FLAGS.has(arg) ||
        EXPRESSION_FLAGS.has(arg) ||
        (next !== undefined && !next.startsWith("-") && positionals.length >= 2);
      if (takesValue && next !== undefined) {
        add(arg, next);
        i++;
      } else {
        add(arg, "");
      }
    } else {
      positionals.push(arg);
    }
  }
  return { positionals, flags };
}

/** `12`, `#12` or an issue/pull URL ending in `/12`. */
function issueNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(?:#?(\d+)|https?:\/\/\S+\/(?:issues|pull)\/(\d+))$/.exec(text);
  const digits = match?.[1] ?? match?.[2];
  const value = digits === undefined ? Number.NaN : Number(digits);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function checkCommonFlags(parsed: ParsedGh): GhDecision | undefined {
  for (const [name, values] of parsed.flags) {
    if (FILE_FLAGS.has(name) && values.some((value) => value !== "-")) {
      return refuse(
        `\`${name} <file>\` would make gh read a file outside the sandbox; pass the text with --body, or on stdin with \`${name} -\`.`,
      );
    }
    if (EXPRESSION_FLAGS.has(name) && values.some((value) => /env|input/i.test(value))) {
      return refuse(
        `a \`${name}\` expression that mentions env or input could read gh's environment; filter the JSON output with jq inside the sandbox instead.`,
      );
    }
    if (name === "--web" || name === "-w")
      return refuse("`--web` opens a browser; nobody is there.");
    if (name === "--hostname") {
      return refuse(
        "`--hostname` could send gh's credentials to another host; it is not brokered.",
      );
    }
  }
  return undefined;
}

/** `gh api …`: GET requests only, to an API path (not a URL), without fields or input. */
function decideApi(parsed: ParsedGh): GhDecision {
  const endpoint = parsed.positionals[1];
  if (endpoint === undefined) return refuse("`gh api` needs an endpoint.");
  if (endpoint === "graphql") {
    return refuse(
      "`gh api graphql` can change anything (mutations); use read-only subcommands such as `gh issue view --json`.",
    );
  }
  if (/^[a-z]+:/i.test(endpoint)) return refuse("`gh api` takes an API path, not a URL.");
  for (const name of ["-X", "--method"]) {
    const methods = parsed.flags.get(name) ?? [];
    if (methods.some((method) => method.toUpperCase() !== "GET")) {
      return refuse(
        `\`gh api\` writes (${methods.join(", ")}) are never brokered. ${BOUNDARY_NOTE}`,
      );
    }
  }
  for (const name of ["-f", "-F", "--field", "--raw-field", "--input"]) {
    if (parsed.flags.has(name)) {
      return refuse(
        `\`gh api\` with \`${name}\` sends a request body (a write); it is never brokered. ${BOUNDARY_NOTE}`,
      );
    }
  }
  return { kind: "run" };
}

/** Label edits: `gh issue|pr edit N --add-label … --remove-label …` and nothing else. */
function isLabelEdit(parsed: ParsedGh): boolean {
  const allowed = new Set(["--add-label", "--remove-label", "-R", "--repo"]);
  return (
    parsed.positionals.length === 3 &&
    issueNumber(parsed.positionals[2]) !== undefined &&
    [...parsed.flags.keys()].every((name) => allowed.has(name)) &&
    (parsed.flags.has("--add-label") || parsed.flags.has("--remove-label"))
  );
}

/**
 * Decides one `gh` call by step kind. Work and verification steps (and sections): read-only
 * subcommands and comments. Closure steps: also label edits, and `gh issue close` becomes a close
 * request for the boundary hook (the same as the `github_close_issue` tool). Never brokered in
 * any step: close (outside closure), reopen, delete, merge, release writes, `api` writes, auth,
 * config, aliases, extensions, secrets, and anything not listed.
 */
export function decideGh(argv: readonly string[], stepKind: GhStepKind): GhDecision {
  const parsed = parseGh(argv);
  const [group, action] = parsed.positionals;
  if (group === undefined) return refuse("`gh` without a subcommand is not brokered.");
  const flagProblem = checkCommonFlags(parsed);
  if (flagProblem !== undefined) return flagProblem;
  if (parsed.flags.has("--help") || parsed.flags.has("-h")) return { kind: "run" };
  if (group === "api") return decideApi(parsed);
  if (group === "status" && action === undefined) return { kind: "run" };
  if (action !== undefined && READ_ONLY[group]?.includes(action)) return { kind: "run" };
  if ((group === "issue" || group === "pr") && action === "comment") {
    return issueNumber(parsed.positionals[2]) === undefined
      ? refuse(`\`gh ${group} comment\` needs the issue or pull request number.`)
      : { kind: "run" };
  }
  if (stepKind === "closure") {
    if ((group === "issue" || group === "pr") && action === "edit" && isLabelEdit(parsed)) {
      return { kind: "run" };
    }
    if (group === "issue" && action === "close") {
      const issue = issueNumber(parsed.positionals[2]);
      if (issue === undefined) return refuse("`gh issue close` needs the issue number.");
      const comment = [...(parsed.flags.get("--comment") ?? []), ...(parsed.flags.get("-c") ?? [])]
        .filter((text) => text !== "")
        .at(-1);
      return { kind: "record-close", issue, ...(comment === undefined ? {} : { comment }) };
    }
  }
  const what = action === undefined ? `gh ${group}` : `gh ${group} ${action}`;
  if (stepKind === "closure") {
    return refuse(
      `\`${what}\` is not brokered. Closure steps may read, comment, edit labels (\`gh issue edit N --add-label X\`) and request a close (\`gh issue close N\`, recorded for the boundary hook). ${BOUNDARY_NOTE}`,
    );
  }
  return refuse(
    `\`${what}\` is not brokered in a ${stepKind} step: it may only read (view, list, diff, status, checks, search, GET \`gh api\`) and comment. ${BOUNDARY_NOTE}`,
  );
}
