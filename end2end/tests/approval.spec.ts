import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, hitPoints, openWatched, type Watched } from "./support/watched";

// Approval mode against its own scripted scenario (fixtures/approval.json, a server of its own):
// the game master's goblin cuts the hero for 4 and drops a dagger, but in this campaign both
// changes wait for the player. They refuse the dagger and accept the damage; the sheet and the
// ledger show exactly that, after a reload too, and the next move is played.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");
const proposals = () => page.getByTestId("proposals");

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

test("the game master's damage and item wait for the player; a refused item never arrives", async ({}, testInfo) => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Wren");
  await page.getByTestId("approval-mode").check();
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(page.getByTestId("approval-switch")).toBeChecked();
  const [full, max] = await hitPoints(page);
  expect(full).toBe(max);

  await page.getByRole("button", { name: "Follow the goblin into the alley" }).click();
  await expect(story()).toContainText("The goblin's blade opens your arm");
  // Proposed, not applied: both wait with what led to them, and no move can be made.
  await expect(proposals().getByTestId("proposal")).toHaveCount(2);
  await expect(proposals().getByTestId("proposal").first()).toContainText("−4 HP");
  await expect(proposals().getByTestId("proposal").first()).toContainText("Goblin scimitar");
  await expect(proposals().getByTestId("proposal").nth(1)).toContainText("+ Dagger");
  await expect(proposals().getByTestId("proposal").nth(1)).not.toContainText("Goblin scimitar");
  expect(await hitPoints(page)).toEqual([full, max]);
  await expect(page.getByTestId("inventory")).not.toContainText("Dagger");
  await expect(page.getByRole("button", { name: "Wait under the eaves" })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath("proposals.png"), fullPage: true });
  await expectAccessible(page, "the play screen with proposals waiting");

  await proposals().getByTestId("proposal").nth(1).getByTestId("refuse").click();
  await expect(proposals().getByTestId("proposal")).toHaveCount(1);
  await proposals().getByTestId("accept").click();
  await expect(proposals()).toHaveCount(0);
  await expect(page.getByTestId("refused")).toContainText("What you refused did not happen.");
  await expect(page.getByTestId("tell-again")).toBeVisible();
  expect(await hitPoints(page)).toEqual([full - 4, max]);
  await expect(story().getByTestId("decision")).toHaveText(["You refused:+ Dagger", "You accepted:−4 HP"]);

  // After a reload: the same sheet, and the ledger says who decided.
  await page.reload();
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  expect(await hitPoints(page)).toEqual([full - 4, max]);
  await expect(page.getByTestId("inventory")).not.toContainText("Dagger");
  await page.getByTestId("ledger").locator("summary").click();
  const ledger = page.getByTestId("ledger");
  await expect(ledger.locator("tr", { hasText: "+ Dagger: proposed → refused" })).toContainText(
    "Refused by the player: add_inventory",
  );
  await expect(ledger.locator("tr", { hasText: `HP: ${full} → ${full - 4}` })).toContainText(
    "Accepted by the player: update_character",
  );
  await page.screenshot({ path: testInfo.outputPath("ledger.png"), fullPage: true });
  await expectAccessible(page, "the ledger");

  // The story goes on.
  await page.getByRole("button", { name: "Wait under the eaves" }).click();
  await expect(story()).toContainText("The alley is quiet now");
});
