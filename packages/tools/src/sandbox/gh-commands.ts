/**
 * The part of gh's command tree the broker lets through, with each command's flags as gh 2.23
 * defines them (`gh <command> --help`: which flags exist, which take a value, which are
 * booleans, and their one-letter forms), so `parseGhArgv` reads an argument vector exactly as
 * gh's parser (cobra + spf13/pflag) would. A command or flag missing here is refused, never
 * guessed: a newer gh's extra flags are simply not brokered. Data only.
 */

/**
 * `bool`: no value unless written `--flag=value` / `-f=value` (`true`, `false`, `1`, `0`, …);
 * `string`, `strings` (comma-separated list, repeatable), `int`: the flag takes a value: the rest
 * of a short group (`-Xvalue`), after `=`, or the next argument whatever it looks like.
 */
export type GhFlagKind = "bool" | "string" | "strings" | "int";

export interface GhFlag {
  /** The long name, without `--`. */
  readonly name: string;
  /** The one-letter form, without `-`. */
  readonly short?: string;
  readonly kind: GhFlagKind;
}

export interface GhCommand {
  readonly name: string;
  /** Flags of this command alone. */
  readonly flags: readonly GhFlag[];
  /** Flags this command defines for itself and every command below it (`-R/--repo`, `--help`). */
  readonly persistent?: readonly GhFlag[];
  readonly children?: readonly GhCommand[];
  /** How many positional arguments a leaf takes (gh refuses others). */
  readonly args?: { readonly min: number; readonly max: number };
}

const flag =
  (kind: GhFlagKind) =>
  (name: string, short?: string): GhFlag =>
    short === undefined ? { name, kind } : { name, short, kind };
const bool = flag("bool");
const str = flag("string");
const strs = flag("strings");
const int = flag("int");

const ONE = { min: 1, max: 1 } as const;
const NONE = { min: 0, max: 0 } as const;
const OPTIONAL = { min: 0, max: 1 } as const;
const ANY = { min: 0, max: Number.POSITIVE_INFINITY } as const;

/** `--json`, `-q/--jq`, `-t/--template`: the formatting flags of commands that print JSON. */
const JSON_FLAGS = [str("json"), str("jq", "q"), str("template", "t")];
const REPO = [str("repo", "R")];
const WEB = bool("web", "w");
const BODY = [str("body", "b"), str("body-file", "F")];

function leaf(name: string, args: GhCommand["args"] & object, flags: readonly GhFlag[]): GhCommand {
  return { name, flags, args };
}

function group(name: string, children: readonly GhCommand[], repo: boolean): GhCommand {
  return { name, flags: [], ...(repo ? { persistent: REPO } : {}), children };
}

const SEARCH_COMMON = [...JSON_FLAGS, int("limit", "L"), str("order"), str("owner"), WEB];
const ISSUE_SEARCH = [
  str("app"),
  bool("archived"),
  str("assignee"),
  str("author"),
  str("closed"),
  str("commenter"),
  str("comments"),
  str("created"),
  str("interactions"),
  str("involves"),
  strs("label"),
  str("language"),
  bool("locked"),
  strs("match"),
  str("mentions"),
  str("milestone"),
  bool("no-assignee"),
  bool("no-label"),
  bool("no-milestone"),
  bool("no-project"),
  str("project"),
  str("reactions"),
  strs("repo"),
  str("sort"),
  str("state"),
  str("team-mentions"),
  str("updated"),
  strs("visibility"),
];

