/**
 * The GitHub broker's decision on one `gh` invocation from inside the sandbox, made on its final
 * argument vector read as gh reads it (`parseGhArgv`): whatever the shell did to build it
 * (variables, base64, a renamed copy), this is what would run. What is allowed runs as a
 * normalized vector the broker builds from the parse (so the real gh can only do what was
 * decided); writes name their target (issue or pull request, and repository) for the ownership
 * check (`checkGithubTarget`), which the broker applies. Pure.
 */
import { type GithubTarget, type GithubWrite, normalizeRepository } from "@climpt/model";
import type { CloseReason, MergeMethod } from "../boundary-request.ts";
import { type ParsedGh, parseGhArgv } from "./gh-argv.ts";
import { GH_ROOT, type GhCommand } from "./gh-commands.ts";
import { refusedExpressionWord } from "./gh-expression.ts";
import { apiRepositoryUse, type GhRepositoryUse, readRepositoryUse } from "./gh-repository.ts";

export type GhStepKind = "work" | "verification" | "closure" | "section";

/** Where the body of a comment comes from: the command's stdin, or a file the broker reads. */
export type GhBodyInput =
  | { readonly from: "stdin" }
  | { readonly from: "file"; readonly path: string };

export type GhDecision =
  /** Run the real `gh` with `argv` (outside the sandbox, with credentials). */
  | {
      readonly kind: "run";
      readonly argv: readonly string[];
      /** Where it acts: the repository it names, or the run's, which the broker gives it. */
      readonly repository: GhRepositoryUse;
      /** A write: what it acts on (the broker checks it belongs to the run). */
      readonly target?: GithubTarget;
      /** `--body-file -` in `argv`: the body to pass on stdin. */
      readonly body?: GhBodyInput;
      /** A label edit (closure steps): the labels, for deferring it behind a recorded merge. */
      readonly labels?: { readonly add: readonly string[]; readonly remove: readonly string[] };
    }
  /** Record a request for the boundary hook instead of acting now (closure steps). */
  | { readonly kind: "record"; readonly request: GhRecorded; readonly target: GithubTarget }
  | { readonly kind: "refuse"; readonly reason: string };

export type GhRecorded =
  | {
      readonly action: "close";
      readonly issue: number;
      readonly comment?: string;
      readonly reason?: CloseReason;
    }
  | {
      readonly action: "merge";
      readonly pullRequest: number;
      readonly method: MergeMethod;
      readonly deleteBranch: boolean;
    };

const READS = new Set([
  "issue list",
  "issue view",
  "issue status",
  "pr list",
  "pr view",
  "pr status",
  "pr diff",
  "pr checks",
  "repo view",
  "release list",
  "release view",
  "label list",
  "search issues",
  "search prs",
  "search repos",
  "search commits",
  "run list",
  "run view",
  "workflow list",
  "workflow view",
  "status",
]);

const BOUNDARY_NOTE =
  "Closing, merging, releasing and other writes happen only in the boundary hook, after the run is validated.";

const PIPE_TO_JQ =
  "print the JSON (`--json fields`) and filter it with `jq` inside the sandbox instead.";

function refuse(reason: string): GhDecision {
  return { kind: "refuse", reason };
}

const last = (parsed: ParsedGh, name: string): string | undefined => parsed.flags.get(name)?.at(-1);
const isTrue = (parsed: ParsedGh, name: string): boolean => last(parsed, name) === "true";

/**
 * The vector the real gh runs: the command path, then the positionals (after `--` when one
 * starts with `-`), then each flag as `--name value` in the order given (booleans `--name` or
 * `--name=false`). gh reads it exactly as the parse says.
 */
