import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// The development build (`cargo leptos build` without --release or --split, what `cargo leptos
// watch` builds) on one server of its own: the test command (scripts/test.sh) builds it into a
// site of its own and passes the debug server binary, that site and a free loopback port.
const port = Number(process.env.E2E_DEV_PORT ?? 3200);
const targetDir = process.env.CARGO_TARGET_DIR ?? "../target";
const dataDir = process.env.E2E_DATA_DIR ?? "test-results";

export default defineConfig({
  ...base,
  testDir: "./dev",
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  projects: [{ name: "dev" }],
  webServer: {
    command: process.env.DICEBOUND_SERVER_BIN ?? `${targetDir}/debug/server`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_SITE_ROOT: process.env.LEPTOS_SITE_ROOT ?? "../target/site",
      RUST_LOG: process.env.RUST_LOG ?? "info",
      DICEBOUND_LLM: `scripted:${__dirname}/fixtures/scenario.json`,
      DICEBOUND_DATABASE_URL: `sqlite://${dataDir}/dev.db`,
    },
  },
});
