import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

export default defineConfig(packageBuildConfig());