function normalized(
  path: readonly string[],
  args: readonly string[],
  flags: Iterable<readonly [string, readonly string[]]>,
): string[] {
  const leaf = commandAt(path);
  const out = [...path];
  const flagWords: string[] = [];
  for (const [name, values] of flags) {
    const kind = leaf?.flags.find((flag) => flag.name === name)?.kind ?? "string";
    for (const value of values) {
      if (kind === "bool") flagWords.push(value === "true" ? `--${name}` : `--${name}=false`);
      else flagWords.push(`--${name}`, value);
    }
  }
  if (args.some((arg) => arg.startsWith("-"))) out.push(...flagWords, "--", ...args);
  else out.push(...args, ...flagWords);
  return out;
}

/** The leaf command at `path`, with the persistent flags of its ancestors. */
function commandAt(path: readonly string[]): GhCommand | undefined {
  let command: GhCommand = GH_ROOT;
  const persistent = [...(GH_ROOT.persistent ?? [])];
  for (const name of path) {
    const next = command.children?.find((child) => child.name === name);
    if (next === undefined) return undefined;
    command = next;
    persistent.push(...(command.persistent ?? []));
  }
  return { ...command, flags: [...command.flags, ...persistent] };
}

/**
 * A repository or URL on another host than github.com: gh would send that host the token it
 * keeps for it (`GH_ENTERPRISE_TOKEN` for any host that is not github.com). A repository is
 * `OWNER/REPO` (the host gh uses by default), `github.com/OWNER/REPO` or its https URL; an
 * issue or pull request URL is on https://github.com/.
 */
function foreignHost(parsed: ParsedGh): string | undefined {
  const what = parsed.path.join(" ");
  const repositories = [...(parsed.flags.get("repo") ?? [])];
  if (what === "repo view") repositories.push(...parsed.args);
  if (!what.startsWith("search ")) {
    for (const repository of repositories) {
      if (normalizeRepository(repository) === undefined) {
        return `"${repository}" is not OWNER/REPO on github.com; gh would send another host its credentials.`;
      }
    }
  }
  if (what === "api" || what.startsWith("search ")) return undefined;
  for (const arg of parsed.args) {
    if ((arg.includes("://") || /^[^/\s]+@/.test(arg)) && !/^https:\/\/github\.com\//i.test(arg)) {
      return `"${arg}" is not on https://github.com/; gh would send another host its credentials.`;
    }
  }
  return undefined;
}

/**
 * What every brokered call is checked for: no browser, no other host, no expression that reaches
 * gh's environment.
 */
function checkCommonFlags(parsed: ParsedGh): string | undefined {
  if (isTrue(parsed, "web")) return "`--web` opens a browser; nobody is there.";
  const host = foreignHost(parsed);
  if (host !== undefined) return host;
  for (const name of ["jq", "template"]) {
    for (const expression of parsed.flags.get(name) ?? []) {
      const word = refusedExpressionWord(expression);
      if (word !== undefined) {
        return `a \`--${name}\` expression that mentions \`${word}\` could read gh's environment or files (the real gh runs outside the sandbox, with the token); ${PIPE_TO_JQ}`;
      }
    }
  }
  return undefined;
}

const ALLOWED_API_HEADERS = /^\s*(accept|x-github-api-version)\s*:/i;

