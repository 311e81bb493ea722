import { defineConfig } from "@playwright/test";

// The test command (scripts/test.sh) builds the site, picks a free loopback port and
// tells us where the server binary and the built site are. Playwright starts that server
// before the tests and stops it after.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// Game depth plays against a scenario of its own, on a server of its own.
const depthPort = Number(process.env.E2E_DEPTH_PORT ?? port + 1);
const depthURL = `http://127.0.0.1:${depthPort}`;
// The client-side-rendered build (Trunk) is served on a port of its own, its /api/ passed to a
// game server of its own.
const csrPort = Number(process.env.E2E_CSR_PORT ?? port + 2);
const csrGamePort = Number(process.env.E2E_CSR_GAME_PORT ?? port + 3);
const csrURL = `http://127.0.0.1:${csrPort}`;
// A whole fight plays against a scenario of its own (seeded dice), on a server of its own.
const fightPort = Number(process.env.E2E_FIGHT_PORT ?? port + 4);
const fightURL = `http://127.0.0.1:${fightPort}`;
// The rules' check of a scene (a narrator that contradicts them) plays against a scenario of its
// own, on a server of its own.
const ledgerPort = Number(process.env.E2E_LEDGER_PORT ?? port + 5);
const ledgerURL = `http://127.0.0.1:${ledgerPort}`;
const teethPort = Number(process.env.E2E_TEETH_PORT ?? port + 6);
const teethURL = `http://127.0.0.1:${teethPort}`;
// Approval mode (the game master's changes waiting for the player) on a server of its own.
const approvalPort = Number(process.env.E2E_APPROVAL_PORT ?? port + 7);
const approvalURL = `http://127.0.0.1:${approvalPort}`;
// Read aloud (the browser's speech, observed through a stub) on a server of its own.
const voicePort = Number(process.env.E2E_VOICE_PORT ?? port + 8);
const voiceURL = `http://127.0.0.1:${voicePort}`;
// The settings page points its own server at a second scripted model (fake-model.mjs).
const settingsPort = Number(process.env.E2E_SETTINGS_PORT ?? port + 9);
const settingsURL = `http://127.0.0.1:${settingsPort}`;
const fakeModelPort = Number(process.env.E2E_FAKE_MODEL_PORT ?? port + 10);
// Spells, class features and rests (a Wizard, a Cleric, a Rogue) on a server of their own.
const magicPort = Number(process.env.E2E_MAGIC_PORT ?? port + 11);
const magicURL = `http://127.0.0.1:${magicPort}`;
// The story's spine (plan, clocks, director, attitudes, the drawn map) on a server of its own.
const storyPort = Number(process.env.E2E_STORY_PORT ?? port + 12);
const storyURL = `http://127.0.0.1:${storyPort}`;
// A table of friends (two players, a companion, a fight) on a server of its own.
const friendsPort = Number(process.env.E2E_FRIENDS_PORT ?? port + 13);
const friendsURL = `http://127.0.0.1:${friendsPort}`;
// Reach (playing by voice, the manifest, the service worker) on a server of its own.
const reachPort = Number(process.env.E2E_REACH_PORT ?? port + 14);
const reachURL = `http://127.0.0.1:${reachPort}`;
// `cargo leptos end-to-end --release` builds into $CARGO_TARGET_DIR when it is set.
const targetDir = process.env.CARGO_TARGET_DIR ?? "../target";
const serverBin = process.env.DICEBOUND_SERVER_BIN ?? `${targetDir}/release/server`;
const siteRoot = process.env.LEPTOS_SITE_ROOT ?? "../target/site";
// A fresh database per run (the test command passes a new folder).
const dataDir = process.env.E2E_DATA_DIR ?? "test-results";

export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // The scripted model answers in order, so one worker plays the tests in order.
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "game", testIgnore: /(depth|csr|fight|ledger|teeth|approval|read_aloud|settings|magic|story|friends|reach)\.spec\.ts/ },
    { name: "friends", testMatch: /friends\.spec\.ts/, use: { baseURL: friendsURL } },
    { name: "story", testMatch: /story\.spec\.ts/, use: { baseURL: storyURL } },
    { name: "magic", testMatch: /magic\.spec\.ts/, use: { baseURL: magicURL } },
    { name: "depth", testMatch: /depth\.spec\.ts/, use: { baseURL: depthURL } },
    { name: "csr", testMatch: /csr\.spec\.ts/, use: { baseURL: csrURL } },
    { name: "fight", testMatch: /fight\.spec\.ts/, use: { baseURL: fightURL } },
    { name: "ledger", testMatch: /ledger\.spec\.ts/, use: { baseURL: ledgerURL } },
    { name: "teeth", testMatch: /teeth\.spec\.ts/, use: { baseURL: teethURL } },
    { name: "approval", testMatch: /approval\.spec\.ts/, use: { baseURL: approvalURL } },
    { name: "read-aloud", testMatch: /read_aloud\.spec\.ts/, use: { baseURL: voiceURL } },
    { name: "reach", testMatch: /reach\.spec\.ts/, use: { baseURL: reachURL } },
    {
      name: "settings",
      testMatch: /settings\.spec\.ts/,
      use: { baseURL: settingsURL },
      metadata: { fakeModel: `http://127.0.0.1:${fakeModelPort}/v1` },
    },
  ],
  webServer: [
    server(port, "scenario.json", "e2e.db"),
    server(depthPort, "depth.json", "depth.db"),
    server(csrGamePort, "scenario.json", "csr.db"),
    server(fightPort, "fight.json", "fight.db"),
    server(ledgerPort, "ledger.json", "ledger.db"),
    server(teethPort, "teeth.json", "teeth.db"),
    server(approvalPort, "approval.json", "approval.db"),
    server(voicePort, "harbour.json", "harbour.db"),
    server(settingsPort, "scenario.json", "settings.db"),
    server(magicPort, "magic.json", "magic.db"),
    server(storyPort, "spine.json", "spine.db"),
    server(friendsPort, "friends.json", "friends.db"),
    server(reachPort, "harbour.json", "reach.db"),
    {
      command: "node fake-model.mjs",
      url: `http://127.0.0.1:${fakeModelPort}/v1/models`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_MODEL_PORT: String(fakeModelPort) },
    },
    {
      command: "node csr-server.mjs",
      url: `${csrURL}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: {
        CSR_DIST: process.env.CSR_DIST ?? "../target/csr",
        CSR_PORT: String(csrPort),
        GAME_SERVER: `http://127.0.0.1:${csrGamePort}`,
      },
    },
  ],
});

/** A release server on `port` playing the scripted `scenario` with a fresh database `db`. */
function server(port: number, scenario: string, db: string) {
  const url = `http://127.0.0.1:${port}`;
  return {
    command: serverBin,
    url: `${url}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_SITE_ROOT: siteRoot,
      LEPTOS_ENV: "PROD",
      RUST_LOG: process.env.RUST_LOG ?? "info",
      DICEBOUND_LLM: `scripted:${__dirname}/fixtures/${scenario}`,
      DICEBOUND_DATABASE_URL: `sqlite://${dataDir}/${db}`,
      // The tests share one player and play far faster than a person.
      DICEBOUND_TURNS_PER_MINUTE: "600",
      DICEBOUND_CAMPAIGNS_PER_HOUR: "600",
    },
  };
}
