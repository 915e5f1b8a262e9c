import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { useTempDirs } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { installCommand } from "./install-command.ts";

const tempDir = useTempDirs(afterEach, "climpt-install-command-");

describe("installCommand", () => {
  it("uses the package manager of the nearest lock file, from a subfolder too", () => {
    const project = tempDir();
    const sub = path.join(project, "packages", "app");
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(project, "pnpm-lock.yaml"), "");
    expect(installCommand(["bullmq", "ioredis"], sub, {})).toBe("pnpm add -D bullmq ioredis");
    writeFileSync(path.join(sub, "package-lock.json"), "{}");
    expect(installCommand(["bullmq", "ioredis"], sub, {})).toBe("npm i -D bullmq ioredis");
    writeFileSync(path.join(project, "yarn.lock"), "");
    expect(installCommand(["typescript-json-schema"], project, {})).toBe(
      "pnpm add -D typescript-json-schema",
    );
  });

  it("without a lock file, the package manager that started climpt, else npm", () => {
    const project = tempDir();
    const agent = { npm_config_user_agent: "pnpm/10.34.9 npm/? node/v20.20.2 linux x64" };
    expect(installCommand(["bullmq"], project, agent)).toBe("pnpm add -D bullmq");
    expect(installCommand(["bullmq"], project, { npm_config_user_agent: "yarn/4.0.0" })).toBe(
      "yarn add -D bullmq",
    );
    expect(installCommand(["bullmq"], project, {})).toBe("npm i -D bullmq");
  });
});
