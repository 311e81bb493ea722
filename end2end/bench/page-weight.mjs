// What a first visit to each page fetches before the page is interactive, and what is fetched
// later on first use (make bench; prints numbers, never fails a build): the release server
// against the fake OpenAI-compatible model, in Chromium with an empty cache for each page. Counts
// the bytes of every built asset (/pkg/: wasm, its split chunks, js, css) as sent over the wire
// (brotli, as the server sends it to Chromium), against the budget of 200 KiB per first visit.
//
//   DICEBOUND_SERVER_BIN=… LEPTOS_SITE_ROOT=… node end2end/bench/page-weight.mjs
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { chromium } from "@playwright/test";

const BUDGET_KIB = 200;
const here = new URL(".", import.meta.url).pathname;

/** Starts a child process that is killed when this script ends. */
function child(command, args, env) {
  const process_ = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  process.on("exit", () => process_.kill());
  return process_;
}

async function fakeModel() {
  const model = child("node", [join(here, "../../scripts/fake-openai.mjs")], { LATENCY_MS: "0" });
  const [line] = await createInterface({ input: model.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value]);
  return Number(line.split(":").pop());
}

async function gameServer(modelPort, data) {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  child(process.env.DICEBOUND_SERVER_BIN, [], {
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    LEPTOS_SITE_ROOT: process.env.LEPTOS_SITE_ROOT,
    LEPTOS_OUTPUT_NAME: "dicebound",
    LEPTOS_ENV: "PROD",
    RUST_LOG: "warn",
    DICEBOUND_DATABASE_URL: `sqlite://${data}/bench.db`,
    DICEBOUND_LLM_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
    DICEBOUND_LLM_API_KEY: "fake",
    DICEBOUND_LLM_MODEL: "fake",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 500; tries++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the server did not start");
}

/** Records every /pkg/ file the page fetches: name → bytes on the wire (body as encoded). */
function recordAssets(page) {
  const assets = new Map();
  page.on("requestfinished", async (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith("/pkg/")) return;
    const sizes = await request.sizes();
    assets.set(path.slice("/pkg/".length), sizes.responseBodySize);
  });
  return assets;
}

/** Opens `path` in a context with an empty cache (and `state`'s cookie), waits until it is
 * interactive; the page and the assets it fetched. */
async function firstVisit(browser, url, path, state) {
  const context = await browser.newContext(state ? { storageState: state } : {});
  const page = await context.newPage();
  const assets = recordAssets(page);
  await page.goto(url + path);
  await page.locator('main[data-hydrated="true"]').waitFor({ state: "attached" });
  await page.waitForLoadState("networkidle");
  return { context, page, assets };
}

const kib = (bytes) => (bytes / 1024).toFixed(1);
const total = (assets) => [...assets.values()].reduce((sum, bytes) => sum + bytes, 0);

function printVisit(name, assets, budget = true) {
  const sum = total(assets);
  const note = budget ? `budget: ≤ ${BUDGET_KIB} KiB; ` : "";
  console.log(`${name.padEnd(44)} ${kib(sum).padStart(9)} KiB  (${note}${assets.size} files)`);
  for (const [file, bytes] of [...assets].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${file.padEnd(42)} ${kib(bytes).padStart(9)} KiB`);
  }
}

/** Opens a drawer by its summary text; the assets fetched for it. */
async function openDrawer(page, assets, summary) {
  const before = new Set(assets.keys());
  await page.locator("summary", { hasText: summary }).click();
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(200);
  return new Map([...assets].filter(([file]) => !before.has(file)));
}

const data = mkdtempSync(join(tmpdir(), "dicebound-bench-"));
try {
  const url = await gameServer(await fakeModel(), data);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  console.log("\npage weight: the release build's assets a first visit fetches before the page is interactive (brotli, on the wire), Chromium, empty cache");
  const home = await firstVisit(browser, url, "/");
  printVisit("home page, first visit", home.assets);
  await home.page.getByPlaceholder("Mira Thorne").fill("Wren");
  await home.page.getByRole("button", { name: "Begin the adventure" }).click();
  await home.page.waitForURL(/\/play\//);
  await home.page.locator('main[data-hydrated="true"]').waitFor({ state: "attached" });
  await home.page.getByRole("button", { name: "Do it" }).waitFor();
  const playPath = new URL(home.page.url()).pathname;
  const state = await home.context.storageState();

  const play = await firstVisit(browser, url, playPath, state);
  printVisit("play page, first visit", play.assets);
  for (const drawer of ["Ledger", "What the GM sees"]) {
    printVisit(`  then on first use: ${drawer}`, await openDrawer(play.page, play.assets, drawer), false);
  }
  const settings = await firstVisit(browser, url, "/settings", state);
  printVisit("settings page, first visit", settings.assets);
  await browser.close();
} catch (error) {
  console.error(`the page weight bench failed: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  rmSync(data, { recursive: true, force: true });
  process.exit();
}
