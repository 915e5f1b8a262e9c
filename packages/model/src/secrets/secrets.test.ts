import { describe, expect, it } from "vitest";
import { collectSecrets } from "./collect-secrets.ts";
import { createScrubber, redactionOf } from "./scrubber.ts";
import { isSecretEnvName } from "./secret-names.ts";

const KEY = "sk-ant-api03-AbCdEf0123456789";
const GH = "ghp_0123456789abcdefABCDEF0123456789abcd";
const AWS = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

describe("isSecretEnvName", () => {
  it("knows the model, forge and cloud credentials and the secret endings", () => {
    for (const name of [
      "ANTHROPIC_API_KEY",
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "MY_SERVICE_TOKEN",
      "stripe_secret",
      "DB_PASSWORD",
      "npm_config_//registry.npmjs.org/:_authToken",
    ]) {
      expect(isSecretEnvName(name), name).toBe(true);
    }
    for (const name of ["PATH", "HOME", "TOKENIZER", "KEYBOARD", "LANG"]) {
      expect(isSecretEnvName(name), name).toBe(false);
    }
  });
});

describe("collectSecrets", () => {
  it("collects secret-named values, URL passwords and declared values; skips short, common and path values", () => {
    const secrets = collectSecrets({
      env: {
        ANTHROPIC_API_KEY: KEY,
        GH_TOKEN: GH,
        AWS_SECRET_ACCESS_KEY: AWS,
        SHORT_TOKEN: "abc",
        FLAG_SECRET: "changeme",
        SSH_KEY: "/home/me/.ssh/id_ed25519",
        DATABASE_URL: "postgres://app:s3cr3t-pass-word@db:5432/app",
        CUSTOM: "not-a-secret-by-name",
        PATH: "/usr/bin",
      },
      secretEnvNames: ["CUSTOM"],
      secretValues: ["declared-secret-value"],
    });
    const values = secrets.map((secret) => secret.value);
    expect(values).toContain(KEY);
    expect(values).toContain(GH);
    expect(values).toContain(AWS);
    expect(values).toContain("s3cr3t-pass-word");
    expect(values).toContain("not-a-secret-by-name");
    expect(values).toContain("declared-secret-value");
    expect(values).not.toContain("abc");
    expect(values).not.toContain("changeme");
    expect(values).not.toContain("/home/me/.ssh/id_ed25519");
    expect(values).not.toContain("/usr/bin");
    // Longest first, so a secret containing another is replaced whole.
    const lengths = secrets.map((secret) => secret.value.length);
    expect([...lengths].sort((a, b) => b - a)).toEqual(lengths);
  });
});

describe("createScrubber", () => {
  const scrubber = createScrubber(
    collectSecrets({ env: { ANTHROPIC_API_KEY: KEY, GH_TOKEN: GH, AWS_SECRET_ACCESS_KEY: AWS } }),
  );

  it("replaces every occurrence, in plain, JSON-escaped and URL-encoded spellings", () => {
    const text = `key=${KEY}\n{"token":"${GH}"} ${GH}\nhttps://x/?s=${encodeURIComponent(AWS)} ${AWS}`;
    const out = scrubber.scrub(text);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(GH);
    expect(out).not.toContain(AWS);
    expect(out).not.toContain(encodeURIComponent(AWS));
    expect(out).toContain(redactionOf("ANTHROPIC_API_KEY"));
    expect(out.split(redactionOf("GH_TOKEN")).length - 1).toBe(2);
    expect(scrubber.contains(text)).toBe(true);
    expect(scrubber.contains(out)).toBe(false);
  });

  it("scrubs strings anywhere in a JSON value, keys included, and leaves other values alone", () => {
    const value = { a: [KEY, 1, true, null], [GH]: { nested: `Bearer ${GH}` } };
    const out = scrubber.scrubJson(value);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(JSON.stringify(out)).not.toContain(GH);
    expect(out.a.slice(1)).toEqual([1, true, null]);
    expect(value.a[0]).toBe(KEY); // the input is not changed
  });

  it("stays linear: a 5 MB text with many occurrences is scrubbed in one pass per spelling", () => {
    const text = `${"x".repeat(1000)}${KEY}`.repeat(5000);
    const out = scrubber.scrub(text);
    expect(out.includes(KEY)).toBe(false);
    expect(out.split(redactionOf("ANTHROPIC_API_KEY")).length - 1).toBe(5000);
  });

  it("with no secrets returns text unchanged", () => {
    expect(createScrubber([]).scrub(`x ${KEY}`)).toBe(`x ${KEY}`);
  });
});
