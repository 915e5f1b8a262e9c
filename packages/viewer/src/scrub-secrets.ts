/**
 * Secret scrubbing for everything a page shows. The runner already keeps credentials out of the
 * journal (the API key is never written, tool and validator subprocesses do not get it); this is
 * the second line: a page is made to be attached to an issue or a CI artifact, so anything that
 * looks like a credential is replaced before it is embedded or served, whatever wrote it. The
 * rule itself is @climpt/model's scrubber, the one every sink uses; a page asks for its widest
 * setting.
 */

import { collectSecrets, createScrubber, type SecretScrubber } from "@climpt/model";

/**
 * The scrubber of a page: the values of the variables of `env` whose names contain a credential
 * word (`broadNames`: beyond `_TOKEN`/`_KEY`/… endings also `*CREDENTIAL*`, `*AUTH*`,
 * `*COOKIE*`, `*SESSION*`, …), replaced by `[REDACTED NAME]` in every spelling, and text shaped
 * like a credential (`credentialShapes`: API keys, GitHub and Slack tokens, AWS key ids, bearer
 * tokens, private keys, `SECRET_NAME=value`).
 */
export function pageScrubber(
  env: Readonly<Record<string, string | undefined>> = {},
): SecretScrubber {
  return createScrubber(collectSecrets({ env, broadNames: true }), { credentialShapes: true });
}