/** `gh api …`: GET requests only, to an API path (not a URL), without a body. */
function decideApi(parsed: ParsedGh): GhDecision {
  const endpoint = parsed.args[0] as string;
  if (endpoint.toLowerCase() === "graphql") {
    return refuse(
      "`gh api graphql` can change anything (mutations); use read-only subcommands such as `gh issue view --json`.",
    );
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(endpoint) || endpoint.includes("://")) {
    return refuse("`gh api` takes an API path, not a URL.");
  }
  if (parsed.flags.has("hostname")) {
    return refuse("`--hostname` could send gh's credentials to another host; it is not brokered.");
  }
  const methods = parsed.flags.get("method") ?? [];
  const notGet = methods.filter((method) => method.toUpperCase() !== "GET");
  if (notGet.length > 0) {
    return refuse(`\`gh api\` writes (${notGet.join(", ")}) are never brokered. ${BOUNDARY_NOTE}`);
  }
  for (const name of ["field", "input"]) {
    if (parsed.flags.has(name)) {
      return refuse(
        `\`gh api\` with \`--${name}\` sends a request body or reads a file (a write, or a file outside the sandbox); it is never brokered. ${BOUNDARY_NOTE}`,
      );
    }
  }
  // -f/--raw-field: query parameters of an explicit GET, otherwise a request body (a POST).
  if (parsed.flags.has("raw-field") && !(methods.length > 0 && methods.every((m) => m === "GET"))) {
    return refuse(
      `\`gh api\` with \`-f\`/\`--raw-field\` and no \`-X GET\` is a POST (a write); it is never brokered. ${BOUNDARY_NOTE}`,
    );
  }
  for (const header of parsed.flags.get("header") ?? []) {
    if (!ALLOWED_API_HEADERS.test(header)) {
      return refuse(
        `\`gh api\` header "${header.split(":")[0]}" is not brokered; only Accept and X-GitHub-Api-Version headers are.`,
      );
    }
  }
  const argv = normalized(parsed.path, parsed.args, parsed.flags);
  // The endpoint is the first word after `api`, or the last one after `--` when it starts with -.
  const at = endpoint.startsWith("-") ? argv.length - 1 : 1;
  return { kind: "run", argv, repository: apiRepositoryUse(endpoint, at) };
}

