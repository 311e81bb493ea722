import { test, expect, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { expectAccessible } from "./support/axe";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// One campaign played through in order against the scripted scenario (fixtures/scenario.json):
// the steps of the scenario are consumed in this order, so the tests run serially.
test.describe.configure({ mode: "serial" });

let page: Page;
let campaignUrl = "";
let watched: Watched;

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

const story = () => page.getByTestId("story");

/** The story log as [class, text] pairs (hydration markers differ between live and reloaded DOM). */
async function storyEntries() {
  return story().evaluate((log) =>
    Array.from(log.children).map((entry) => [entry.className, entry.textContent?.trim() ?? ""]),
  );
}

async function hydrated() {
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
}

test("a new adventure opens with its scene and action buttons", async () => {
  await page.goto("/");
  await hydrated();
  await page.getByPlaceholder("Mira Thorne").fill("Mira");
  await page.getByRole("button", { name: "Begin the adventure" }).click();

  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  campaignUrl = page.url();
  await hydrated();
  await expect(story()).toContainText("You stand before the drowned gate of Hollowmere.");
  await expect(page.getByRole("button", { name: /Sneak past the guard/ })).toContainText("1d20+2 vs DC 12");
  await expect(page.getByTestId("hp")).toHaveText("HP 11/11");
});

test("an action with a roll shows the roll, the scene, a chip and the new HP", async ({}, testInfo) => {
  await page.getByRole("button", { name: /Sneak past the guard/ }).click();

  await expect(story().locator(".move").last()).toHaveText("Sneak past the guard");
  await expect(story().locator(".roll", { hasText: "Stealth" }).last()).toContainText(/Rolled 1d20\+2 for Stealth.* vs DC 12/);
  await expect(story().locator(".chip").last()).toHaveText("−3 HP");
  await expect(story()).toContainText("the guard's spear grazes your arm");
  await expect(page.getByTestId("hp")).toHaveText("HP 8/11");
  await expect(page.getByRole("button", { name: /Sneak past the guard/ })).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath("play.png"), fullPage: true });
});

test("the storybook downloads as one page with the story and its dice", async ({}, testInfo) => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("storybook").click()]);
  expect(download.suggestedFilename()).toMatch(/\.storybook\.html$/);
  const file = testInfo.outputPath("campaign.storybook.html");
  await download.saveAs(file);
  const book = await page.context().newPage();
  await book.setContent(await readFile(file, "utf8"));
  await expect(book.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(book.getByRole("main")).toContainText("You stand before the drowned gate of Hollowmere.");
  await expect(book.getByRole("main")).toContainText("Sneak past the guard");
  const roll = book.locator(".roll", { hasText: "Stealth" });
  await expect(roll).toContainText(/Rolled 1d20\+2 for Stealth/);
  await expect(roll.locator(".die")).toHaveText(/^d20\s\d+$/);
  await expect(book.locator("footer")).toContainText("HP 8/11");
  await expect(book.locator("script")).toHaveCount(0);
  await expectAccessible(book, "the storybook");
  await book.close();
});

/** Presses Tab until `target` has the focus (at most 150 times), then checks the focus shows. */
async function tabTo(target: ReturnType<Page["locator"]>) {
  for (let presses = 0; presses < 150; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
  const ring = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return style.outlineStyle !== "none" && style.outlineWidth !== "0px" ? style.outlineStyle : style.boxShadow;
  });
  expect(ring, "a visible focus").not.toBe("none");
}

