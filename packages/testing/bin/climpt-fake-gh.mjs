#!/usr/bin/env node
// Present before the first build, so pnpm can link the bin at install time.
import "../dist/fake-gh-cli.mjs";
