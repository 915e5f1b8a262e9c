import {
  boolFlag,
  type GhFlagSpec,
  GhUsageError,
  intFlag,
  parseGhArgs,
  stringFlag,
} from "./gh-args.ts";
import {
  done,
  GhCommandError,
  type GhContext,
  type GhOutput,
  jsonOutput,
  requestedFields,
} from "./gh-context.ts";
import { labelJsonFields } from "./json-fields.ts";
import type { FakeGhLabel } from "./state.ts";

const REPO: Record<string, GhFlagSpec> = { repo: { kind: "string", short: "R" } };

function normalizeColor(color: string): string {
  const bare = color.replace(/^#/, "");
  if (!/^[0-9a-fA-F]{6}$/.test(bare)) {
    throw new GhCommandError(
      `HTTP 422: Validation Failed (https://api.github.com/repos/…/labels)\nLabel.color is invalid`,
    );
  }
  return bare.toLowerCase();
}

function find(context: GhContext, name: string): FakeGhLabel | undefined {
  return context.repo.labels.find((label) => label.name.toLowerCase() === name.toLowerCase());
}

function notFound(context: GhContext, name: string): GhCommandError {
  return new GhCommandError(
    `HTTP 404: Not Found (https://api.github.com/repos/${context.repoName}/labels/${encodeURIComponent(name)})`,
  );
}

function list(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    json: { kind: "string" },
    jq: { kind: "string", short: "q" },
    limit: { kind: "int", short: "L" },
    search: { kind: "string", short: "S" },
  });
  const limit = intFlag(args, "limit") ?? 30;
  const search = stringFlag(args, "search")?.toLowerCase();
  const labels = context.repo.labels
    .filter(
      (label) =>
        search === undefined ||
        label.name.toLowerCase().includes(search) ||
        label.description.toLowerCase().includes(search),
    )
    .slice(0, limit);
  const fields = requestedFields(args);
  if (fields !== undefined) {
    return jsonOutput(
      labels.map((label) => labelJsonFields(context.repoName, label, fields)),
      args,
    );
  }
  return done(
    labels.map((label) => `${label.name}\t${label.description}\t#${label.color}\n`).join(""),
  );
}

function create(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    color: { kind: "string", short: "c" },
    description: { kind: "string", short: "d" },
    force: { kind: "bool", short: "f" },
  });
  const name = args.positionals[0];
  if (name === undefined || name.trim() === "")
    throw new GhUsageError("cannot create label: name argument required");
  const colorFlag = stringFlag(args, "color");
  const color = colorFlag === undefined ? undefined : normalizeColor(colorFlag);
  const description = stringFlag(args, "description");
  const existing = find(context, name);
  if (existing !== undefined) {
    if (!boolFlag(args, "force")) {
      throw new GhCommandError(
        `label with name "${existing.name}" already exists; use \`--force\` to update its color and description`,
      );
    }
    if (color !== undefined) existing.color = color;
    if (description !== undefined) existing.description = description;
    return done("", `✓ Label "${existing.name}" updated in ${context.repoName}\n`);
  }
  context.repo.labels.push({ name, color: color ?? "ededed", description: description ?? "" });
  return done("", `✓ Label "${name}" created in ${context.repoName}\n`);
}

function edit(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    color: { kind: "string", short: "c" },
    description: { kind: "string", short: "d" },
    name: { kind: "string", short: "n" },
  });
  const name = args.positionals[0];
  if (name === undefined) throw new GhUsageError("cannot update label: name argument required");
  const color = stringFlag(args, "color");
  const description = stringFlag(args, "description");
  const rename = stringFlag(args, "name");
  if (color === undefined && description === undefined && rename === undefined) {
    throw new GhUsageError("specify at least one of `--color`, `--description`, or `--name`");
  }
  const label = find(context, name);
  if (label === undefined) throw notFound(context, name);
  if (color !== undefined) label.color = normalizeColor(color);
  if (description !== undefined) label.description = description;
  if (rename !== undefined) {
    for (const issue of context.repo.issues) {
      issue.labels = issue.labels.map((have) => (have === label.name ? rename : have));
    }
    label.name = rename;
  }
  return done("", `✓ Label "${label.name}" updated in ${context.repoName}\n`);
}

function remove(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, { ...REPO, yes: { kind: "bool" } });
  const name = args.positionals[0];
  if (name === undefined) throw new GhUsageError("cannot delete label: name argument required");
  if (!boolFlag(args, "yes"))
    throw new GhUsageError("--yes required when not running interactively");
  const label = find(context, name);
  if (label === undefined) throw notFound(context, name);
  context.repo.labels = context.repo.labels.filter((candidate) => candidate !== label);
  // GitHub takes a deleted label off every issue that had it.
  for (const issue of context.repo.issues) {
    issue.labels = issue.labels.filter((have) => have !== label.name);
  }
  return done("", `✓ Label "${label.name}" deleted from ${context.repoName}\n`);
}

/** `gh label <subcommand>`: list, create, edit, delete. */
export const LABEL_COMMANDS: Readonly<
  Record<string, (context: GhContext, argv: readonly string[]) => GhOutput>
> = { list, create, edit, delete: remove };