test("a typed move plays a turn, and the panels open and close, with the keyboard only", async () => {
  await expectAccessible(page, "the play screen");
  await page.locator("body").focus();
  const box = page.getByLabel("Your move");
  await tabTo(box);
  await page.keyboard.type("I search the guardhouse");
  // The move box is a textarea (Enter makes a new line): Tab reaches "Do it".
  await tabTo(page.getByRole("button", { name: "Do it" }));
  await page.keyboard.press("Enter");

  await expect(story().locator(".move").last()).toHaveText("I search the guardhouse");
  await expect(story()).toContainText("you find a rusty key");
  await expect(page.getByTestId("inventory")).toContainText("Rusty key");
  await expect(box).toHaveValue("");

  // The drawer: Enter opens it and Space closes it. (Opening it moves the focus to the page's
  // start, a defect still to fix in the play screen: Tab brings it back to the summary.)
  const drawer = page.locator(".gm-drawer");
  const summary = drawer.locator("summary");
  await tabTo(summary);
  await page.keyboard.press("Enter");
  await expect(drawer.getByTestId("inspector")).toBeVisible();
  await expectAccessible(page, "the play screen with the drawer open");
  await tabTo(summary);
  await page.keyboard.press("Space");
  await expect(drawer).not.toHaveAttribute("open");
  await expect(drawer.getByTestId("inspector")).toBeHidden();
});

test("the journal in the side panel keeps who was met; the player can pin and rewrite it", async () => {
  const journal = page.getByTestId("journal");
  await expect(journal).toContainText("The dozing guard");
  await expect(story().locator(".chip").last()).toHaveText("Journal: The dozing guard");
  await expect(page.getByRole("button", { name: /Sneak past the guard/ })).toBeEnabled();

  await journal.getByRole("button", { name: "Pin" }).click();
  await expect(journal.getByRole("button", { name: "Unpin" })).toBeVisible();
  await journal.getByRole("button", { name: "Edit" }).click();
  await journal.getByLabel("Note").fill("Asleep at his post; owes you silence.");
  // The panel shows the new note at once; wait for the server to have saved it before reloading.
  const saved = page.waitForResponse((response) => response.url().includes("/edit_journal") && response.ok());
  await journal.getByRole("button", { name: "Save" }).click();
  await saved;
  await expect(journal).toContainText("Asleep at his post; owes you silence.");

  await page.reload();
  await hydrated();
  await expect(page.getByTestId("journal")).toContainText("Asleep at his post; owes you silence.");
  await expect(page.getByTestId("journal").getByRole("button", { name: "Unpin" })).toBeVisible();
});

test("a provider failure shows an error with Retry and keeps the typed text", async () => {
  await page.getByLabel("Your move").fill("I wait for the rain to stop");
  await page.getByRole("button", { name: "Do it" }).click();

  const alert = page.getByRole("alert");
  await expect(alert).toContainText("nothing was lost");
  await expect(page.getByLabel("Your move")).toHaveValue("I wait for the rain to stop");
  await expect(story().locator(".move").last()).toHaveText("I search the guardhouse");

  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(story()).toContainText("The rain thins to a whisper and stops.");
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByLabel("Your move")).toHaveValue("");
});

test("HTML in the model's Markdown is shown as text, never run", async () => {
  await page.getByLabel("Your move").fill("I read the note");
  await page.getByRole("button", { name: "Do it" }).click();

  await expect(story()).toContainText("<script>window.__xss = 1</script>");
  await expect(story()).toContainText('<img src=x onerror="window.__xss = 2">');
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(story().locator("img, script")).toHaveCount(0);
});

