/**
 * What the git push broker accepts, decided on the argument vector alone (pure). The shapes:
 *
 *   git [--no-pager|-P] push [-u|--set-upstream] [-q|--quiet] [-v|--verbose] [-n|--dry-run]
 *       [--no-verify] [--] [<remote> [<refspec>…]]
 *
 * with `<remote>` a name (never a URL or a path) and each `<refspec>` one of `HEAD`, `<branch>`,
 * `HEAD:<branch>`, `HEAD:refs/heads/<branch>`, `<branch>:<branch>`. Everything else is refused
 * with a message saying what is allowed: a force in any spelling, deletes, tags, mirrors,
 * patterns, push options, another receive-pack, git's global options. Which branches and remotes
 * a request may use is the second half (`planGitPush`), given what the run allows.
 */

import { branchMatches, isBranchName } from "@climpt/model";

/** What a push request asks for, once its shape is accepted. */
export interface GitPushShape {
  /** Absent: the default remote of the current branch. */
  readonly remote?: string;
  /** Empty: the current branch to the branch of the same name. */
  readonly refspecs: readonly GitPushRefspec[];
  readonly setUpstream: boolean;
  readonly dryRun: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
}

export interface GitPushRefspec {
  /** `HEAD`, or a local branch name. */
  readonly src: { readonly kind: "head" } | { readonly kind: "branch"; readonly name: string };
  /** The branch on the remote; absent: the source's own branch name. */
  readonly dst?: string;
}

export type GitPushShapeDecision =
  | { readonly kind: "push"; readonly shape: GitPushShape }
  | { readonly kind: "refuse"; readonly reason: string };

export const ALLOWED_PUSH_SHAPES =
  "Allowed: `git push [-u|--set-upstream] [-q|-v] [--dry-run] [<remote> [<refspec>…]]` with a configured remote's name and refspecs `HEAD`, `<branch>`, `HEAD:<branch>`, `HEAD:refs/heads/<branch>` or `<branch>:<branch>`; never forced, never deleting, never tags.";

/** Refspecs one request may carry. */
export const MAX_PUSH_REFSPECS = 10;

const FLAG_NAMES: Readonly<Record<string, keyof Omit<GitPushShape, "remote" | "refspecs"> | "">> = {
  "-u": "setUpstream",
  "--set-upstream": "setUpstream",
  "-q": "quiet",
  "--quiet": "quiet",
  "-v": "verbose",
  "--verbose": "verbose",
  "-n": "dryRun",
  "--dry-run": "dryRun",
  // Hooks never run in the host's push: asking for none is already the case.
  "--no-verify": "",
};

/** Why an option is refused, for the options people reach for. */
function optionProblem(option: string): string {
  const name = option.split("=")[0] ?? option;
  if (/^--force|^-[A-Za-z]*f/.test(option) || name === "--force-with-lease")
    return `\`${option}\` forces the push; a forced push can rewrite the remote's history.`;
  if (["--delete", "-d", "--prune"].includes(name))
    return `\`${option}\` deletes branches on the remote.`;
  if (["--tags", "--follow-tags"].includes(name)) return `\`${option}\` pushes tags.`;
  if (["--all", "--branches", "--mirror"].includes(name))
    return `\`${option}\` pushes more than the run's branches.`;
  if (["--receive-pack", "--exec"].includes(name))
    return `\`${option}\` runs another program on the receiving side.`;
  if (["-o", "--push-option"].includes(name) || option.startsWith("-o"))
    return `\`${option}\` sends push options to the remote.`;
  if (name === "--repo") return `\`${option}\` names the remote by URL or path.`;
  return `\`${option}\` is not one of the options the push broker accepts.`;
}

/** git's own options before the subcommand that the broker lets through (paging only). */
const HARMLESS_GLOBAL_OPTIONS = new Set(["--no-pager", "-P"]);

/**
 * Reads `git … push …` as git would, as far as the accepted shapes go: the global options, then
 * the push options (grouped short flags such as `-uq` included), `--`, the remote and refspecs.
 */