/** gh itself: the root command, with `--help` for every command below it. */
export const GH_ROOT: GhCommand = {
  name: "gh",
  flags: [bool("version")],
  persistent: [bool("help")],
  children: [
    group(
      "issue",
      [
        leaf("list", NONE, [
          str("app"),
          str("assignee", "a"),
          str("author", "A"),
          ...JSON_FLAGS,
          strs("label", "l"),
          int("limit", "L"),
          str("mention"),
          str("milestone", "m"),
          str("search", "S"),
          str("state", "s"),
          WEB,
        ]),
        leaf("view", ONE, [bool("comments", "c"), ...JSON_FLAGS, WEB]),
        leaf("status", NONE, JSON_FLAGS),
        leaf("comment", ONE, [...BODY, bool("edit-last"), bool("editor", "e"), WEB]),
        leaf("close", ONE, [str("comment", "c"), str("reason", "r")]),
        leaf("edit", ONE, [
          str("add-assignee"),
          strs("add-label"),
          str("add-project"),
          ...BODY,
          str("milestone", "m"),
          str("remove-assignee"),
          strs("remove-label"),
          str("remove-project"),
          str("title", "t"),
        ]),
      ],
      true,
    ),
    group(
      "pr",
      [
        leaf("list", NONE, [
          str("app"),
          str("assignee", "a"),
          str("author", "A"),
          str("base", "B"),
          bool("draft", "d"),
          str("head", "H"),
          ...JSON_FLAGS,
          strs("label", "l"),
          int("limit", "L"),
          str("search", "S"),
          str("state", "s"),
          WEB,
        ]),
        leaf("view", OPTIONAL, [bool("comments", "c"), ...JSON_FLAGS, WEB]),
        leaf("status", NONE, [bool("conflict-status", "c"), ...JSON_FLAGS]),
        leaf("diff", OPTIONAL, [str("color"), bool("name-only"), bool("patch"), WEB]),
        leaf("checks", OPTIONAL, [int("interval", "i"), bool("required"), bool("watch"), WEB]),
        leaf("comment", OPTIONAL, [...BODY, bool("edit-last"), bool("editor", "e"), WEB]),
        leaf("edit", OPTIONAL, [
          str("add-assignee"),
          strs("add-label"),
          str("add-project"),
          str("add-reviewer"),
          str("base", "B"),
          ...BODY,
          str("milestone", "m"),
          str("remove-assignee"),
          strs("remove-label"),
          str("remove-project"),
          str("remove-reviewer"),
          str("title", "t"),
        ]),
        leaf("merge", OPTIONAL, [
          bool("admin"),
          str("author-email", "A"),
          bool("auto"),
          ...BODY,
          bool("delete-branch", "d"),
          bool("disable-auto"),
          str("match-head-commit"),
          bool("merge", "m"),
          bool("rebase", "r"),
          bool("squash", "s"),
          str("subject", "t"),
        ]),
      ],
      true,
    ),
    group("repo", [leaf("view", OPTIONAL, [str("branch", "b"), ...JSON_FLAGS, WEB])], false),
    group(
      "release",
      [
        leaf("list", NONE, [
          bool("exclude-drafts"),
          bool("exclude-pre-releases"),
          int("limit", "L"),
        ]),
        leaf("view", OPTIONAL, [...JSON_FLAGS, WEB]),
      ],
      true,
    ),
    group(
      "label",
      [
        leaf("list", NONE, [
          ...JSON_FLAGS,
          int("limit", "L"),
          str("order"),
          str("search", "S"),
          str("sort"),
          WEB,
        ]),
      ],
      true,
    ),
    group(
      "search",
      [
        leaf("issues", ANY, [...SEARCH_COMMON, ...ISSUE_SEARCH, bool("include-prs")]),
        leaf("prs", ANY, [
          ...SEARCH_COMMON,
          ...ISSUE_SEARCH,
          str("base", "B"),
          str("checks"),
          bool("draft"),
          str("head", "H"),
          bool("merged"),
          str("merged-at"),
          str("review"),
          str("review-requested"),
          str("reviewed-by"),
        ]),
        leaf("repos", ANY, [
          ...SEARCH_COMMON,
          bool("archived"),
          str("created"),
          str("followers"),
          str("forks"),
          str("good-first-issues"),
          str("help-wanted-issues"),
          str("include-forks"),
          str("language"),
          strs("license"),
          strs("match"),
          str("number-topics"),
          str("size"),
          str("sort"),
          str("stars"),
          strs("topic"),
          str("updated"),
          strs("visibility"),
        ]),
        leaf("commits", ANY, [
          ...SEARCH_COMMON,
          str("author"),
          str("author-date"),
          str("author-email"),
          str("author-name"),
          str("committer"),
          str("committer-date"),
          str("committer-email"),
          str("committer-name"),
          str("hash"),
          bool("merge"),
          str("parent"),
          strs("repo"),
          str("sort"),
          str("tree"),
          strs("visibility"),
        ]),
      ],
      false,
    ),
    group(
      "run",
      [
        leaf("list", NONE, [
          str("branch", "b"),
          ...JSON_FLAGS,
          int("limit", "L"),
          str("user", "u"),
          str("workflow", "w"),
        ]),
        leaf("view", OPTIONAL, [
          bool("exit-status"),
          str("job", "j"),
          ...JSON_FLAGS,
          bool("log"),
          bool("log-failed"),
          bool("verbose", "v"),
          WEB,
        ]),
      ],
      true,
    ),
    group(
      "workflow",
      [
        leaf("list", NONE, [bool("all", "a"), int("limit", "L")]),
        leaf("view", OPTIONAL, [str("ref", "r"), WEB, bool("yaml", "y")]),
      ],
      true,
    ),
    leaf("status", NONE, [strs("exclude", "e"), str("org", "o")]),
    leaf("api", ONE, [
      str("cache"),
      str("field", "F"),
      str("header", "H"),
      str("hostname"),
      bool("include", "i"),
      str("input"),
      str("jq", "q"),
      str("method", "X"),
      bool("paginate"),
      strs("preview", "p"),
      str("raw-field", "f"),
      bool("silent"),
      str("template", "t"),
    ]),
  ],
};
