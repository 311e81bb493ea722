import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// The story's spine, against its own scripted scenario (fixtures/spine.json, a server of its own,
// seeded dice). The opening writes the hidden plan (a flood, a cult, a wary guard, a messenger)
// and the scene reveals the flood; a failed Stealth roll whose stakes name it ticks its clock.
// Four turns of humming later the inspector shows the director's steer, and the next scene
// brings the messenger it asked for. A Persuasion roll made against the DC the guard's wariness
// sets turns him friendly; the chapter ends; the drawn map takes the hero to the mill.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");
const spine = () => page.getByTestId("story-so-far");
const drawer = () => page.locator(".gm-drawer");

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

/** Waits until the turn is over and its actions are back. */
async function settled() {
  await expect(page.getByRole("button", { name: "Do it" })).toBeEnabled();
  await expect(page.locator("button.action").first()).toBeEnabled();
}

async function choose(name: RegExp) {
  await page.getByRole("button", { name }).click();
  await settled();
}

test("the opening makes the plan: the first chapter is shown, its secrets are not", async () => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Lark");
  await page.getByTestId("class").fill("Bard");
  await page.getByTestId("class").dispatchEvent("change");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await settled();
  await spine().locator("summary").click();
  await expect(spine().getByTestId("chapters")).toHaveText("Chapter 1: The drowned gate");
  await expect(spine().getByTestId("clock")).toHaveText(/The flood: 0 of 4/);
  await expect(spine().getByTestId("person")).toContainText("the guard — wary");
  await expect(spine()).not.toContainText("bribe");
  // The notes are the player's choice, kept with the campaign.
  await spine().getByTestId("show-notes").check();
  await expect(spine().getByTestId("gm-notes")).toContainText("he took a bribe");
  await expectAccessible(page, "the plan with its notes shown");
  await spine().getByTestId("show-notes").uncheck();
  await expect(spine().getByTestId("gm-notes")).toHaveCount(0);
});

test("a failed roll whose stakes name the flood ticks its clock", async () => {
  await choose(/^Sneak past the rising water/);
  await expect(story().getByTestId("rules-note").last()).toContainText(
    "The flood: 1 of 4 (ticked by a failed Stealth roll).",
  );
  await expect(spine().getByTestId("clock")).toHaveText(/The flood: 1 of 4/);
});

test("after four still turns the inspector shows the steer, and the next scene follows it", async () => {
  for (let n = 0; n < 4; n++) {
    await choose(/^Hum an old river song/);
  }
  await drawer().locator("summary").click();
  const director = drawer().getByTestId("director");
  await expect(director).toContainText("Turns since the story moved: 4");
  await expect(director.getByTestId("steer-due")).toContainText(
    "Now the messenger arrives, wanting word of the flood.",
  );
  await drawer().locator("summary").click();
  await choose(/^Hum an old river song/);
  await expect(story()).toContainText("A messenger splashes through the gate");
  // The director's pacing ticks the pressing clock too.
  await expect(spine().getByTestId("clock")).toHaveText(/The flood: 2 of 4/);
  await drawer().locator("summary").click();
  await expect(drawer().getByTestId("steer-last")).toContainText(
    "Turn 7, after 4 still turns: Now the messenger arrives",
  );
  await drawer().locator("summary").click();
});

test("a Persuasion success against the guard's DC turns him friendly, and the chapter ends", async () => {
  const persuade = page.getByRole("button", { name: /^Persuade the guard/ });
  await expect(persuade).toContainText("vs DC 15");
  await choose(/^Persuade the guard/);
  await expect(story()).toContainText("The guard: wary → friendly.");
  await expect(spine().getByTestId("person").first()).toContainText("the guard — friendly");
  await expect(story().getByTestId("chapter")).toHaveText("Chapter 2: The mill");
  await expect(spine().getByTestId("chapters")).toContainText("Chapter 2: The mill");
});

test("the map is drawn and choosing a place travels there", async () => {
  const map = page.getByTestId("map");
  // The map is a panel whose code is fetched when it first opens.
  await map.getByText("Where you are").click();
  await expect(map.locator("svg")).toHaveAttribute("aria-label", /you are at The drowned gate/);
  await map.getByRole("button", { name: "Travel to The mill" }).click();
  await settled();
  await expect(story()).toContainText("You follow the towpath");
  await expect(map.locator("svg")).toHaveAttribute("aria-label", /you are at The mill/);
  await page.screenshot({ path: "test-results/story-spine.png", fullPage: true });
  await expectAccessible(page, "the map");
});