export function decideGitPushShape(argv: readonly string[]): GitPushShapeDecision {
  const refuse = (why: string): GitPushShapeDecision => ({
    kind: "refuse",
    reason: `${why} ${ALLOWED_PUSH_SHAPES}`,
  });
  let index = 0;
  for (; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    if (!arg.startsWith("-")) break;
    if (!HARMLESS_GLOBAL_OPTIONS.has(arg)) {
      return refuse(
        `git's global option \`${arg}\` is not allowed with push: it can change what is pushed or how (\`-c\`, \`-C\`, \`--git-dir\`, \`--work-tree\`, …). Run \`git push\` itself, from the working directory.`,
      );
    }
  }
  if (argv[index] !== "push") {
    return refuse(
      `The push broker runs only \`git push\`, and this is \`git ${argv[index] ?? ""}\`.`,
    );
  }
  const flags = { setUpstream: false, dryRun: false, quiet: false, verbose: false };
  const positional: string[] = [];
  let optionsEnded = false;
  for (const arg of argv.slice(index + 1)) {
    if (optionsEnded || !arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    if (arg === "--") {
      optionsEnded = true;
      continue;
    }
    const grouped = /^-[a-zA-Z]{2,}$/.test(arg) ? [...arg.slice(1)].map((c) => `-${c}`) : [arg];
    for (const flag of grouped) {
      const field = FLAG_NAMES[flag];
      if (field === undefined) return refuse(optionProblem(arg));
      if (field !== "") flags[field] = true;
    }
  }
  const [remote, ...refspecTexts] = positional;
  if (remote !== undefined) {
    const trouble = remoteProblem(remote);
    if (trouble !== undefined) return refuse(`The remote ${trouble}`);
  }
  if (refspecTexts.length > MAX_PUSH_REFSPECS) {
    return refuse(`More than ${MAX_PUSH_REFSPECS} refspecs in one push.`);
  }
  const refspecs: GitPushRefspec[] = [];
  for (const text of refspecTexts) {
    const read = readRefspec(text);
    if (typeof read === "string") return refuse(`The refspec \`${text}\` ${read}`);
    refspecs.push(read);
  }
  return {
    kind: "push",
    shape: { ...(remote === undefined ? {} : { remote }), refspecs, ...flags },
  };
}

/** A remote name as `git remote add` takes it; anything else is a URL or a path. */
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function remoteProblem(remote: string): string | undefined {
  if (REMOTE_NAME.test(remote)) return undefined;
  return `\`${remote}\` is not a remote's name: the broker pushes only to a remote configured in the repository, by name (\`origin\`), never to a URL or a path (\`ext::…\`, \`https://…\`, \`../x.git\`).`;
}

/** A branch name in a refspec: a plain branch name, or under `refs/heads/` where allowed. */
function readBranch(text: string, qualifiedAllowed: boolean): string | undefined {
  const name = qualifiedAllowed && text.startsWith("refs/heads/") ? text.slice(11) : text;
  if (name === "HEAD" || name.startsWith("refs/") || !isBranchName(name)) return undefined;
  return name;
}

function readRefspec(text: string): GitPushRefspec | string {
  if (text.startsWith("+")) return "forces the push (`+`); a forced push can rewrite history.";
  if (text.startsWith("^")) return "is a negative refspec.";
  if (text.includes("*")) return "is a pattern; name one branch.";
  const parts = text.split(":");
  if (parts.length > 2) return "has more than one `:`.";
  const [srcText = "", dstText] = parts;
  if (srcText === "") return "deletes a branch on the remote (an empty source).";
  if (dstText !== undefined && /^refs\/tags\/|^refs\/(?!heads\/)/.test(dstText)) {
    return dstText.startsWith("refs/tags/") ? "pushes a tag." : "names a ref that is not a branch.";
  }
  if (srcText.startsWith("refs/tags/")) return "pushes a tag.";
  const src: GitPushRefspec["src"] | undefined =
    srcText === "HEAD"
      ? { kind: "head" }
      : (() => {
          const name = readBranch(srcText, false);
          return name === undefined ? undefined : { kind: "branch" as const, name };
        })();
  if (src === undefined) return "does not start with `HEAD` or a branch name.";
  if (dstText === undefined) return { src };
  const dst = readBranch(dstText, true);
  if (dst === undefined) return "does not end in a branch name.";
  return { src, dst };
}

/** Which branches a run may push: given by the runner, never by the model. */
export interface GitPushPermissions {
  /** The run's branch, pushed by default; absent when the run is on no branch. */
  readonly runBranch?: string;
  /** Branches the agent declares (agent.json): names, or `<prefix>/*`. */
  readonly branches: readonly string[];
  /** Never pushed, whatever else allows it: the base branch, the remotes' default branches. */
  readonly protectedBranches: readonly string[];
}

/** What the host read from the run's repository for one request. */
export interface GitPushRepository {
  /** The branch HEAD is on in the run's work tree; absent when detached. */
  readonly currentBranch?: string;
  /** The configured remotes' names. */
  readonly remotes: readonly string[];
  /** The remote a push without one goes to (`branch.<b>.pushRemote`, … , `origin`). */
  readonly defaultRemote: string;
}

/** One ref the host pushes: a source in the run's repository to `refs/heads/<dst>`. */
export interface PlannedRefUpdate {
  /** `HEAD` or `refs/heads/<branch>`. */
  readonly src: string;
  /** The local branch the source is (HEAD's branch for `HEAD`); absent for a detached HEAD. */
  readonly srcBranch?: string;
  readonly dst: string;
}

export interface PlannedPush {
  readonly remote: string;
  readonly updates: readonly PlannedRefUpdate[];
  /** Upstreams the host sets after the push: only the run's branch, to its own name. */
  readonly upstreams: readonly { readonly branch: string; readonly remote: string }[];
  /** `-u` asked for branches the host does not set an upstream for (said in the output). */
  readonly upstreamsSkipped: readonly string[];
  readonly dryRun: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
}

export type GitPushPlan =
  | { readonly kind: "push"; readonly plan: PlannedPush }
  | { readonly kind: "refuse"; readonly reason: string };

function allowedTargets(permissions: GitPushPermissions): string {
  const names = [
    ...(permissions.runBranch === undefined ? [] : [`\`${permissions.runBranch}\` (the run's)`]),
    ...permissions.branches.map((entry) => `\`${entry}\``),
  ];
  return names.length === 0 ? "none" : names.join(", ");
}

/**
 * The push a request asks for, in the run's terms: each refspec resolved to a source and a
 * target branch, the target one the run may push and not a protected one, the remote configured.
 */
export function planGitPush(
  shape: GitPushShape,
  permissions: GitPushPermissions,
  repository: GitPushRepository,
): GitPushPlan {
  const refuse = (why: string): GitPushPlan => ({ kind: "refuse", reason: why });
  const remote = shape.remote ?? repository.defaultRemote;
  if (!repository.remotes.includes(remote)) {
    const configured = repository.remotes.map((name) => `\`${name}\``).join(", ") || "none";
    return refuse(
      `\`${remote}\` is not a remote of this repository (configured: ${configured}). The broker pushes only to a configured remote, by name.`,
    );
  }
  const refspecs: readonly GitPushRefspec[] =
    shape.refspecs.length === 0 ? [{ src: { kind: "head" } }] : shape.refspecs;
  const updates: PlannedRefUpdate[] = [];
  for (const refspec of refspecs) {
    const srcBranch = refspec.src.kind === "head" ? repository.currentBranch : refspec.src.name;
    const dst = refspec.dst ?? srcBranch;
    if (dst === undefined) {
      return refuse(
        "HEAD is detached, so the push has no branch to go to; name it (`git push origin HEAD:<branch>`).",
      );
    }
    if (permissions.protectedBranches.includes(dst)) {
      return refuse(
        `\`${dst}\` is protected in this run (the base branch or a remote's default branch); it is never pushed from the sandbox. Push the run's branch, and let the run's finish merge it.`,
      );
    }
    const allowed =
      dst === permissions.runBranch ||
      permissions.branches.some((entry) => branchMatches(entry, dst));
    if (!allowed) {
      return refuse(
        `this run may push only ${allowedTargets(permissions)}, not \`${dst}\`. (An agent declares more branches in agent.json \`runner.boundaries.push.branches\`.)`,
      );
    }
    updates.push({
      src: refspec.src.kind === "head" ? "HEAD" : `refs/heads/${refspec.src.name}`,
      ...(srcBranch === undefined ? {} : { srcBranch }),
      dst,
    });
  }
  const upstreams: { branch: string; remote: string }[] = [];
  const upstreamsSkipped: string[] = [];
  if (shape.setUpstream && !shape.dryRun) {
    for (const update of updates) {
      const own =
        update.srcBranch === permissions.runBranch && update.dst === permissions.runBranch;
      if (own && update.srcBranch !== undefined)
        upstreams.push({ branch: update.srcBranch, remote });
      else upstreamsSkipped.push(update.srcBranch ?? "HEAD");
    }
  }
  return {
    kind: "push",
    plan: {
      remote,
      updates,
      upstreams,
      upstreamsSkipped,
      dryRun: shape.dryRun,
      quiet: shape.quiet,
      verbose: shape.verbose,
    },
  };
}
