import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// Game depth against its own scripted scenario (fixtures/depth.json, a server of its own): a
// Rogue with chosen scores; a typed move the game master answers with a check; an oracle
// question and an out-of-character word; a place on the map; an NPC attack that downs the character; a death save;
// armour taken off and put on (the armour class follows); an item dropped from the panel; the ledger with each change and its cause.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

async function move(text: string) {
  await page.getByLabel("Your move").fill(text);
  await page.getByRole("button", { name: "Do it" }).click();
  await expect(story().locator(".move").last()).toHaveText(text);
  await expect(page.getByRole("button", { name: "Do it" })).toBeEnabled();
}

test("a Rogue is created with the scores the player chose", async ({}, testInfo) => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Vex");
  await page.getByTestId("class").fill("Rogue");
  await page.getByTestId("class").dispatchEvent("change");
  await expect(page.getByTestId("class-info")).toContainText("Rogue: hit die d8");
  // The suggestion first, then the player's own arrangement; the rules check it as it is typed.
  await expect(page.getByTestId("score-DEX")).toHaveValue("15");
  await page.getByTestId("score-CON").fill("15");
  await expect(page.getByTestId("score-verdict")).toHaveText("The standard array is 15, 14, 13, 12, 10 and 8, each used once.");
  for (const [name, value] of [["STR", "8"], ["DEX", "15"], ["CON", "14"], ["INT", "13"], ["WIS", "12"], ["CHA", "10"]]) {
    await page.getByTestId(`score-${name}`).fill(value);
  }
  await expect(page.getByTestId("score-verdict")).toHaveText("The standard array, each score used once.");
  await page.screenshot({ path: testInfo.outputPath("creation.png"), fullPage: true });
  await expectAccessible(page, "the play screen after creation");
  await page.getByRole("button", { name: "Begin the adventure" }).click();

  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(story()).toContainText("You crouch on the wet rooftops");
  // d8 + CON 14 (+2) = 10 HP; the Rogue's gear and abilities.
  await expect(page.getByTestId("hp")).toHaveText("HP 10/10");
  // Class features are in their own panel, whose code is fetched when it first opens.
  await page.getByTestId("powers-panel").getByText("Spells, features and rests").click();
  await expect(page.getByTestId("powers")).toContainText("Sneak Attack");
  await expect(page.getByTestId("inventory")).toContainText("Thieves' tools");
  const hide = page.getByRole("button", { name: /Hide behind the great bell/ });
  await expect(hide).toContainText("1d20+2 vs DC 12");
  // What rides on the roll is shown before the player commits.
  await expect(hide.getByTestId("stakes")).toHaveText("✓ The thug walks past the bell✗ The thug hears you breathe");
});

test("the armour class comes from the sheet, and armour is taken off and put on from the panel", async () => {
  // Leather armour: 11 + DEX 15 (+2).
  await expect(page.getByTestId("ac")).toHaveText("AC 13");
  await expect(page.getByTestId("equipped-leather-armor")).toBeVisible();
  await page.getByTestId("equip-leather-armor").click();
  await expect(page.getByTestId("ac")).toHaveText("AC 12");
  await expect(page.getByTestId("equipped-leather-armor")).toHaveCount(0);
  await page.getByTestId("equip-leather-armor").click();
  await expect(page.getByTestId("ac")).toHaveText("AC 13");
  await expect(page.getByTestId("equipped-leather-armor")).toBeVisible();
});

test("a typed move that calls for a check is rolled as the player's, with the sheet's modifier", async () => {
  await move("I climb the bell tower");
  const roll = story().getByTestId("roll").last();
  await expect(roll).toContainText("Your roll");
  await expect(roll).toContainText(/Rolled 1d20\+2 for Climb the bell tower \(DEX \+2\).* vs DC 2: success/);
  await expect(story()).toContainText("you haul yourself up to the bell");
});

test("the places the game master records make the map, with where you are", async () => {
  const map = page.getByTestId("map");
  // The map is a panel whose code is fetched when it first opens.
  await map.getByText("Where you are").click();
  await expect(map.locator("svg[role=img]")).toHaveAttribute(
    "aria-label",
    "Map: you are at The bell tower. Known places: The bell tower (visited), The square (not yet visited), The bell-ringer's room (not yet visited).",
  );
  await expect(map.locator("g.place.here text.name")).toHaveText("The bell tower");
  await expect(map.locator("g.place.here title")).toHaveText("The bell tower (you are here, visited). Leads to The square, The bell-ringer's room.");
  await expect(map.locator("g.place.unvisited text.name")).toHaveText(["The square", "The bell-ringer…"]);
  await expect(map.getByTestId("travel")).toHaveText(["Travel to The square", "Travel to The bell-ringer's room"]);
});

