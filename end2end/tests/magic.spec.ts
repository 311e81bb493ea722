import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, hitPoints, openWatched, type Watched } from "./support/watched";

// Spells, class features and rests by the rules, against their own scripted scenario
// (fixtures/magic.json, a server of its own, seeded dice). A Wizard reads the runes (level 2:
// three 1st-level slots, two hit dice) and opens a vault: two kobolds. Magic Missile from the
// action bar (its darts never miss), then Sleep and Magic Missile again from the character panel;
// the last slot spent, the cast buttons grey and a typed cast is refused by the rules. A short
// rest, two hit dice spent one roll each, and a long rest that brings the slots back. A Cleric
// hurt by falling masonry heals with Cure Wounds from the panel, then burns a skeleton with Sacred
// Flame (its DEX save rolled by the rules); a Rogue hides with Cunning Action and Sneak Attack
// rides its hit. The ledger lists every cast, slot, save and roll.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");
const slots = (level: number) => page.getByTestId(`slots-${level}`);
const typed = () => page.getByPlaceholder("…or do something else");

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

/** Starts a new adventure with a hero of `name` and `klass`, and opens the panel of their spells,
 * features and rests (its code is fetched then). */
async function begin(name: string, klass: string) {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill(name);
  await page.getByTestId("class").fill(klass);
  await page.getByTestId("class").dispatchEvent("change");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await settled();
  await page.getByTestId("powers-panel").getByText("Spells, features and rests").click();
  await expect(page.getByTestId("powers")).toBeVisible();
}

/** A refusal by the rules is an error answer (HTTP 422), which the browser may log as a failed
 * resource: nothing else may have been logged. Clears them. */
function refusedOnly() {
  for (const error of watched.errors) {
    expect(error).toMatch(/^Failed to load resource: the server responded with a status of 422/);
  }
  watched.errors.length = 0;
}

test("a Wizard's spells are the rules': the casting figures, slots by level, the spells known", async () => {
  await begin("Ilsa", "Wizard");
  // INT 15 (+2) and proficiency +2.
  await expect(page.getByTestId("casting")).toHaveText("INT: spell attack +4, save DC 12");
  await expect(slots(1)).toHaveText("1st ●●");
  await expect(page.getByTestId("cast-magic-missile")).toBeEnabled();
  await expect(page.getByTestId("cast-fireball")).toHaveCount(0);
  await expect(page.getByTestId("feature-arcaneRecovery")).toContainText("Arcane Recovery ●");
  await expectAccessible(page, "the spells and powers panel");
  await page.getByRole("button", { name: "Read the warding runes" }).click();
  await settled();
  // Level 2: a third 1st-level slot, a second hit die and a spell learned.
  await expect(page.getByTestId("xp")).toContainText("XP 300");
  await expect(slots(1)).toHaveText("1st ●●●");
  await expect(story()).toContainText("Learned: Thunderwave");
});

test("in a fight the action bar offers the spells, and Magic Missile's darts land without a roll", async () => {
  await page.getByRole("button", { name: "Open the vault door" }).click();
  await settled();
  const missile = page.getByRole("button", { name: "Cast Magic Missile at Kobold 1 (1st-level slot, 3 left; sure to land)" });
  await expect(missile).toBeVisible();
  // A spell attack shows the rules' chance against the foe's armour class.
  await expect(page.getByRole("button", { name: /^Cast Fire Bolt at Kobold 1 \(cantrip; \d+% to hit\)$/ })).toBeVisible();
  await missile.click();
  await settled();
  await expect(story()).toContainText("You cast Magic Missile with a 1st-level slot");
  await expect(story()).toContainText("Magic Missile hits Kobold 1: 1d4+1 → [4] = 5 force; Kobold 1 is down");
  await expect(slots(1)).toHaveText("1st ●●○");
  await expect(page.getByTestId("hp")).toHaveText("HP 8/14");
});

test("Sleep and Magic Missile from the panel spend the last slots; the buttons grey and a typed cast is refused", async () => {
  await page.getByTestId("cast-sleep").click();
  await expect(slots(1)).toHaveText("1st ●○○");
  await expect(story()).toContainText("Sleep: 5d8 → [6, 2, 1, 6, 2] = 17 hit points of foes");
  await expect(story()).toContainText("Sleep hits Kobold 2; Kobold 2 is unconscious");
  await expect(story()).toContainText("Kobold 2 is unconscious and loses its turn");
  await page.getByTestId("cast-magic-missile").click();
  await expect(slots(1)).toHaveText("1st ○○○");
  await expect(story()).toContainText("The fight is over after 3 rounds: every foe is down.");
  await expect(page.getByTestId("cast-magic-missile")).toBeDisabled();
  await expect(page.getByTestId("cast-magic-missile")).toHaveAttribute("title", "No 1st-level slot left");
  await expect(page.getByTestId("cast-sleep")).toBeDisabled();
  // A cantrip spends no slot.
  await expect(page.getByTestId("cast-fire-bolt")).toBeEnabled();
  await typed().fill("I cast magic missile at the door");
  await page.getByRole("button", { name: "Do it" }).click();
  await expect(page.getByRole("alert")).toContainText("No 1st-level slot left; nothing was spent");
  // The typed words stay for the player, and nothing was spent.
  await expect(typed()).toHaveValue("I cast magic missile at the door");
  await expect(slots(1)).toHaveText("1st ○○○");
  refusedOnly();
});

