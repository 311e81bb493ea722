import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// Conditions with teeth, against their own scripted scenario (fixtures/teeth.json, a server of
// its own): a Fighter leans over a steaming pool and the narrator poisons them for an hour and
// starts a fight with a goblin. The character panel says what Poisoned does and how long it has
// left; the rules roll the poisoned hero's checks and attacks with disadvantage (two d20s, the
// lower kept), and the buttons say so before the player commits. The narrator's outcome table
// for the fumes is shown, then rolled, its row lit. Then a Ranger proficient in
// Stealth reaches level 4 and spends its ability score improvement in the panel.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");
const attack = () => page.getByRole("button", { name: /^Attack Goblin/ });

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

test("a check shows no edge while the hero is well", async () => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Vex");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story()).toContainText("A green pool steams");
  const sneak = page.getByRole("button", { name: /Sneak between the stalls/ });
  await expect(sneak).toContainText(/1d20[+-]\d+ vs DC 12 · \d+% to succeed$/);
});

test("a poisoned hero's attack shows disadvantage and is rolled with two d20s, the lower kept", async ({}, testInfo) => {
  // The move's stream: the game master's outcome table arrives (shown while its die rolls)
  // before the roll that picks its row. (The stream is read through the page's own route: a
  // streamed answer's body is not kept for the test otherwise.)
  let streamed = "";
  const playTurn = (url: URL) => url.pathname.includes("play_turn");
  await page.route(playTurn, async (route) => {
    const response = await route.fetch();
    streamed = await response.text();
    await route.fulfill({ response, body: streamed });
  });
  await page.getByRole("button", { name: "Lean over the steaming pool" }).click();
  await expect(story()).toContainText("The fumes burn your throat");
  await page.unroute(playTurn);
  const shown = streamed.indexOf('{"table_pending":');
  expect(shown).toBeGreaterThan(-1);
  expect(streamed.indexOf('"kind":"table"')).toBeGreaterThan(shown);

  // The table as rolled: its three rows, the d6 on its face, the row holding that face lit.
  const table = story().getByTestId("outcome-table");
  await expect(table.getByTestId("table-name")).toHaveText("What the fumes carry");
  await expect(table.getByTestId("table-row")).toHaveCount(3);
  await expect(page.getByTestId("pending-table")).toHaveCount(0);
  const die = table.getByTestId("die");
  await expect(die).toHaveAttribute("data-sides", "6");
  const face = Number(await die.textContent());
  const row = face <= 2 ? 0 : face <= 5 ? 1 : 2;
  const lit = table.locator('[data-testid="table-row"][data-chosen="true"]');
  await expect(lit).toHaveCount(1);
  await expect(lit).toContainText(["a sweet smell", "a bitter sting", "a whisper of old names"][row]);
  await expect(table.getByTestId("table-row").nth(row)).toHaveClass(/chosen/);
  await table.getByTestId("why").click();
  await expect(table.getByTestId("analysis")).toHaveText(
    "Before the roll, on the d6: a sweet smell 2 in 6 (33%), a bitter sting 3 in 6 (50%), a whisper of old names 1 in 6 (17%).",
  );
  const poisoned = page.getByTestId("character").getByText(/^Poisoned/);
  await expect(poisoned).toHaveText("Poisoned: disadvantage on checks and attacks (1 h left)");
  await expect(page.getByRole("button", { name: /Sneak between the stalls/ })).toContainText(
    /2d20kl1[+-]\d+ vs DC 12 \(disadvantage\) · \d+% to succeed$/,
  );
  await expect(attack()).toContainText(/2d20kl1\+\d+ to hit \(disadvantage\)/);
  await page.screenshot({ path: testInfo.outputPath("poisoned.png"), fullPage: true });
  await expectAccessible(page, "the play screen with an outcome table and a poisoned hero");

  // The game master's 2d6: two six-sided dice, landed on the faces the line gives.
  const sting = story().getByTestId("roll").filter({ hasText: "The fumes' sting" });
  const faces = (await sting.textContent())!.match(/\[(\d+), (\d+)\]/)!.slice(1);
  await expect(sting.getByTestId("die")).toHaveCount(2);
  await expect(sting.getByTestId("die")).toHaveText(faces);
  for (const die of await sting.getByTestId("die").all()) {
    await expect(die).toHaveAttribute("data-sides", "6");
  }

  await attack().click();
  await expect(story()).toContainText("You swing through the green haze.");
  const swing = story().getByTestId("roll").filter({ hasText: /^.*Your .* at Goblin/ }).first();
  await expect(swing).toContainText(/2d20kl1\+\d+ → \[/);
  // Disadvantage shows both d20s, the higher one dropped.
  await expect(swing.getByTestId("die")).toHaveCount(2);
  await expect(swing.locator('[data-testid="die"][data-sides="20"]')).toHaveCount(2);
  await expect(swing.locator('[data-testid="die"].dropped')).toHaveCount(1);
});

// Levels that mean something: a Ranger made proficient in Stealth adds the level's proficiency
// bonus to a Stealth check; three awards bring level 4, whose ability score improvement the
// player spends in the panel, and the next action's modifier shows it.
test("proficiency chosen at creation and a level-up's improvement change the next action's modifier", async ({}, testInfo) => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Lyra");
  const skills = page.getByTestId("skills");
  await skills.getByLabel("Animal Handling (WIS)").uncheck();
  await skills.getByLabel("Stealth (DEX)").check();
  await expect(page.getByTestId("skill-verdict")).toHaveText(
    /^Proficient in Athletics, Insight, Stealth, and in STR and DEX saving throws/,
  );
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story()).toContainText("Dust hangs in the Drowned Archive");
  const panel = page.getByTestId("character");
  await expect(panel.getByTestId("proficiency")).toHaveText(
    "Proficiency +2: Athletics +3, Insight +4, Stealth +4; saves STR +3, DEX +4",
  );
  const sneak = () => page.getByRole("button", { name: /Sneak between the stalls/ });
  // DEX 15 (+2) and proficiency +2.
  // The rules' chance: 8 or more on the d20, 13 faces of 20.
  await expect(sneak()).toContainText(/1d20\+4 vs DC 12 · 65% to succeed$/);

  await page.getByRole("button", { name: "Lean over the steaming pool" }).click();
  await expect(story()).toContainText("the archive's old lessons settle into you");
  await expect(panel).toContainText("Level 4 Ranger");
  const improvement = panel.getByTestId("improvement");
  await expect(improvement).toContainText("Ability score improvement");
  await improvement.getByTestId("improve-first").selectOption("DEX");
  await page.screenshot({ path: testInfo.outputPath("improvement.png"), fullPage: true });
  await expectAccessible(page, "the ability score improvement");
  await improvement.getByRole("button", { name: "Improve" }).click();

  // DEX 17 (+3): the same action now adds 5, and the improvement is spent.
  await expect(sneak()).toContainText(/1d20\+5 vs DC 12 · 70% to succeed$/);
  await expect(improvement).toHaveCount(0);
  await expect(panel.getByTestId("proficiency")).toContainText("Stealth +5");
  await expect(panel.getByTestId("proficiency")).toContainText("DEX +5");

  // The check played: "Why?" says why this difficulty, the edge and the rules' chance.
  await sneak().click();
  const check = story().getByTestId("roll").filter({ hasText: "for Stealth" }).last();
  await check.getByTestId("why").click();
  await expect(check.getByTestId("analysis")).toHaveText(
    "DC 12 for Stealth: between easy (10) and medium (15). Your edge: DEX +3, proficiency +2. " +
      "Before the roll: 70% to succeed. 1d20+5 vs DC 12 needs 7 or more on the d20.",
  );
});
