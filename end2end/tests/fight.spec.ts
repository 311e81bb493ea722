import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, hitPoints, openWatched, type Watched } from "./support/watched";

// A whole fight, by the rules, against its own scripted scenario (fixtures/fight.json, a server
// of its own). Its dice_seed fixes every die, so the fight always goes the same way: a Rogue
// (9 HP, AC 13) opens the cellar door and the narrator starts a fight with a goblin (AC 15,
// 7 HP); the Rogue wins initiative (19 against 3), attacks and misses on a natural 1, and the
// goblin's scimitar hits for 7 (HP 9 → 2); the healing potion from the character panel heals 4
// (2 → 6) and takes the turn, the goblin swinging and missing; the next attack hits for 7 and the
// goblin is down: the fight is over after 3 rounds, 50 XP.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");
const tracker = () => page.getByTestId("encounter");
const fighter = (name: string) =>
  tracker().getByTestId("fighter").filter({ has: page.getByTestId("fighter-name").getByText(name, { exact: true }) });
const attack = () => page.getByRole("button", { name: /^Attack Goblin with your shortsword/ });

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

test("a Rogue opens the cellar door and the narrator starts a fight: the tracker shows the initiative order", async () => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Vex");
  await page.getByTestId("class").fill("Rogue");
  await page.getByTestId("class").dispatchEvent("change");
  await expect(page.getByTestId("class-info")).toContainText("Rogue: hit die d8");
  await page.getByRole("button", { name: "Begin the adventure" }).click();

  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story()).toContainText("Behind the cellar door something scratches");
  await expect(page.getByTestId("hp")).toHaveText("HP 9/9");
  await expect(page.getByTestId("ac")).toHaveText("AC 13");
  await expect(page.getByTestId("inventory")).toContainText("Healing potion");
  await expect(tracker()).toHaveCount(0);

  await page.getByRole("button", { name: "Open the cellar door" }).click();
  await expect(story().getByTestId("roll").last()).toHaveText(/Initiative: you 19, Goblin 3$/);
  await expect(story()).toContainText("a goblin spills out of the dark");
  await expect(tracker()).toBeVisible();
  await expect(tracker().getByTestId("round")).toHaveText("Round 1");
  // Highest initiative first; between moves it is always the hero's turn.
  await expect(tracker().getByTestId("fighter-name")).toHaveText(["You", "Goblin"]);
  await expect(tracker().getByTestId("initiative")).toHaveText(["19", "3"]);
  await expect(tracker().getByTestId("fighter-ac")).toHaveText(["AC 13", "AC 15"]);
  await expect(tracker().getByTestId("fighter-hp")).toHaveText(["9/9 HP", "7/7 HP"]);
  await expect(tracker().getByTestId("turn-mark")).toHaveCount(1);
  await expect(fighter("You")).toHaveAttribute("aria-current", "true");
  await expect(fighter("You").getByTestId("turn-mark")).toHaveText("your turn");
  await expect(fighter("Goblin").getByTestId("tag")).toHaveCount(0);

  // The rules' fight moves lead the action bar.
  await settled();
  await expect(attack()).toBeVisible();
  // +4 to hit against AC 15: 11 or more on the d20, the rules' arithmetic.
  await expect(attack().getByTestId("chance")).toHaveText(/50% to succeed$/);
  await expect(page.getByRole("button", { name: "Dodge: make every attack on you harder" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Try to get away" })).toBeVisible();
  // A healing potion is no move at full hit points.
});

test("the attack misses the goblin's armour class, and the goblin's hit takes the hero's HP", async ({}, testInfo) => {
  await attack().click();
  const mine = story().getByTestId("roll").filter({ hasText: /your shortsword at Goblin/i }).last();
  await expect(mine).toContainText("Your roll");
  await expect(mine).toContainText(/1d20\+4 → \[1\]\+4 = 5 vs AC 15, miss \(natural 1\)/);
  // What the rules knew before the roll opens beside it.
  await expect(mine.getByTestId("analysis")).toBeHidden();
  await mine.getByTestId("why").click();
  await expect(mine.getByTestId("analysis")).toHaveText(
    "Before the roll: 50% to hit. 1d20+4 vs AC 15 needs 11 or more on the d20; a natural 20 always hits, a natural 1 always misses.",
  );
  // What the roll had to beat stands out in the line.
  await expect(mine.getByTestId("against")).toHaveText("vs AC 15");
  await expect(mine).toHaveClass(/failure/);
  const theirs = story().getByTestId("roll").filter({ hasText: "Goblin's scimitar" }).last();
  await expect(theirs.getByTestId("roll-line")).toContainText(/vs AC 13, hit, 7 slashing$/);
  await expect(theirs.getByTestId("against")).toHaveText("vs AC 13");
  await expect(story().locator(".chip").last()).toHaveText("−7 HP");
  await settled();

  await expect(page.getByTestId("hp")).toHaveText("HP 2/9");
  await expect(tracker().getByTestId("round")).toHaveText("Round 2");
  await expect(fighter("You").getByTestId("fighter-hp")).toHaveText("2/9 HP");
  const bar = fighter("You").getByTestId("fighter-hp-bar");
  await expect(bar).toHaveAttribute("value", "2");
  await expect(bar).toHaveAttribute("max", "9");
  await expect(bar).toHaveAccessibleName("You: hit points");
  // Hurt, the hero may now drink the potion as a fight move too.
  await expect(page.getByRole("button", { name: "Use your healing potion" })).toBeVisible();
  await expect(fighter("Goblin").getByTestId("fighter-hp")).toHaveText("7/7 HP");
  await tracker().screenshot({ path: testInfo.outputPath("tracker.png") });
  await page.screenshot({ path: testInfo.outputPath("fight.png"), fullPage: true });
  await expectAccessible(page, "the fight tracker");

  // On a narrow screen the tracker still fits.
  await page.setViewportSize({ width: 360, height: 740 });
  const box = await tracker().boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  await tracker().screenshot({ path: testInfo.outputPath("tracker-narrow.png") });
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("the potion from the character panel heals by its rolled amount and takes the turn", async () => {
  const [before] = await hitPoints(page);
  await page.getByTestId("use-healing-potion").click();
  await expect(story().locator(".chip", { hasText: /^\+\d+ HP$/ }).last()).toHaveText("+4 HP");
  const healed = Number((await story().locator(".chip", { hasText: /^\+\d+ HP$/ }).last().textContent())!.match(/\d+/)![0]);
  // The goblin takes its turn, and misses.
  const theirs = story().getByTestId("roll").filter({ hasText: "Goblin's scimitar" }).last();
  await expect(theirs.getByTestId("roll-line")).toContainText(/vs AC 13, miss$/);
  await expect(page.getByTestId("hp")).toHaveText("HP 6/9");
  expect((await hitPoints(page))[0]).toBe(before + healed);
  await expect(fighter("You").getByTestId("fighter-hp")).toHaveText("6/9 HP");
  await expect(tracker().getByTestId("round")).toHaveText("Round 3");
  await expect(page.getByTestId("inventory")).not.toContainText("Healing potion");
});

test("the last foe falls: the experience is awarded and the tracker goes", async () => {
  await attack().click();
  const mine = story().getByTestId("roll").filter({ hasText: /your shortsword at Goblin/i }).last();
  await expect(mine.getByTestId("roll-line")).toContainText(/vs AC 15, hit, 7 piercing; Goblin is down$/);
  await expect(mine).toHaveClass(/success/);
  await expect(story().locator(".chip", { hasText: "The fight is over" })).toHaveText(
    "The fight is over after 3 rounds: every foe is down. Defeated: Goblin (50 XP).",
  );
  await expect(story().locator(".chip").last()).toHaveText("+50 XP");
  await expect(page.getByTestId("xp")).toHaveText("XP 50 / 300 for level 2");
  await expect(story()).toContainText("the cellar falls quiet but for the rain");
  await expect(tracker()).toHaveCount(0);
  await settled();
  await expect(page.getByRole("button", { name: /^Attack Goblin/ })).toHaveCount(0);
  await expect(page.getByTestId("hp")).toHaveText("HP 6/9");
});

test("the ledger lists every roll of the fight with the armour class it faced", async ({}, testInfo) => {
  await page.getByTestId("ledger").locator("summary").click();
  const ledger = page.getByTestId("ledger");
  const row = (cause: string | RegExp) => ledger.locator("tr", { hasText: cause });
  await expect(row("Initiative: You")).toContainText("1d20+2 [17] +2 = 19");
  await expect(row("Initiative: Goblin")).toContainText("1d20+2 [1] +2 = 3");
  await expect(row(/Attack: your shortsword at Goblin/i)).toContainText([
    "1d20+4 [1] +4 = 5 vs 15: miss",
    "1d20+4 [16] +4 = 20 vs 15: hit",
  ]);
  await expect(row("Attack: Goblin's scimitar at you")).toContainText([
    "1d20+4 [9] +4 = 13 vs 13: hit",
    "1d20+4 [8] +4 = 12 vs 13: miss",
  ]);
  await expect(row("Damage (slashing): Goblin's scimitar at you")).toContainText("1d6+2 [5] +2 = 7");
  await expect(row(/Damage \(piercing\): your shortsword at Goblin/i)).toContainText("1d6+2 [5] +2 = 7");
  await expect(row("HP: 9 → 2")).toContainText("Rules: the fight");
  // The potion's roll, and the hit points it gave: the same 4.
  await expect(row("2d4+2")).toContainText("2d4+2 [1, 1] +2 = 4");
  await expect(row("HP: 2 → 6")).toContainText("Used from the character panel");
  await expect(row("XP: 0 → 50")).toContainText("Rules: the fight");
  await page.screenshot({ path: testInfo.outputPath("ledger.png"), fullPage: true });
  await expectAccessible(page, "the ledger after a fight");
});