test("a short rest, two hit dice spent one at a time and each rolled by the server; a long rest brings the slots back", async ({}, testInfo) => {
  await typed().fill("");
  expect(await hitPoints(page)).toEqual([8, 14]);
  await page.getByTestId("short-rest").click();
  await expect(page.getByTestId("spend-hit-die")).toHaveText("Spend a hit die (2 left)");
  await page.getByTestId("spend-hit-die").click();
  await expect(page.getByTestId("spend-hit-die")).toHaveText("Spend a hit die (1 left)");
  await page.getByTestId("spend-hit-die").click();
  await expect(page.getByTestId("spend-hit-die")).toHaveCount(0);
  // Two rolls, one a die: 1d6 + CON 2 each, the hit points never past the maximum.
  await expect(story().getByText("Rolled 1d6+2 for a hit die (CON +2): [6] + 2 = 8")).toHaveCount(2);
  expect(await hitPoints(page)).toEqual([14, 14]);
  await expect(page.getByRole("button", { name: "Long rest" })).toBeEnabled();
  await page.getByTestId("long-rest").click();
  await expect(slots(1)).toHaveText("1st ●●●");
  await page.screenshot({ path: testInfo.outputPath("rested.png"), fullPage: true });
  await expectAccessible(page, "the powers after a rest");
  await page.getByTestId("long-rest").click();
  await expect(page.getByRole("alert")).toContainText("rest: You had a long rest less than a day ago");
  refusedOnly();
});

test("the ledger lists every cast, slot and roll with the rules as their cause", async () => {
  await page.getByText("Ledger", { exact: true }).click();
  const ledger = page.getByTestId("ledger");
  await expect(ledger).toContainText("Rules: you cast Magic Missile (1st-level slot) in the fight");
  await expect(ledger).toContainText("Rules: you cast Sleep (1st-level slot) in the fight");
  await expect(ledger).toContainText("1st-level slots: 3 → 2");
  await expect(ledger).toContainText("1st-level slots: 0 → 3");
  await expect(ledger).toContainText("Damage (force): Magic Missile at Kobold 1");
  await expect(ledger).toContainText("Sleep: hit points of foes");
  await expect(ledger).toContainText("Rules: Hit die spent after a short rest");
  await expect(ledger).toContainText("Rest called from the character panel: a long rest");
});

test("a Cleric hurt by falling masonry heals with Cure Wounds from the panel, then Sacred Flame makes a skeleton save", async () => {
  await begin("Aldous", "Cleric");
  await page.getByRole("button", { name: "Search the collapsed shrine" }).click();
  await settled();
  expect(await hitPoints(page)).toEqual([6, 10]);
  await page.getByTestId("cast-cure-wounds").click();
  await expect(slots(1)).toHaveText("1st ●○");
  // 1d8 + WIS 2, by the rules; the hit points stop at the maximum.
  await expect(story()).toContainText("Rolled 1d8+2 for Cure Wounds: [4] + 2 = 6");
  expect(await hitPoints(page)).toEqual([10, 10]);
  await page.getByRole("button", { name: "Pray at the broken altar" }).click();
  await settled();
  const flame = page.getByRole("button", { name: /^Cast Sacred Flame at Skeleton \(cantrip; Skeleton fails its DEX save on \d+%\)$/ });
  await flame.click();
  await settled();
  await expect(story()).toContainText(/Skeleton saves: 1d20\+2 → \[\d+\] = \d+ vs DC 12, (success|failure)/);
  await page.getByText("Ledger", { exact: true }).click();
  await expect(page.getByTestId("ledger")).toContainText("Save: Skeleton");
  await expect(page.getByTestId("ledger")).toContainText("Cast from the character panel: Cure Wounds (1st-level slot)");
});

test("a Rogue hides with Cunning Action and Sneak Attack rides one hit", async () => {
  await begin("Vex", "Rogue");
  await page.getByRole("button", { name: "Pick the lock of the old strongbox" }).click();
  await settled();
  await page.getByRole("button", { name: "Open the cellar door" }).click();
  await settled();
  await page.getByRole("button", { name: "Hide (Cunning Action), then strike Goblin with advantage if unseen (Sneak Attack)" }).click();
  await settled();
  await expect(story()).toContainText("Rolled 1d20+2 for Hide (Cunning Action) (DEX +2): [16] + 2 = 18 vs DC 9: success");
  // Advantage from hiding; the sneak attack's 1d6 is the hit's second part, once.
  await expect(story()).toContainText("Your shortsword at Goblin: 2d20kh1+4 → [~4~, 17]+4 = 21 vs AC 15, hit, 8 piercing + 5 piercing; Goblin is down");
  await expect(story().getByText("Sneak Attack: +1d6 on that hit")).toHaveCount(1);
  await expect(story()).toContainText("The fight is over after 1 round: every foe is down.");
});