const NUMBER = /^#?([1-9]\d{0,15})$/;
const URL_TARGET =
  /^https:\/\/github\.com\/([^/\s]+)\/([^/\s]+)\/(issues|pull)\/([1-9]\d{0,15})\/?(?:[?#]\S*)?$/i;

type TargetRead =
  | { readonly ok: true; readonly target: GithubTarget }
  | { readonly ok: false; readonly reason: string };

/**
 * The issue or pull request a write names: `12`, `#12` or its github.com URL, in the repository
 * of `-R/--repo` or of the URL (gh takes a URL's repository over `-R`; both naming different
 * ones is refused). A branch name (which gh also takes for a pull request) is refused: ownership
 * is decided by number.
 */
function targetOf(
  parsed: ParsedGh,
  kind: GithubTarget["kind"],
  write: GithubWrite,
  what: string,
): TargetRead {
  const arg = parsed.args[0];
  const noun = kind === "issue" ? "issue" : "pull request";
  if (arg === undefined) {
    return { ok: false, reason: `\`gh ${what}\` needs the ${noun} number.` };
  }
  let number: number;
  let fromUrl: string | undefined;
  const plain = NUMBER.exec(arg);
  const url = URL_TARGET.exec(arg);
  if (plain !== null) {
    number = Number(plain[1]);
  } else if (url !== null && (url[3]?.toLowerCase() === "issues") === (kind === "issue")) {
    number = Number(url[4]);
    fromUrl = normalizeRepository(`${url[1]}/${url[2]}`);
    if (fromUrl === undefined)
      return { ok: false, reason: `"${arg}" names no repository gh can read.` };
  } else {
    return {
      ok: false,
      reason: `\`gh ${what}\` needs the ${noun} number (e.g. 12), not "${arg}".`,
    };
  }
  const repoText = last(parsed, "repo");
  let repository = fromUrl;
  if (repoText !== undefined) {
    const named = normalizeRepository(repoText);
    if (named === undefined) {
      return {
        ok: false,
        reason: `\`-R ${repoText}\` is not OWNER/REPO on github.com; a write names its repository as OWNER/REPO.`,
      };
    }
    if (fromUrl !== undefined && fromUrl !== named) {
      return { ok: false, reason: `"${arg}" and \`-R ${repoText}\` name different repositories.` };
    }
    repository = named;
  }
  return {
    ok: true,
    target: { kind, number, write, ...(repository === undefined ? {} : { repository }) },
  };
}

/** Where a write acts: the repository its target names, else the run's (`GH_REPO`). */
function writeRepository(target: GithubTarget): GhRepositoryUse {
  return target.repository === undefined
    ? { kind: "run", via: "env" }
    : { kind: "named", repository: target.repository };
}

/** Only these flags, or the reason another one is not brokered. */
function onlyFlags(parsed: ParsedGh, allowed: readonly string[], what: string): string | undefined {
  const extra = [...parsed.flags.keys()].filter((name) => !allowed.includes(name));
  if (extra.length === 0) return undefined;
  return `\`gh ${what}\` with ${extra.map((name) => `--${name}`).join(", ")} is not brokered; it takes only ${allowed.map((name) => `--${name}`).join(", ")}.`;
}

function repoFlags(target: GithubTarget): [string, string][] {
  return target.repository === undefined ? [] : [["repo", target.repository]];
}

/** `gh issue|pr comment N --body text | --body-file FILE|-`, on the run's issue or pull request. */
function decideComment(parsed: ParsedGh, group: "issue" | "pr"): GhDecision {
  const what = `${group} comment`;
  const problem = onlyFlags(parsed, ["body", "body-file", "repo"], what);
  if (problem !== undefined) return refuse(problem);
  const read = targetOf(parsed, group === "issue" ? "issue" : "pullRequest", "comment", what);
  if (!read.ok) return refuse(read.reason);
  const body = last(parsed, "body");
  const file = last(parsed, "body-file");
  if ((body === undefined) === (file === undefined)) {
    return refuse(`\`gh ${what}\` needs exactly one of --body and --body-file.`);
  }
  const path = [group, "comment", String(read.target.number)];
  const flags = repoFlags(read.target);
  if (body !== undefined) {
    return {
      kind: "run",
      argv: normalized(path, [], [...flags.map(([n, v]) => [n, [v]] as const), ["body", [body]]]),
      repository: writeRepository(read.target),
      target: read.target,
    };
  }
  return {
    kind: "run",
    argv: normalized(path, [], [...flags.map(([n, v]) => [n, [v]] as const), ["body-file", ["-"]]]),
    repository: writeRepository(read.target),
    target: read.target,
    body: file === "-" ? { from: "stdin" } : { from: "file", path: file as string },
  };
}

/** `gh issue|pr edit N --add-label … --remove-label …` and nothing else. */
function decideLabelEdit(parsed: ParsedGh, group: "issue" | "pr"): GhDecision {
  const what = `${group} edit`;
  const problem = onlyFlags(parsed, ["add-label", "remove-label", "repo"], what);
  if (problem !== undefined) {
    return refuse(`${problem} Closure steps may change labels only.`);
  }
  const add = parsed.flags.get("add-label") ?? [];
  const remove = parsed.flags.get("remove-label") ?? [];
  if (add.length + remove.length === 0) {
    return refuse(`\`gh ${what}\` needs --add-label or --remove-label.`);
  }
  const read = targetOf(parsed, group === "issue" ? "issue" : "pullRequest", "label", what);
  if (!read.ok) return refuse(read.reason);
  const flags: [string, readonly string[]][] = [
    ...repoFlags(read.target).map(([n, v]) => [n, [v]] as [string, string[]]),
    ...(add.length > 0 ? [["add-label", add] as [string, readonly string[]]] : []),
    ...(remove.length > 0 ? [["remove-label", remove] as [string, readonly string[]]] : []),
  ];
  return {
    kind: "run",
    argv: normalized([group, "edit", String(read.target.number)], [], flags),
    repository: writeRepository(read.target),
    target: read.target,
    labels: { add, remove },
  };
}

/** `gh issue close N [-c text] [-r completed|"not planned"]` in a closure step: recorded. */
function decideClose(parsed: ParsedGh): GhDecision {
  const problem = onlyFlags(parsed, ["comment", "reason", "repo"], "issue close");
  if (problem !== undefined) return refuse(problem);
  const read = targetOf(parsed, "issue", "close", "issue close");
  if (!read.ok) return refuse(read.reason);
  const reason = last(parsed, "reason");
  if (reason !== undefined && reason !== "completed" && reason !== "not planned") {
    return refuse(`\`--reason ${reason}\`: gh closes as "completed" or "not planned".`);
  }
  const comment = last(parsed, "comment");
  return {
    kind: "record",
    target: read.target,
    request: {
      action: "close",
      issue: read.target.number,
      ...(comment === undefined || comment === "" ? {} : { comment }),
      ...(reason === undefined ? {} : { reason }),
    },
  };
}

/** `gh pr merge N --merge|--squash|--rebase [--delete-branch]` in a closure step: recorded. */
function decideMerge(parsed: ParsedGh): GhDecision {
  const allowed = ["merge", "squash", "rebase", "delete-branch", "repo"];
  const problem = onlyFlags(parsed, allowed, "pr merge");
  if (problem !== undefined) {
    return refuse(`${problem} The boundary hook merges the run's pull request after validation.`);
  }
  const methods = (["merge", "squash", "rebase"] as const).filter((name) => isTrue(parsed, name));
  if (methods.length !== 1) {
    return refuse("`gh pr merge` needs exactly one of --merge, --squash and --rebase.");
  }
  const read = targetOf(parsed, "pullRequest", "merge", "pr merge");
  if (!read.ok) return refuse(read.reason);
  return {
    kind: "record",
    target: read.target,
    request: {
      action: "merge",
      pullRequest: read.target.number,
      method: methods[0] as MergeMethod,
      deleteBranch: isTrue(parsed, "delete-branch"),
    },
  };
}

/**
 * Decides one `gh` call by step kind. Every step: reads (view, list, status, diff, checks,
 * search, run/workflow list|view, GET `gh api`) and comments on the run's issue or pull request.
 * Closure steps also: label edits, and `gh issue close` / `gh pr merge` become requests for the
 * boundary hook. Never brokered: anything else (reopen, delete, release writes, `api` writes,
 * auth, config, aliases, extensions, secrets, …) and anything the parser cannot read with
 * certainty.
 */
export function decideGh(argv: readonly string[], stepKind: GhStepKind): GhDecision {
  const parse = parseGhArgv(argv);
  if (!parse.ok) return refuse(parse.reason);
  const { parsed } = parse;
  const what = parsed.path.join(" ");
  if (parsed.help) {
    return { kind: "run", argv: [...parsed.path, "--help"], repository: { kind: "none" } };
  }
  const common = checkCommonFlags(parsed);
  if (common !== undefined) return refuse(common);
  if (what === "api") return decideApi(parsed);
  if (READS.has(what)) {
    return {
      kind: "run",
      argv: normalized(parsed.path, parsed.args, parsed.flags),
      repository: readRepositoryUse(parsed),
    };
  }
  const [group, action] = parsed.path as [string, string | undefined];
  if ((group === "issue" || group === "pr") && action === "comment") {
    return decideComment(parsed, group);
  }
  if (stepKind === "closure") {
    if ((group === "issue" || group === "pr") && action === "edit") {
      return decideLabelEdit(parsed, group);
    }
    if (what === "issue close") return decideClose(parsed);
    if (what === "pr merge") return decideMerge(parsed);
    return refuse(
      `\`gh ${what}\` is not brokered. Closure steps may read, comment, edit labels (\`gh issue edit N --add-label X\`) and request a close (\`gh issue close N\`) or a merge (\`gh pr merge N --squash\`), recorded for the boundary hook. ${BOUNDARY_NOTE}`,
    );
  }
  return refuse(
    `\`gh ${what}\` is not brokered in a ${stepKind} step: it may only read (view, list, diff, status, checks, search, GET \`gh api\`) and comment. ${BOUNDARY_NOTE}`,
  );
}
