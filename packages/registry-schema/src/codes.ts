/**
 * The codes the loader reports on an agent definition (`SR-*` for the registry and its files,
 * `AC-*` for agent.json), with their meaning. docs/codes.md, the catalogue of every package's
 * codes, is generated from this table.
 */
export const REGISTRY_SCHEMA_CODES = {
  /**
   * Example: `$.runner.integrations.github.targets.issues must be one of "own", "any", but is
   * "all".` Fix: Write `"own"` or `"any"`, and repositories as `"owner/repo"`.
   */
  "AC-GITHUB-001":
    '`runner.integrations.github.targets` (flat: `github.targets`) is wrong: `issues` or `pullRequests` other than `"own"` / `"any"`, or a `repositories` entry that is not an `OWNER/REPO` name (a URL, a host, one word). It widens what the run may change on GitHub, so it is checked on its own.',
  /**
   * Example: `The boundary hook's env entry 0 (a string of 40 characters) is not an environment
   * variable name; it is not repeated here in case it is a secret value.` Fix: Name the variables
   * the hook needs (`"env": ["DEPLOY_TOKEN"]`) and set their values in the environment; rotate a
   * secret that was written into agent.json.
   */
  "AC-HOOK-005":
    "The command boundary hook's `env` (`runner.boundaries.boundaryHook.env`, flat: `behavior.boundaryHook.env`) is not an array of environment variable names, or names the model's credential (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, `CLAUDE_CODE_OAUTH_TOKEN`), which no command gets. The value is never quoted, in case it is a secret.",
  /**
   * Example: `$.parameters.issue.type must be one of "string", "number", "boolean", but is
   * "array".` Fix: Use one of the three.
   */
  "AC-PARAM-001": "A parameter `type` other than `string`, `number`, `boolean`.",
  /**
   * Example: `Parameter "issue" is a number but its default "12" is a string.` Fix: Match the
   * default to the type.
   */
  "AC-PARAM-002": "A parameter `default` of the wrong type.",
  /**
   * Example: `Parameters "issue" and "issueNumber" both use the CLI flag --issue.` Fix: Give one
   * its own `cli`.
   */
  "AC-PARAM-003": "Two parameters with one CLI flag (declared or derived).",
  /**
   * Example: `Parameter "issue" has CLI flag "issue", which is not "--" followed by lowercase kebab
   * case.` Fix: Declare e.g. `"cli": "--issue"`.
   */
  "AC-PARAM-004": "A CLI flag that is not `--` plus lowercase kebab case.",
  /**
   * Example: `Parameters "issue" and "ticket" both have role "issue"; a run has one issue.` Fix:
   * Keep `"role": "issue"` on one number or string parameter.
   */
  "AC-PARAM-005":
    'A parameter `role` other than `"issue"`, two parameters with the role `"issue"`, or the role on a boolean parameter.',
  /**
   * Example: `MCP server "docs" is a stdio server without a command ($.runner.boundaries.mcpServers.docs.command
   * is missing).` Fix: Write the server as in Claude Code's `.mcp.json`: `{ "command", "args",
   * "env" }` or `{ "type": "http", "url", "headers" }`.
   */
  "AC-MCP-001":
    "An entry of `runner.boundaries.mcpServers` (flat: `behavior.mcpServers`) is not a server: not an object, a stdio server without `command`, `args` not strings, `env` or `headers` not a map of strings, a `type` other than `stdio` / `http`, an http `url` that is not an http(s) URL or holds a password, or a server name that cannot be part of a tool name. `env` and `headers` values are never quoted.",
  /**
   * Example: `MCP server "docs" is at mcp.example.com:443, which
   * runner.boundaries.sandbox.network.allow does not declare.` Fix: Add the host to
   * `runner.boundaries.sandbox.network.allow`.
   */
  "AC-MCP-002":
    "An http MCP server's host is not in `runner.boundaries.sandbox.network.allow`: climpt reaches http servers only at hosts the agent declares.",
  /**
   * Example: `allowedTools names "mcp__doc__search", a tool of MCP server "doc", but
   * runner.boundaries.mcpServers declares no server "doc" (declared: "docs").` Fix: Name a
   * declared server, or declare it.
   */
  "AC-MCP-003":
    "An `allowedTools` entry (the agent's or a step's) names `mcp__<server>` or `mcp__<server>__<tool>` for a server `runner.boundaries.mcpServers` does not declare.",
  /**
   * Example: `Declared branch "has space" is neither a branch name nor "<prefix>/*".` Fix: Write
   * `"gh-pages"`, `"release/next"` or `"docs/*"`.
   */
  "AC-PUSH-001":
    "An entry of `runner.boundaries.push.branches` (flat: `behavior.push.branches`) is neither a branch name as git takes it nor `<prefix>/*`.",
  /**
   * Example: `Allowed host "https://registry.npmjs.org" has a scheme.` Fix: Write
   * `"registry.npmjs.org"`, `"api.example.com:443"` or `"*.githubusercontent.com"`.
   */
  "AC-SANDBOX-001":
    "An entry of `runner.boundaries.sandbox.network.allow` is not a host (a URL, a path, a user, a port outside 1–65535).",
  /**
   * Example: `Readable path "sdkman" is neither absolute nor under "~/".` Fix: Write `"~/.sdkman"`
   * or an absolute path.
   */
  "AC-SANDBOX-002":
    "An entry of `runner.boundaries.sandbox.readable` is neither absolute nor under `~/`.",
  /**
   * Example: `Secret entry 1 (a string of 24 characters) is not an environment variable name; it is
   * not repeated here in case it is a secret value.` Fix: Name the variable (`["DATABASE_URL"]`)
   * and set its value in the environment; rotate a secret that was written into agent.json.
   */
  "AC-SECRETS-001":
    "`runner.boundaries.secrets` (flat: `behavior.secrets`) is not an array, or an entry is not an environment variable name (a letter or `_`, then letters, digits, `_`). The value is never quoted, in case it is a secret.",
  /**
   * Example: `$.displayName must be a string, but is 42.` Fix: Set the field as the hint says.
   */
  "AC-VALID-001": "A field has the wrong type, or `name` is missing.",
  /**
   * Example: `The agent is named "demo-agent" but its folder is "demo".` Fix: Rename one of them.
   */
  "AC-VALID-002": "`name` (or `agentId`) is not the agent folder's name.",
  /**
   * Example: `` agent.json has both `runner` (nested shape) and `behavior` (flat shape). `` Fix:
   * Keep one shape.
   */
  "AC-VALID-003": "Both `runner` and `behavior`, or neither.",
  /**
   * Example: `$.runner.flow.systemPromptPath "/etc/passwd" is an absolute path; agent files must
   * stay inside the agent folder.` Fix: Write it relative to the agent folder.
   */
  "AC-VALID-004":
    "`systemPromptPath`, `prompts.registry` or `fallbackDir` is absolute or leaves the folder.",
  /**
   * Example: `onBudget "closure.budgt" is not a step of this registry.` Fix: Name an existing
   * closure step (the hint lists them), or add it.
   */
  "SR-BUDGET-001": "`onBudget` does not name a step of the registry.",
  /**
   * Example: `onBudget names "continuation.issue", a work step; the step a budget sends the run
   * to must be a closure step.` Fix: Point `onBudget` at a closure step (`stepKind: "closure"`,
   * a `closure.*` id, or a program step), which may comment and label but not go on working.
   */
  "SR-BUDGET-002":
    "The `onBudget` step is not a closure step (a work, verification or section step), so it could start more work after the budget is spent.",
  /**
   * Example: `onBudget step "closure.budget" does not allow the intent closing, so it could
   * never end the run.` Fix: Add `"closing"` to its `structuredGate.allowedIntents` (and its
   * schema's enum).
   */
  "SR-BUDGET-003":
    "The gated `onBudget` step does not allow `closing`, the only way it can end the run it was sent to end.",
  /**
   * Example: `The registry names no entry step: it has neither entryStep nor entryStepMapping.`
   * Fix: Add `entryStep` or a mapping for the verdict type.
   */
  "SR-ENTRY-001":
    "No entry step: neither `entryStep` nor `entryStepMapping`; or (`loadAgent`, `resolveEntryStep`) no entry for the agent's verdict type.",
  /**
   * Example: `entryStep "initial.isue" is not a step of this registry.` Fix: Name an existing step
   * (the hint lists them).
   */
  "SR-ENTRY-002":
    "`entryStep` is not a step (the router: `router.start` was given an unknown entry step).",
  /**
   * Example: `entryStepMapping["poll:state"] names "initial.polling", which is not a step of this
   * registry.` Fix: Map to an existing step.
   */
  "SR-ENTRY-003": "An `entryStepMapping` value is not a step.",
  /**
   * Example: `entryStepMapping key "polling" is not a verdict type, so no run can start there.`
   * Fix: Key by a verdict type (either spelling).
   */
  "SR-ENTRY-004": "An `entryStepMapping` key is not a verdict type.",
  /**
   * Example: `Step "continuation.issue" is a work step without structuredGate in a registry whose
   * other steps are gated, so its output could never be routed.` Fix: Add a gate and transitions,
   * or make it a section step.
   */
  "SR-GATE-001":
    "In a gated registry (any step has `structuredGate`), a work / verification / closure step without one.",
  /**
   * Example: `Step "initial.issue" hands off "analysis.plan" and "review.plan" under the same key
   * "plan", …` Fix: Hand off one, or rename.
   */
  "SR-GATE-002":
    "Two handoff values of one step under the same short key (last segment of `handoffFields`, or a repeated check-dialect `handoff` key).",
  /**
   * Example: `Gated step "closure.issue" has no transitions, so no intent it emits leads anywhere.`
   * Fix: Add transitions keyed by its intents.
   */
  "SR-GATE-003": "A gated flow step without transitions (or with none).",
  /**
   * Example: `Gated step "closure.issue" has no outputSchemaRef, so the model is not held to an
   * intent enum.` Fix: Add the reference.
   */
  "SR-GATE-004": "A gated flow step without `outputSchemaRef`.",
  /**
   * Example: `Intent "closing" is not allowed for work step "initial.issue".` Fix: Remove it, or
   * declare the right `stepKind`; at run time, constrain the schema enum to the allowed intents.
   */
  "SR-INTENT-001":
    "An intent the step kind may not emit (the table of docs/design.md#steps-and-kinds: work `next repeat jump handoff`, verification `next repeat jump escalate`, closure `closing repeat`, `abort` always), or (at run time) one outside the step's `allowedIntents`. The loader checks `allowedIntents`, `fallbackIntent` and `transitions` keys.",
  /**
   * Example: `"done" is not an intent; custom intents cannot be added.` (hint: write `"closing"`)
   * Fix: Use an intent; constrain the output field with an enum.
   */
  "SR-INTENT-002":
    "A value that must be an intent is not one of the seven (aliases are named): in `allowedIntents` / `fallbackIntent`, in the model's output, or given to `route`.",
  /**
   * Example: `intentSchemaRef "issue.schema.json#/…" is not an internal JSON pointer starting with
   * "#/".` Fix: Point into the step's own schema; share parts with `$ref`.
   */
  "SR-INTENT-003": "`intentSchemaRef` is not an internal pointer starting with `#/`.",
  /**
   * Example: `intentSchemaRef "#/properties/next_action/properties/intent" of step "initial.issue"
   * leads nowhere in its output schema.` Fix: Point at the intent property; give it an enum.
   */
  "SR-INTENT-004":
    "`intentSchemaRef` leads nowhere in the resolved step schema, or to a schema without `enum` / `const`.",
  /**
   * Example: `Step "continuation.issue": the intent enum at
   * #/properties/next_action/properties/action is [next, repeat, handoff, done] but allowedIntents
   * is [next, repeat, handoff]: the schema enum has done (an alias of closing), which
   * allowedIntents lacks.` Fix: Make the lists agree.
   */
  "SR-INTENT-005":
    "The schema's intent enum and `allowedIntents` disagree: an enum value that is neither an allowed intent nor an alias of one (an alias of an intent the step may not use counts as such a value), or an allowed intent the enum lists neither itself nor as an alias. `wait` in the enum of a step that allows `repeat` is fine.",
  /**
   * Example: `fallbackIntent "jump" is not one of the step's allowedIntents (next, repeat,
   * handoff).` Fix: Add it to allowedIntents or choose another.
   */
  "SR-INTENT-006":
    "`fallbackIntent` is allowed for the kind but not among the step's `allowedIntents`.",
  /**
   * Example: `The step registry missing_registry.json does not exist.` / `No agent "fix-bug": no
   * agent.json in /repo/.agent/fix-bug.` Fix: Create it, or correct the path that names it (`climpt
   * init <name>` scaffolds an agent).
   */
  "SR-LOAD-001":
    "A file that must exist does not: the agent folder (the runner: no agent.json under any folder it looked in), agent.json, the registry, a step's schema file, a file a `$ref` names, the `.ts` file of `generateOutputSchema`.",
  /**
   * Example: `The registry's agentId "someone-else" does not match the agent folder "demo".` Fix:
   * Set `agentId` to the folder name, or rename the folder.
   */
  "SR-LOAD-002": "The registry's `agentId` is not the agent folder's name.",
  /**
   * Example: `The step registry schemas cannot be read (EISDIR).` Fix: Make it a readable file.
   */
  "SR-LOAD-003":
    'A file exists but cannot be read (a folder, no permission); or the agent "folder" is a file.',
  /**
   * Example: `… is not valid JSON (line 4, column 3: Expected double-quoted property name).` Fix:
   * Fix the syntax there (no trailing commas or comments in JSON).
   */
  "SR-LOAD-004": "A file is not valid JSON.",
  /**
   * Example: `$.steps["initial.issue"].c2 must be a string, but is 5.` Fix: Set the field as the
   * hint says (the hint carries the field's description).
   */
  "SR-LOAD-005":
    "A registry field has the wrong type, a required field is missing, or an object has the wrong form (a transition without `target`, an `onPass` without `next`/`complete`, `onFail` with both `retry` and `fallback`).",
  /**
   * Example: `The registry mixes dialects: step "closure.issue" uses the check dialect's "prompt",
   * step "initial.issue" the gate dialect's "stepId"; it is read as the gate dialect and the other
   * keys are ignored.` Fix: Write every step in one dialect.
   */
  "SR-LOAD-006":
    "The registry mixes the dialects (steps with check keys and steps with gate keys), or names two prompt folders (`basePath` and `userPromptsBase`).",
  /**
   * Example: `$.userPromptsBase "../../elsewhere/prompts" leaves the agent folder; prompts and
   * schemas must live inside the agent folder.` Fix: Keep it relative and inside the folder
   * (`.agent/<name>/…` from the repository root also works).
   */
  "SR-LOAD-007":
    "A path leaves the agent folder: `basePath`/`userPromptsBase`/`schemasBase`, a `{path}` prompt, a C3L segment with `/` or `..`, a path template with `..`, `outputSchemaRef.file`, a `$ref`, or a file reached through a symlink.",
  /**
   * Example: `Step "initial.issue": schema "initial.isue" is not in schemas/issue.schema.json.`
   * Fix: Use a JSON pointer or one of the names the hint lists; write refs as `#/…` or
   * `<file>.json#/…`.
   */
  "SR-LOAD-008":
    "An output schema reference does not resolve: `outputSchemaRef.schema` names nothing in the file, a `$ref` points at nothing, is not a string, or is not resolvable offline (`https:`, `#anchor`), or the target is not a schema object.",
  /**
   * Example: `$ref cycle in the output schema of step "initial.issue":
   * schemas/issue.schema.json#/definitions/node → schemas/issue.schema.json#/definitions/node.`
   * Fix: Replace the recursion with a bounded shape.
   */
  "SR-LOAD-009":
    "A `$ref` cycle in a step's output schema (a ref reached again while it is being inlined). The message names the chain; two sibling refs to one definition are not a cycle.",
  /**
   * Example: `Step "initial.issue": the output schema grows past 100000 nodes once its $refs are
   * inlined.` Fix: Simplify refs that fan out, or split the output.
   */
  "SR-LOAD-010": "A step's output schema grows past 100 000 nodes (or 512 levels) once inlined.",
  /**
   * Example: `output.ts does not type-check, so "Output" cannot be converted: output.ts:1:34 Cannot
   * find name 'Missing'.` Fix: Fix the type errors; use a declared type (the hint lists them).
   */
  "SR-LOAD-011":
    "`generateOutputSchema`: the `.ts` file does not type-check, or the type is not declared in it, or cannot be converted.",
  /**
   * Example: `generateOutputSchema needs the optional package typescript-json-schema, which is not
   * installed (…).` Fix: `pnpm add -D typescript-json-schema`.
   */
  "SR-LOAD-012":
    "`generateOutputSchema`: the optional peer `typescript-json-schema` is not installed.",
  /**
   * Example: `The step registry steps_registry.json nests values more than 1000 levels deep (at
   * $.steps["a"].transitions.a.a.a…).` Fix: Nest at most a few hundred levels; share schema parts
   * through `$ref`.
   */
  "SR-LOAD-013":
    "agent.json, the registry or a schema file nests values more than 1 000 levels deep (checked when the file is read, without recursion; a stack overflow anywhere in loading is reported with this code too). Every loader problem is also bounded: quoted values are cut at 120 characters, messages, hints and paths at 2 000.",
  /**
   * Example: `The step registry steps_registry.json is a FIFO, not a regular file, and is not
   * read.` Fix: Replace it with a regular JSON file.
   */
  "SR-LOAD-014":
    "agent.json, the registry or a schema file is not a regular file: a FIFO, a socket or a device (a folder stays `SR-LOAD-003`). It is opened without blocking and never read, so a FIFO in its place cannot hold the load.",
  /**
   * Example: `The step registry steps_registry.json is larger than 64 MiB (is 67108865 bytes, more
   * than the 67108864 accepted).` Fix: Split a generated file, or check that the path names the
   * file you mean.
   */
  "SR-LOAD-015":
    "agent.json, the registry or a schema file is larger than 64 MiB (a 10,000-step registry is about 6 MB). It is refused by its size, unread.",
  /**
   * Example: `Step "initial.issue" (next) goes to "continuation.isue", which is not a step of this
   * registry. Did you mean "continuation.issue"?` Fix: Name an existing step (the hint lists them).
   */
  "SR-TRANS-001":
    "A target that is not a step: a transition (the router: `next`, `repeat`), a conditional target, check `onPass.next`, check `onFail.fallback`. The router uses `SR-TRANS-006` / `-008` / `-010` for `handoff` / `escalate` / `jump`.",
  /**
   * Example: `Step "continuation.issue" has transitions.handoff.target: null; only "closing" (the
   * completion chain) and "abort" (a failed run) may end the flow.` Fix: Give it a step target.
   */
  "SR-TRANS-002":
    '`target: null` on an intent other than `closing` and `abort` (the loader, for every intent; the router for `next`, `repeat`, `jump`, and `SR-TRANS-005` / `-009` for `handoff` / `escalate`). `{"target": null}` on `abort` is the way to write "terminate": the run ends as `AGENT_ABORTED`.',
  /**
   * Example: `Step "initial.issue" (next) goes to "section.context", a section step: sections are
   * prompt fragments and never run.` Fix: Route to a work, verification or closure step.
   */
  "SR-TRANS-012":
    "A target that is a section step (sections are prompt fragments, never run); the router also refuses to route from a section step.",
  /**
   * Example: `transitions key "handof" is not an intent, so no output can ever take it. Did you
   * mean "handoff"?` Fix: Rename the key to the intent named (for an alias, its intent).
   */
  "SR-TRANS-013":
    "A `transitions` key that is not an intent (no output can take it). A misspelt intent or an alias is named, and the transition is read on under that intent, so the step is not also reported as having no transitions or an unrouted intent, nor the flow as broken.",
  /**
   * Example: `Step "closure.issue" routes "closing" to "initial.issue"; closing ends the flow and
   * starts the completion chain.` Fix: Write `"closing": { "target": null }`; re-check with
   * `repeat`.
   */
  "SR-TRANS-015":
    "`closing` routed to a step (the loader: any step; the router: a step other than the closure itself): closing ends the flow and starts the completion chain.",
  /**
   * Example: `Step "initial.issue" declares stepId "initial.issues"; the key in steps and the
   * stepId must be the same.` Fix: Make them equal.
   */
  "SR-VALID-001": "A step's `stepId` / `id` differs from its key in `steps`.",
  /**
   * Example: `Validator "git-clean" names failure pattern "git-dirt", which failurePatterns does
   * not define.` Fix: Define it or use a listed one.
   */
  "SR-VALID-003": "A validator names a failure pattern `failurePatterns` does not define.",
  /**
   * Example: `Unknown extractor "parseChanges" for parameter "changedFiles".` Fix: Use a listed
   * extractor.
   */
  "SR-VALID-005":
    "`extractParams` names an extractor not in `EXTRACTOR_NAMES` (at run time the validators report `SR-VALID-108`).",
  /**
   * Example: `Step "initial.issue" declares uvVariable "issue_number", which no agent parameter,
   * runtime variable or handoff value supplies.` (hint: use `"issue"`) Fix: Use the parameter's own
   * name, or declare the parameter.
   */
  "SR-VALID-006":
    "A `uvVariables` entry no agent parameter, runtime variable (`iteration`, `completed_iterations`, `completion_keyword`, `max_iterations`, `remaining`, `previous_summary`, `check_count`, `max_checks`; `input_text` on `usesStdin` steps) or handoff value (`<step id with . as _>_<key>`) supplies. A parameter that looks meant is suggested, else the closest parameter, runtime or handoff name (`plan_approach` → `initial_plan_approach`). An error in a step the entry of the agent's verdict type can reach; *a warning* in any other step (a section fragment, project-mode steps of an agent that runs poll:state, the entry of another verdict type), which a run of this agent never resolves.",
  /**
   * Example: `iterations.min (5) is greater than iterations.max (3).` Fix: Raise max or lower min.
   */
  "SR-VALID-007": "Check dialect: `iterations.min` > `iterations.max`.",
  /**
   * Example: `Step "initial.statuscheck" uses parameter "project", which is optional and has no
   * default: a run without --project stops when the step's prompt is resolved.` Fix: Give the
   * parameter a `default`, or make it `required`.
   */
  "SR-VALID-008":
    "*Warning.* A step the run can reach uses (in `uvVariables`) a parameter that is optional and has no default: a run without that flag stops when the step's prompt is resolved (`PR-RESOLVE-003`).",
  /**
   * Example: `Step "initial.merge" is a work step with a runner; only a closure step can run a
   * program, because its exit status ends the flow (exit 0) or repeats the step.` Fix: Declare
   * `"stepKind": "closure"` (and hand off into it), or name the context key.
   */
  "SR-VALID-009":
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, quoted
    "A `runner` (subprocess) on a step that is not a closure step, or a `${context.}` reference without a name in its `args`.",
  /**
   * Example: `Step "merge" passes ${context.pr} to node, but "pr" is no agent parameter: …` Fix:
   * Declare the parameter, or use its own name.
   */
  "SR-VALID-010":
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, quoted
    "*Warning.* A subprocess step's `${context.<key>}` names no agent parameter: only an issue payload from the orchestrator can supply it, so a plain run stops before the program starts.",
  /**
   * Example: `Validator "publish"'s env entry 1 (a string of 40 characters) is not an environment
   * variable name; it is not repeated here in case it is a secret value.` Fix: Name the variables
   * the command needs (`"env": ["NPM_TOKEN"]`) and set their values in the environment; rotate a
   * secret that was written into steps_registry.json.
   */
  "SR-VALID-011":
    "A validator's `env` or a program step's `runner.env` is not an array of environment variable names (a letter or `_`, then letters, digits, `_`), or names the model's credential (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, `CLAUDE_CODE_OAUTH_TOKEN`), which no command gets. The value is never quoted, in case it is a secret.",
  /**
   * Example: `$.validators.tests.baseline must be "compare" | "off", but is "strict".` Fix: Write
   * `"compare"` to let failures already present on the merge base pass, or `"off"` (the default)
   * to block on every failure.
   */
  "SR-VALID-012": 'A validator\'s `baseline` is not `"compare"` or `"off"`.',
  /**
   * Example: `Validator "git-clean" compares failures with the base (baseline "compare"), but its
   * extractParams names no extractor that names failures, so nothing can be compared and every
   * failure blocks.` Fix: Extract the failures (`parseTestOutput`, `parseTypeErrors`,
   * `parseLintErrors`, `parseFormatOutput`), or remove `baseline`.
   */
  "SR-VALID-013":
    '*Warning.* A validator with `baseline: "compare"` whose `extractParams` names no extractor that names failures (`parseTestOutput`, `parseTypeErrors`, `parseLintErrors`, `parseFormatOutput`): it can never be compared, so every failure blocks.',
} as const;
