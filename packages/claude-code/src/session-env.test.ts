import { describe, expect, it } from "vitest";
import { sandboxSettings, sessionEnv, sessionScrubber } from "./session-env.ts";

describe("sessionEnv", () => {
  it("starts from the given environment, drops a parent Claude Code session's markers, and turns extra traffic off", () => {
    const env = sessionEnv({
      base: {
        PATH: "/bin",
        ANTHROPIC_API_KEY: "sk-ant-key-123456",
        CLAUDECODE: "1",
        UNSET: undefined,
      },
      maxRetries: 2,
      timeoutMs: 30_000,
      maxTokens: 8192,
    });
    expect(env).toEqual({
      PATH: "/bin",
      ANTHROPIC_API_KEY: "sk-ant-key-123456",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_AGENT_SDK_CLIENT_APP: "climpt",
      CLAUDE_CODE_MAX_RETRIES: "2",
      API_TIMEOUT_MS: "30000",
      CLAUDE_CODE_MAX_OUTPUT_TOKENS: "8192",
    });
  });
});

describe("secrets", () => {
  it("are the credential variables' values, cut out of text", () => {
    const scrubber = sessionScrubber({ ANTHROPIC_API_KEY: "sk-ant-key-123456", HOME: "/home/me" });
    expect(scrubber.labels).toEqual(["ANTHROPIC_API_KEY"]);
    expect(scrubber.scrub("key=sk-ant-key-123456 twice sk-ant-key-123456 /home/me")).toBe(
      "key=[REDACTED ANTHROPIC_API_KEY] twice [REDACTED ANTHROPIC_API_KEY] /home/me",
    );
  });
});

describe("sandboxSettings", () => {
  it("requires the sandbox, allows nothing outside it, and denies the credentials inside it", () => {
    expect(sandboxSettings({ allowedDomains: ["registry.npmjs.org"] })).toEqual({
      enabled: true,
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      autoAllowBashIfSandboxed: false,
      network: { allowedDomains: ["registry.npmjs.org"] },
      credentials: {
        envVars: [
          { name: "ANTHROPIC_API_KEY", mode: "deny" },
          { name: "ANTHROPIC_AUTH_TOKEN", mode: "deny" },
          { name: "CLAUDE_CODE_OAUTH_TOKEN", mode: "deny" },
        ],
      },
    });
  });
});
