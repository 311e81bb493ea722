// What a first visit to each page fetches before the page is interactive, and what is fetched
// later on first use (make bench; prints numbers, never fails a build): the release server
// against the fake OpenAI-compatible model, in Chromium with an empty cache for each page. Counts
// the bytes of every built asset (/pkg/: wasm, its split chunks, js, css) as sent over the wire
// (brotli, as the server sends it to Chromium), against the budgets of issue 50: the home page's
// first visit at most 200 KiB, the play page's at most 250 KiB.
//
//   DICEBOUND_SERVER_BIN=… LEPTOS_SITE_ROOT=… node end2end/bench/page-weight.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { fakeModel, gameServer } from "./servers.mjs";

/** Each page's first visit, at most (KiB). */
const BUDGET_KIB = { home: 200, play: 250 };

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
  // The service worker is blocked: a file it fetched for the page is reported with no size
  // (-1), though its bytes crossed the wire all the same.
  const options = { serviceWorkers: "block", ...(state ? { storageState: state } : {}) };
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const assets = recordAssets(page);
  await page.goto(url + path);
  await page.locator('main[data-hydrated="true"]').waitFor({ state: "attached" });
  await page.waitForLoadState("networkidle");
  return { context, page, assets };
}

const kib = (bytes) => (bytes / 1024).toFixed(1);
const total = (assets) => [...assets.values()].reduce((sum, bytes) => sum + bytes, 0);

function printVisit(name, assets, budget = null) {
  const sum = total(assets);
  const note = budget ? `budget: ≤ ${budget} KiB; ` : "";
  console.log(`${name.padEnd(44)} ${kib(sum).padStart(9)} KiB  (${note}${assets.size} files)`);
  for (const [file, bytes] of [...assets].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${file.padEnd(42)} ${kib(bytes).padStart(9)} KiB`);
  }
}

/** Opens a drawer or panel by its summary text; the assets fetched for it. */
async function openDrawer(page, assets, summary) {
  const before = new Set(assets.keys());
  await page.locator("summary", { hasText: summary }).click();
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(200);
  return new Map([...assets].filter(([file]) => !before.has(file)));
}

const data = mkdtempSync(join(tmpdir(), "dicebound-bench-"));
try {
  const url = await gameServer(await fakeModel(0), data);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  console.log("\npage weight: the release build's assets a first visit fetches before the page is interactive (brotli, on the wire), Chromium, empty cache");
  const home = await firstVisit(browser, url, "/");
  printVisit("home page, first visit", home.assets, BUDGET_KIB.home);
  for (const panel of ["Trash", "Your campaigns on another device"]) {
    printVisit(`  then on first use: ${panel}`, await openDrawer(home.page, home.assets, panel));
  }
  await home.page.getByPlaceholder("Mira Thorne").fill("Wren");
  await home.page.getByRole("button", { name: "Begin the adventure" }).click();
  await home.page.waitForURL(/\/play\//);
  await home.page.locator('main[data-hydrated="true"]').waitFor({ state: "attached" });
  await home.page.getByRole("button", { name: "Do it" }).waitFor();
  const playPath = new URL(home.page.url()).pathname;
  const state = await home.context.storageState();

  const play = await firstVisit(browser, url, playPath, state);
  printVisit("play page, first visit", play.assets, BUDGET_KIB.play);
  const drawers = ["Where you are", "The story so far", "The table", "Ledger", "What the GM sees", "Ask the GM", "Search the story"];
  for (const drawer of drawers) {
    printVisit(`  then on first use: ${drawer}`, await openDrawer(play.page, play.assets, drawer));
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
