import { afterEach, describe, expect, it } from "vitest";
import { STASHED_EXTRA_CA_CERTS, toolEnv } from "./run-tool.ts";

const saved = {
  stash: process.env[STASHED_EXTRA_CA_CERTS],
  certs: process.env.NODE_EXTRA_CA_CERTS,
};

function restore(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}

afterEach(() => {
  restore(STASHED_EXTRA_CA_CERTS, saved.stash);
  restore("NODE_EXTRA_CA_CERTS", saved.certs);
});

describe("toolEnv: the environment npm and pnpm run in", () => {
  it("gives back the machine's CA bundle the tests' config set aside, for the public registry", () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    process.env[STASHED_EXTRA_CA_CERTS] = "/etc/ssl/certs/proxy-bundle.pem";
    expect(toolEnv().NODE_EXTRA_CA_CERTS).toBe("/etc/ssl/certs/proxy-bundle.pem");
  });

  it("keeps a CA bundle already set, and adds none when nothing was set aside", () => {
    process.env.NODE_EXTRA_CA_CERTS = "/own/bundle.pem";
    process.env[STASHED_EXTRA_CA_CERTS] = "/etc/ssl/certs/proxy-bundle.pem";
    expect(toolEnv().NODE_EXTRA_CA_CERTS).toBe("/own/bundle.pem");

    delete process.env.NODE_EXTRA_CA_CERTS;
    delete process.env[STASHED_EXTRA_CA_CERTS];
    expect(toolEnv()).not.toHaveProperty("NODE_EXTRA_CA_CERTS");
  });
});
