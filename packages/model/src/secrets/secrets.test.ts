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

describe("createScrubber with credentialShapes (for published output)", () => {
  const env = {
    ANTHROPIC_API_KEY: "sk-ant-api03-very-secret-value-0123456789",
    DEPLOY_TOKEN: "tok_1234567890abcdef",
    DEPLOY_CREDENTIAL: "my-deploy-credential-value",
    HOME: "/home/someone",
    SHORT_SECRET: "abc",
  };
  const scrubber = createScrubber(collectSecrets({ env, broadNames: true }), {
    credentialShapes: true,
  });

  it("replaces known values by label, and leaves ordinary and short values alone", () => {
    expect(scrubber.scrub("deploying with tok_1234567890abcdef now")).toBe(
      "deploying with [REDACTED DEPLOY_TOKEN] now",
    );
    expect(scrubber.scrub("home is /home/someone")).toBe("home is /home/someone");
    expect(scrubber.scrub("abc")).toBe("abc");
  });

  it("broadNames hides a variable whose name only contains a credential word", () => {
    expect(scrubber.scrub("x my-deploy-credential-value")).toBe("x [REDACTED DEPLOY_CREDENTIAL]");
    const narrow = createScrubber(collectSecrets({ env }));
    expect(narrow.scrub("x my-deploy-credential-value")).toBe("x my-deploy-credential-value");
  });

  it("replaces text shaped like a credential, whoever wrote it", () => {
    const text = [
      "ANTHROPIC_API_KEY=sk-ant-api03-other-key-not-in-env-999999",
      "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.signature",
      "aws AKIAIOSFODNN7EXAMPLE",
      "slack xoxb-1234567890-abcdef",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----",
    ].join("\n");
    const scrubbed = scrubber.scrub(text);
    for (const secret of [
      "sk-ant-api03-other",
      "ghp_abc",
      "eyJhbGci",
      "AKIAIOSFODNN7EXAMPLE",
      "xoxb-1234567890",
      "b3BlbnNzaC1rZXk",
    ]) {
      expect(scrubbed).not.toContain(secret);
    }
    expect(scrubbed).toContain("GITHUB_TOKEN=[redacted]");
    expect(scrubbed).toContain("Bearer [redacted]");
    expect(scrubber.contains("a ghp_abcdefghijklmnopqrstuvwxyz0123456789")).toBe(true);
  });

  it("is off by default: a run's scrubber keeps `PASSWORD=` lines of files the model edits", () => {
    const plain = createScrubber(collectSecrets({ env }));
    expect(plain.scrub("DB_PASSWORD=example-value-here")).toBe("DB_PASSWORD=example-value-here");
    expect(createScrubber([]).scrub("Bearer abcdefghijklmnop")).toBe("Bearer abcdefghijklmnop");
  });

  it("reaches every string of a JSON value, keys included", () => {
    const event = {
      type: "tool_result",
      result: { content: ["x", { deep: "tok_1234567890abcdef" }] },
    };
    expect(JSON.stringify(scrubber.scrubJson(event))).not.toContain("tok_1234567890abcdef");
  });

  it("stays linear with shapes on: 5 MB of text and an unterminated private key block", () => {
    const text = `${"x".repeat(1000)} sk-ant-api03-very-secret-value-0123456789 `.repeat(5000);
    const started = performance.now();
    const out = scrubber.scrub(text);
    expect(out).not.toContain("sk-ant-api03-very");
    const keyBlocks = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n".repeat(20000);
    expect(scrubber.scrub(keyBlocks)).toBe(keyBlocks);
    // Hang detection only (generous on a busy machine): quadratic matching would take minutes.
    expect(performance.now() - started).toBeLessThan(20000);
  });
});
