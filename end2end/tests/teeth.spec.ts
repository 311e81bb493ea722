import { test, expect, type Page } from "@playwright/test";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// Conditions with teeth, against their own scripted scenario (fixtures/teeth.json, a server of
// its own): a Fighter leans over a steaming pool and the narrator poisons them for an hour and
// starts a fight with a goblin. The character panel says what Poisoned does and how long it has
// left; the rules roll the poisoned hero's checks and attacks with disadvantage (two d20s, the
// lower kept), and the buttons say so before the player commits.
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
  await expect(sneak).toContainText(/1d20[+-]\d+ vs DC 12$/);
});

test("a poisoned hero's attack shows disadvantage and is rolled with two d20s, the lower kept", async ({}, testInfo) => {
  await page.getByRole("button", { name: "Lean over the steaming pool" }).click();
  await expect(story()).toContainText("The fumes burn your throat");
  const poisoned = page.getByTestId("character").getByText(/^Poisoned/);
  await expect(poisoned).toHaveText("Poisoned: disadvantage on checks and attacks (1 h left)");
  await expect(page.getByRole("button", { name: /Sneak between the stalls/ })).toContainText(
    /2d20kl1[+-]\d+ vs DC 12 \(disadvantage\)$/,
  );
  await expect(attack()).toContainText(/2d20kl1\+\d+ to hit \(disadvantage\)/);
  await page.screenshot({ path: testInfo.outputPath("poisoned.png"), fullPage: true });

  await attack().click();
  await expect(story()).toContainText("You swing through the green haze.");
  const swing = story().getByTestId("roll").filter({ hasText: /^.*Your .* at Goblin/ }).first();
  await expect(swing).toContainText(/2d20kl1\+\d+ → \[/);
});
