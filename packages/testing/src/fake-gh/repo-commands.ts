import { type GhFlagSpec, parseGhArgs } from "./gh-args.ts";
import {
  done,
  GhCommandError,
  type GhContext,
  type GhOutput,
  jsonOutput,
  requestedFields,
} from "./gh-context.ts";

const FLAGS: Record<string, GhFlagSpec> = {
  repo: { kind: "string", short: "R" },
  json: { kind: "string" },
  jq: { kind: "string", short: "q" },
};

/** `gh repo view [OWNER/NAME]`: the repository the call acts on (gh reads it from the git remote). */
function view(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, FLAGS);
  const name = args.positionals[0] ?? context.repoName;
  if (context.state.repos[name] === undefined) {
    throw new GhCommandError(
      `GraphQL: Could not resolve to a Repository with the name '${name}'. (repository)`,
    );
  }
  const [owner = "", repo = ""] = name.split("/");
  const all: Record<string, unknown> = {
    name: repo,
    nameWithOwner: name,
    owner: { login: owner },
    url: `https://github.com/${name}`,
    defaultBranchRef: { name: "main" },
  };
  const fields = requestedFields(args);
  if (fields === undefined) return done(`name:\t${name}\ndescription:\t\n--\n`);
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (!(field in all)) {
      throw new GhCommandError(
        `Unknown JSON field: "${field}"\nAvailable fields:\n${Object.keys(all)
          .map((key) => `  ${key}`)
          .join("\n")}`,
      );
    }
    picked[field] = all[field];
  }
  return jsonOutput(picked, args);
}

/** `gh repo <subcommand>`: view. */
export const REPO_COMMANDS: Readonly<
  Record<string, (context: GhContext, argv: readonly string[]) => GhOutput>
> = { view };
