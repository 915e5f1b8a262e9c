export { HOST_GIT_CODES, type HostGitCode } from "./codes.ts";
export { configIncludeProblems } from "./config-includes.ts";
export {
  findGitLayout,
  type GitLayout,
  gitLayoutOf,
  layoutDeparture,
  readGitFile,
} from "./git-layout.ts";
export {
  type GitMetadata,
  type GitMetadataChange,
  gitMetadataChanges,
  readGitMetadata,
} from "./git-metadata.ts";
export {
  DEFAULT_HOST_GIT_TIMEOUT_MS,
  HostGitError,
  type HostGitOptions,
  type HostGitResult,
  hostGit,
  hostGitSync,
  runGitOutsideRepository,
  runHostGit,
  runHostGitSync,
} from "./host-git.ts";
export {
  FIXED_GIT_CONFIG,
  hostGitEnvironment,
  hostGitSettingsEnvironment,
} from "./host-git-env.ts";
export { resetStatBuffer } from "./stat-buffer.ts";
