import { test, expect, type Page } from "@playwright/test";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// Read aloud against its own scripted scenario (fixtures/harbour.json, a server of its own). The
// browser's speech synthesis is replaced by a stub that records what it is asked to say, at
// which speed and in which voice, and how often it is told to stop.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");

interface Speech {
  spoken: { text: string; rate: number; voice: string | null }[];
  cancelled: number;
}
const speech = () => page.evaluate(() => (window as unknown as { __speech: Speech }).__speech);

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
  await page.addInitScript(() => {
    const log = { spoken: [] as Speech["spoken"], cancelled: 0 };
    (window as unknown as { __speech: Speech }).__speech = log;
    class Utterance {
      text: string;
      rate = 1;
      voice: { name: string } | null = null;
      constructor(text: string) {
        this.text = text;
      }
    }
    const synthesis = {
      speak: (u: Utterance) => log.spoken.push({ text: u.text, rate: u.rate, voice: u.voice?.name ?? null }),
      cancel: () => {
        log.cancelled += 1;
      },
      getVoices: () => [{ name: "Test voice" }, { name: "Other voice" }],
    };
    Object.defineProperty(window, "SpeechSynthesisUtterance", { value: Utterance, configurable: true });
    Object.defineProperty(window, "speechSynthesis", { value: synthesis, configurable: true });
  });
});

test.afterAll(async () => closeWatched(watched));

test("a scene is spoken sentence by sentence in the chosen voice and speed, remembered by the browser", async ({}, testInfo) => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Ash");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story()).toContainText("A bell tolls over the harbour.");

  await page.getByTestId("read-aloud-toggle").check();
  await page.getByTestId("read-aloud-voice").selectOption("Test voice");
  await page.getByTestId("read-aloud-rate").selectOption("1.25");
  expect((await speech()).spoken).toEqual([]);

  await page.getByRole("button", { name: "Walk to the pier" }).click();
  await expect(story()).toContainText("a fiddle plays");
  const voice = { rate: 1.25, voice: "Test voice" };
  await expect.poll(async () => (await speech()).spoken).toEqual([
    { text: "You walk to the pier.", ...voice },
    { text: "The boards creak under your boots!", ...voice },
    { text: "Somewhere, a fiddle plays, and then stops.", ...voice },
  ]);
  await page.screenshot({ path: testInfo.outputPath("read-aloud.png"), fullPage: true });

  // A new move stops what is still being spoken, then its scene is spoken in turn.
  const before = (await speech()).cancelled;
  await page.getByRole("button", { name: "Listen to the water" }).click();
  await expect(story()).toContainText("like a slow clock");
  expect((await speech()).cancelled).toBeGreaterThan(before);
  await expect.poll(async () => (await speech()).spoken.slice(3).map((said) => said.text)).toEqual([
    "The tide turns.",
    "A rope slaps against a hull, again and again, like a slow clock.",
  ]);

  // This browser remembers the choice; turning it off stops the speech.
  await page.reload();
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(page.getByTestId("read-aloud-toggle")).toBeChecked();
  await expect(page.getByTestId("read-aloud-rate")).toHaveValue("1.25");
  await expect(page.getByTestId("read-aloud-voice")).toHaveValue("Test voice");
  const cancelledBefore = (await speech()).cancelled;
  await page.getByTestId("read-aloud-toggle").uncheck();
  expect((await speech()).cancelled).toBeGreaterThan(cancelledBefore);
});