test("the play screen fits a 375 px wide phone", async ({}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expect(page.getByTestId("character")).toBeVisible();
  // The move box and the action buttons are on screen (scrolled to) and inside its width.
  for (const control of [page.getByLabel("Your move"), page.getByRole("button", { name: "Do it" }), page.locator(".actions button").first()]) {
    await control.scrollIntoViewIfNeeded();
    await expect(control).toBeInViewport();
    await expect(control).toBeEnabled();
    const box = await control.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375, "inside the screen's width").toBe(true);
  }
  await expectAccessible(page, "the play screen at 375 px");
  await page.screenshot({ path: testInfo.outputPath("play-375.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("a reload brings the campaign and its log back identical", async () => {
  const before = await storyEntries();
  expect(before.length).toBeGreaterThan(8);
  await page.reload();
  await hydrated();
  await expect(story()).toContainText("The rain thins");
  expect(await storyEntries()).toEqual(before);
});

test("the drawer shows what the game master sees when it is opened", async () => {
  const drawer = page.locator(".gm-drawer");
  await drawer.locator("summary").click();
  await expect(drawer.locator(".llm.user").first()).toBeVisible();
  await expect(drawer).toContainText("I read the note");
  const inspector = drawer.getByTestId("inspector");
  await expect(inspector).toContainText("the rules and the premise");
  await expect(inspector).toContainText("the journal");
  await expect(inspector).toContainText("Same front as the call before");
  await expect(inspector).toContainText("keep_journal");
  await drawer.locator("summary").click();
});

test("the story is searched for what it said earlier, and the drawer says what the rules recalled", async () => {
  const search = page.getByTestId("story-search");
  await search.locator("summary").click();
  await search.getByLabel("Words to find").fill("Flagstone");
  await search.getByRole("button", { name: "Search" }).click();
  const found = search.getByTestId("story-found");
  await expect(found.locator("li")).toHaveCount(1);
  await expect(found).toContainText("Under a loose flagstone in the guardhouse you find a rusty key.");
  await expect(found).toContainText("(matched: flagstone)");
  await expect(found.locator("strong")).toHaveText(/^Turn \d+$/);

  await search.getByLabel("Words to find").fill("dragon");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(found).toHaveText("Nothing in the story holds those words.");
  await search.locator("summary").click();

  const drawer = page.locator(".gm-drawer");
  await drawer.locator("summary").click();
  await expect(drawer.getByTestId("recalled")).toContainText("Recalled from earlier in the story");
  await drawer.locator("summary").click();
});

test("a question out of character is answered and the story stays at its turn", async () => {
  const before = await storyEntries();
  const actions = await page.locator(".actions button").allTextContents();
  const ask = page.getByTestId("ask-gm");
  await ask.locator("summary").click();
  await ask.getByLabel("Your question").fill("Could I climb the arch without waking him?");
  await ask.getByRole("button", { name: "Ask" }).click();
  const answer = ask.getByTestId("gm-answer");
  await expect(answer).toContainText("The arch is low and slick; you could climb it");
  await expect(answer).toContainText("You asked (turn");
  await expect(answer).toContainText("Could I climb the arch without waking him?");
  await expect(ask.getByLabel("Your question")).toHaveValue("");
  expect(await storyEntries()).toEqual(before);
  expect(await page.locator(".actions button").allTextContents()).toEqual(actions);
  const asked = (await answer.locator(".meta").textContent())!.match(/turn \d+/)![0];
  // After a reload, the story is the same and a second question finds the same turn.
  await page.reload();
  await hydrated();
  expect(await storyEntries()).toEqual(before);
  await ask.locator("summary").click();
  await ask.getByLabel("Your question").fill("Is the guard armed?");
  await ask.getByRole("button", { name: "Ask" }).click();
  await expect(answer.locator(".meta")).toContainText(`You asked (${asked}): Is the guard armed?`);
  await ask.locator("summary").click();
});

test("another player cannot open the campaign", async ({ browser }) => {
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(campaignUrl);
  await expect(other.getByRole("alert")).toContainText("campaign was not found");
  await expect(other.getByTestId("story")).toHaveCount(0);
  await stranger.close();
});

test("starting over opens a fresh campaign from the same premise", async () => {
  await page.getByRole("button", { name: "Start over" }).click();
  await page.getByRole("button", { name: "Really start over?" }).click();

  await expect(page).not.toHaveURL(campaignUrl);
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(story().locator(".scene")).toHaveCount(1);
  await expect(story()).toContainText("the drowned gate of Hollowmere");
  await expect(page.getByTestId("hp")).toHaveText("HP 11/11");
});

test("a turn played in a second tab streams into the first as it is told", async () => {
  campaignUrl = page.url();
  await page.evaluate(() => ((window as unknown as { __samePage?: boolean }).__samePage = true));
  // The first tab's inspector is open on the model's working context.
  const drawer = page.locator(".gm-drawer");
  await drawer.locator("summary").click();
  const held = drawer.getByTestId("model-window");
  await expect(held).toContainText("The model holds turns");
  await expect(held).not.toContainText("I climb over the gate");
  const second = await page.context().newPage();
  await second.goto(campaignUrl);
  await expect(second.locator('main[data-hydrated="true"]')).toBeAttached();
  await second.getByLabel("Your move").fill("I climb over the gate");
  await second.getByRole("button", { name: "Do it" }).click();
  await expect(second.getByTestId("story").locator(".move").last()).toHaveText("I climb over the gate");
  await expect(second.getByRole("button", { name: /Sneak past the guard/ })).toBeEnabled();
  const told = await second.getByTestId("story").locator(".scene").last().textContent();
  await second.close();

  // The first tab followed the turn on the campaign's event stream, without a reload: the
  // move, the scene, the sheet and the actions; its next move is not a stale one.
  await expect(story().locator(".move").last()).toHaveText("I climb over the gate");
  await expect(story().locator(".scene").last()).toHaveText(told ?? "");
  await expect(page.getByTestId("hp")).toHaveText("HP 8/11");
  await expect(page.getByRole("button", { name: /Sneak past the guard/ })).toBeEnabled();
  // The model's working context followed too, by the turn's change: its move is held now.
  await expect(held.getByTestId("model-turn").last()).toContainText("I climb over the gate");
  await drawer.locator("summary").click();
  expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
});

test("the campaign is listed on the home page, can be renamed, and is deleted to the trash only when asked twice", async () => {
  await page.goto("/");
  await hydrated();
  const entry = page.getByTestId("campaign").filter({ hasText: "Mira the Ranger" });
  await expect(entry).toHaveCount(1);
  // What the story has cost so far, in tokens (the scripted model reports its usage).
  await expect(entry.getByTestId("campaign-spend")).toContainText(/[1-9][\d,]* tokens/);
  await expect(entry).toContainText("turn 2");
  // (A refused title is the service tests': a refusal is an error response, which this page
  // would log.)
  await entry.getByRole("button", { name: "Rename" }).click();
  await entry.getByLabel("New title").fill("The gate at dusk");
  await entry.getByRole("button", { name: "Save" }).click();
  const renamed = page.getByTestId("campaign").filter({ hasText: "The gate at dusk" });
  await expect(renamed.getByRole("link", { name: "The gate at dusk" })).toBeVisible();
  // Its file is named after the new title at once, before any reload.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    renamed.getByRole("button", { name: "Export" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("The-gate-at-dusk.dicebound.json");
  await page.reload();
  await hydrated();
  await expect(renamed).toHaveCount(1);
  // The first click only asks.
  await renamed.getByRole("button", { name: "Delete" }).click();
  await expect(renamed.getByRole("button", { name: /Really delete\?/ })).toBeVisible();
  await expect(page.getByTestId("campaign")).toHaveCount(1);
  await renamed.getByRole("button", { name: /Really delete\?/ }).click();
  await expect(page.getByTestId("campaign")).toHaveCount(0);
  await expect(page.getByText("No campaigns yet.")).toBeVisible();

  // It waits in the trash: restored, it is back in play.
  const trash = page.getByTestId("trash");
  await trash.locator("summary").click();
  const trashed = trash.getByTestId("trashed");
  await expect(trashed).toHaveCount(1);
  await expect(trashed).toContainText("The gate at dusk");
  // Whole days left: 30 when the trash is read in the second of the deletion, 29 from the next
  // (the test does not depend on which second the clock shows).
  await expect(trashed).toContainText(/\b(30|29) days left/);
  await expectAccessible(page, "the home page with the trash open");
  await trashed.getByRole("button", { name: "Restore" }).click();
  await expect(renamed).toHaveCount(1);
  await expect(trash).toContainText("The trash is empty.");
  await expect(renamed).toContainText("turn 2");

  // Deleted again, then deleted for good from the trash (asked twice).
  await renamed.getByRole("button", { name: "Delete" }).click();
  await renamed.getByRole("button", { name: /Really delete\?/ }).click();
  await expect(trashed).toHaveCount(1);
  await trashed.getByRole("button", { name: "Delete forever" }).click();
  await expect(trashed).toHaveCount(1);
  await trashed.getByRole("button", { name: /Really delete forever\?/ }).click();
  await expect(trash).toContainText("The trash is empty.");
  await expect(page.getByText("No campaigns yet.")).toBeVisible();
});

/** Plays a typed move, pressing Retry if the scripted model fails once. */
async function playTyped(text: string) {
  const box = page.getByLabel("Your move");
  const retry = page.getByRole("button", { name: "Retry" });
  const settled = async () => (await box.inputValue()) === "" || (await retry.count()) > 0;
  await box.fill(text);
  await page.getByRole("button", { name: "Do it" }).click();
  await expect.poll(settled).toBe(true);
  if (await retry.count()) {
    await retry.click();
    await expect(box).toHaveValue("");
  }
  await expect(page.getByRole("button", { name: "Do it" })).toBeEnabled();
}

test("a long story opens at its latest page and loads older parts on demand", async () => {
  test.setTimeout(180_000);
  await page.getByPlaceholder("Mira Thorne").fill("Mira");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await hydrated();
  for (let move = 1; move <= 40 && (await storyEntries()).length <= 60; move++) {
    await playTyped(`I walk on (${move})`);
  }
  const whole = await storyEntries();
  expect(whole.length).toBeGreaterThan(60);

  await page.reload();
  await hydrated();
  const earlier = story().getByRole("button", { name: "Earlier in the story" });
  await expect(earlier).toBeVisible();
  const latest = (await storyEntries()).filter(([kind]) => kind !== "earlier");
  expect(latest.length).toBe(50);
  expect(latest).toEqual(whole.slice(-50));

  await earlier.click();
  // While the earlier scenes load the button says so (and no longer matches `earlier`): wait
  // for the whole story rather than for the button's name to change.
  await expect.poll(storyEntries).toEqual(whole);
  await expect(story().locator("button.earlier")).toHaveCount(0);
});

test("the latest turn can be undone, redone and told again", async () => {
  const before = await storyEntries();
  const lastMove = await story().locator(".move").last().textContent();

  await page.getByRole("button", { name: "Undo turn" }).click();
  await expect(story().locator(".move").last()).not.toHaveText(lastMove ?? "");
  expect((await storyEntries()).length).toBeLessThan(before.length);

  await page.getByRole("button", { name: "Redo" }).click();
  await expect(story().locator(".move").last()).toHaveText(lastMove ?? "");
  await expect(page.getByRole("button", { name: "Redo" })).toHaveCount(0);
  // The page now holds the latest page of the story again.
  const after = (await storyEntries()).filter(([kind]) => kind !== "earlier");
  expect(after.length).toBe(50);
  expect(after).toEqual(before.slice(-after.length));

  page.on("dialog", (dialog) => dialog.accept());
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByRole("button", { name: "Tell it again" }).click();
    await expect(page.getByRole("button", { name: "Tell it again" })).toBeEnabled();
    if ((await page.getByRole("alert").count()) === 0) break;
    // The scripted model's failure fell on this telling: its answer is the typed error with
    // HTTP 502 (the game master failed), which the browser logs; the next attempt tells it.
    const logged = watched.errors.filter((error) => !/status of 502 \(Bad Gateway\)$/.test(error));
    watched.errors.splice(0, watched.errors.length, ...logged);
  }
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(story().locator(".move").last()).toHaveText(lastMove ?? "");
  await expect(page.getByRole("button", { name: "Do it" })).toBeEnabled();
});

test("a scene can start a branch; a campaign can be exported and imported again", async ({}, testInfo) => {
  const longUrl = page.url();
  await story().getByRole("button", { name: "Branch from here" }).first().click();
  await expect(page).not.toHaveURL(longUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("(from turn");
  await hydrated();
  const branched = await storyEntries();

  await page.goto("/");
  await hydrated();
  const entry = page.getByTestId("campaign").filter({ hasText: "(from turn" });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    entry.getByRole("button", { name: "Export" }).click(),
  ]);
  const file = testInfo.outputPath("campaign.dicebound.json");
  await download.saveAs(file);

  await page.getByLabel("Import a campaign file").setInputFiles(file);
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await hydrated();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("(from turn");
  expect(await storyEntries()).toEqual(branched);
  await page.goto("/");
  await hydrated();
  await expect(page.getByTestId("campaign").filter({ hasText: "(from turn" })).toHaveCount(2);
});