test("an oracle question is answered by d100 and an aside is shown apart from the story", async () => {
  await move("I look for the bell-ringer");
  await expect(story().getByTestId("roll").last().getByTestId("roll-line")).toContainText(/Oracle: Is the bell-ringer home\? \(unlikely, 25%\) d100 \[\d+\]: (yes, and|yes|no, but|no)$/);
  const oracle = story().getByTestId("roll").last();
  await oracle.getByTestId("why").click();
  await expect(oracle.getByTestId("analysis")).toHaveText(
    'Before the roll: unlikely, so a yes on 1 to 25 of the d100 (25%): "yes, and" on 1 to 5, "no, but" on 26 to 40.',
  );
  await expect(story().getByTestId("aside").last()).toContainText("The oracle settles what the story has not");
  await expect(story().locator(".scene").last()).not.toContainText("oracle settles");
});

test("damage is the rules' number: the model's 20 is refused, a deadly hazard downs the character, who then rolls a death save", async ({}, testInfo) => {
  await move("I creep down the stairs");
  // The model rolls 1d8+2 and claims 20 damage: refused. Its deadly hazard is rolled by the
  // rules: 4d10 at level 1 (the SRD's damage severity), which this seed makes at least 10.
  await expect(story().getByTestId("roll").nth(-2)).toContainText("Game master Rolled 1d8+2 for Thug's club");
  await expect(story().getByTestId("roll").last()).toContainText(
    /Hazard \(deadly: The rotten bell-floor\): 4d10 \[\d+, \d+, \d+, \d+\] = \d+: \d+ damage/,
  );
  await expect(page.getByTestId("hp")).toHaveText("HP 0/10");
  await expect(page.getByTestId("vitality")).toHaveText("Down (0 ✓, 0 ✗)");
  // Whatever the move, its roll is now the death save: every button says so.
  await expect(page.getByRole("button", { name: /Listen at the bell-ringer's door/ })).toContainText(
    /1d20 death save vs DC 10 · 55% to succeed$/,
  );
  await expect(page.getByRole("button", { name: /Hide behind the great bell/ })).toContainText(
    "1d20 death save vs DC 10 · 55% to succeed",
  );

  await move("I try to crawl away");
  await expect(story().getByTestId("roll").last()).toContainText(/Your roll Rolled 1d20 for Death save: \[\d+\] = \d+ vs DC 10: (success|failure)/);
  await expect(page.getByTestId("vitality")).toHaveText(/Down \(1 ✓, 0 ✗\)|Down \(0 ✓, [12] ✗\)|On your feet/);
  await page.screenshot({ path: testInfo.outputPath("down.png"), fullPage: true });
});

test("an item dropped from the panel leaves the sheet by the rules", async () => {
  await expect(page.getByTestId("inventory")).toContainText("Dagger");
  await page.getByTestId("drop-dagger").click();
  await expect(story().locator(".chip").last()).toHaveText("− Dagger");
  await expect(page.getByTestId("inventory")).not.toContainText("Dagger");
});

test("the ledger lists each change with its cause, and each roll", async ({}, testInfo) => {
  await page.getByTestId("ledger").locator("summary").click();
  const ledger = page.getByTestId("ledger");
  await expect(ledger.locator("tr", { hasText: "HP: 10 → 0" })).toContainText('hazard({"what":"The rotten bell-floor"');
  await expect(ledger.locator("tr", { hasText: "State: On your feet → Down (0 ✓, 0 ✗)" })).toContainText("hazard");
  await expect(ledger.locator("tr", { hasText: "Hazard (deadly): The rotten bell-floor" })).toContainText(/4d10 \[\d+, \d+, \d+, \d+\]/);
  await expect(ledger).not.toContainText('update_character({"hpChange":-20})');
  await expect(ledger.locator("tr", { hasText: "Dagger: 2 → 0" })).toContainText("Dropped from the character panel");
  await expect(ledger.locator("tr", { hasText: "Player check: Climb the bell tower" })).toContainText(/1d20\+2 \[\d+\] \+2 = \d+ vs 2: success/);
  await expect(ledger.locator("tr", { hasText: "Oracle: Is the bell-ringer home?" })).toContainText(/1d100 \[\d+\]/);
  await expect(ledger.locator("tr", { hasText: "Map: The bell tower" })).toContainText("record_place");
  await expect(ledger.locator("tr", { hasText: "Player: Death save" })).toContainText(/1d20 \[\d+\] \+0 = \d+ vs 10/);
  await expect(ledger.locator("tr", { hasText: "Game master: Thug's club" })).toContainText(/1d8\+2/);
  await page.screenshot({ path: testInfo.outputPath("ledger.png"), fullPage: true });
  await expectAccessible(page, "the ledger");
});
