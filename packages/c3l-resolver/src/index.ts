// The UV naming rules and placeholder grammar are @climpt/model's; re-exported because prompt
// resolution is where callers meet them.
export {
  findUvPlaceholders,
  handoffUvName,
  lookupUv,
  RUNTIME_UV_NAMES,
  type RuntimeUvName,
  type UvPlaceholder,
} from "@climpt/model";
export {
  createAgentPromptSource,
  type ResolvedSystemPrompt,
  resolveSystemPrompt,
  type SystemPromptOptions,
} from "./agent-sources.ts";
export { c3lCandidates, type PathTemplates, type RefOrigin } from "./c3l-candidates.ts";
export {
  FALLBACK_CONTEXT_VARIABLES,
  FALLBACK_KEY_ALIASES,
  FALLBACK_KEYS,
  FALLBACK_TEMPLATES,
  type FallbackContext,
  type FallbackTemplate,
  fallbackTemplate,
} from "./fallback-templates.ts";
export { type PromptBody, stripFrontmatter } from "./frontmatter.ts";
export { createFsPromptSource, type FsPromptSourceOptions } from "./fs-prompt-source.ts";
export {
  type HandoffLookup,
  HandoffVariables,
  registryHandoffPaths,
} from "./handoff-variables.ts";
export { PROMPT_CODES, type PromptCode } from "./problems.ts";
export {
  createMemoryPromptSource,
  type MemoryPromptSourceOptions,
  type PromptSource,
} from "./prompt-source.ts";
export { checkPathSegment, checkRelativePath, type PathContext } from "./relative-path.ts";
export { renderValue } from "./render-value.ts";
export {
  type PromptOrigin,
  type ResolvedPrompt,
  type ResolvePromptInput,
  resolvePrompt,
} from "./resolve-prompt.ts";
export {
  overridePromptRef,
  type PromptOverride,
  type ResolveStepPromptInput,
  resolveStepPrompt,
  type StepPrompt,
  type UsedUvVariable,
} from "./resolve-step-prompt.ts";
export {
  checkRetryTemplate,
  type RenderedRetryTemplate,
  type RetryTemplateOptions,
  renderRetryTemplate,
} from "./retry-template.ts";
export { similarPromptFile } from "./similar-file.ts";
export {
  buildUvVariables,
  collectUvVariables,
  type RuntimeUv,
  type UvChannels,
  type UvOrigin,
  type UvShadowing,
  type UvVariables,
  type UvVariableTable,
} from "./uv-channels.ts";
export {
  replaceUvPlaceholders,
  substituteUv,
  type UvSubstitution,
  type UvSubstitutionOptions,
} from "./uv-substitution.ts";
