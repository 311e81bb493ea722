// Browser time from a click to the first narrative text (make bench; prints numbers, never
// fails a build): the release server against the fake OpenAI-compatible model
// (scripts/fake-openai.mjs) with a fixed time to first token, in Chromium. A campaign is started,
// then TURNS typed moves are played; each is timed in the page from the click on "Do it" to the
// first text of the streamed scene, less the fake model's fixed latency.
//
//   DICEBOUND_SERVER_BIN=… LEPTOS_SITE_ROOT=… node end2end/bench/first-text.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { fakeModel, gameServer } from "./servers.mjs";

const TURNS = 20;
const LATENCY_MS = 200;

/** Arms the timer: from the next click in the page to the scene's first text shown (the streamed
 * draft, or the saved scene when the whole reply arrives at once); `window.firstText` resolves with
 * the milliseconds, or rejects after 10 s. */
function armTimer() {
  window.firstText = new Promise((resolve, reject) => {
    // The whole page is watched: the story's own element may be rendered anew.
    const scenes = () => document.querySelectorAll('[data-testid="story"] .scene').length;
    const before = scenes();
    let started = null;
    document.addEventListener("click", () => (started = performance.now()), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      const draft = document.querySelector('[data-testid="story"] .scene.draft');
      if (started !== null && (draft?.textContent || scenes() > before)) {
        observer.disconnect();
        resolve(performance.now() - started);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    setTimeout(() => reject(new Error("no scene within 10 s")), 10_000);
  });
}

const data = mkdtempSync(join(tmpdir(), "dicebound-bench-"));
try {
  const url = await gameServer(await fakeModel(LATENCY_MS), data, { DICEBOUND_TURNS_PER_MINUTE: "6000" });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage();
  await page.goto(url);
  await page.locator('main[data-hydrated="true"]').waitFor({ state: "attached" });
  await page.getByPlaceholder("Mira Thorne").fill("Wren");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await page.waitForURL(/\/play\//);
  await page.locator('main[data-hydrated="true"]').waitFor({ state: "attached" });
  const times = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const move = page.getByLabel("Your move");
    await move.fill(`I walk on, step ${turn + 1}`);
    await page.getByRole("button", { name: "Do it" }).waitFor();
    await page.evaluate(armTimer);
    await page.getByRole("button", { name: "Do it" }).click();
    times.push((await page.evaluate(() => window.firstText)) - LATENCY_MS);
    await page.waitForFunction(() => {
      const input = document.querySelector("textarea");
      return input && input.value === "" && !document.querySelector(".scene.draft");
    });
    await page.getByRole("button", { name: "Do it" }).waitFor({ state: "visible" });
  }
  await browser.close();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.round((times.length - 1) * q)];
  console.log(`\nbrowser: click on "Do it" to the first narrative text, Chromium, fake model's ${LATENCY_MS} ms to first token taken off, ${TURNS} turns`);
  console.log(`${"p50".padEnd(44)} ${at(0.5).toFixed(1).padStart(9)} ms`);
  console.log(`${"p99".padEnd(44)} ${at(0.99).toFixed(1).padStart(9)} ms`);
} catch (error) {
  console.error(`the browser bench failed: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  rmSync(data, { recursive: true, force: true });
  process.exit();
}
