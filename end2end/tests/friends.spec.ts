import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// A table of friends against its own scripted scenario (fixtures/friends.json, a server of its
// own, seeded dice), with two browser contexts: two players, two cookies. The host starts with
// a companion, invites a friend, who joins with a hero of their own. Three rounds: each waits
// for both players and is told once, both screens following it live; the second starts a fight
// in which both heroes and the companion take their places in the initiative order; in the
// third both heroes strike on their own turns.
test.describe.configure({ mode: "serial" });

let host: Watched;
let friend: Watched;
const story = (page: Page) => page.getByTestId("story");
const tracker = (page: Page) => page.getByTestId("encounter");

test.beforeAll(async ({ browser }) => {
  host = await openWatched(browser);
  friend = await openWatched(browser);
});

test.afterAll(async () => {
  await closeWatched(host);
  await closeWatched(friend);
});

/** Waits until the page's turn is over and its actions are back. */
async function settled(page: Page) {
  await expect(page.getByRole("button", { name: "Do it" })).toBeEnabled();
  await expect(page.locator("button.action").first()).toBeEnabled();
}

test("the host starts with a companion and invites a friend, who takes a seat", async () => {
  const page = host.page;
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Aria");
  await page.getByTestId("class").fill("Fighter");
  await page.getByTestId("class").dispatchEvent("change");
  await page.locator(".companion-choice summary").click();
  await page.getByTestId("companion-name").fill("Bran");
  await page.getByTestId("companion-class").selectOption("Cleric");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await settled(page);
  const table = page.getByTestId("table-panel");
  await table.locator("summary").click();
  await expect(table.getByTestId("table-members")).toContainText("Bran (Cleric, companion)");
  await expectAccessible(page, "the table of friends panel");
  await table.getByTestId("invite").click();
  const link = await table.getByTestId("invite-link").inputValue();
  expect(link).toMatch(/\/join\/[A-Z2-9]{25}$/);

  const other = friend.page;
  await other.goto(link);
  await expect(other.locator('main[data-hydrated="true"]')).toBeAttached();
  await other.getByPlaceholder("Mira Thorne").fill("Mira");
  await other.getByTestId("class").fill("Rogue");
  await other.getByTestId("class").dispatchEvent("change");
  await expectAccessible(other, "the join page");
  await other.getByTestId("join").click();
  await expect(other).toHaveURL(page.url());
  await expect(other.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story(other)).toContainText("Mira (Rogue) joins the party.");
  await expectAccessible(other, "a friend's play screen after joining");
  // The host's screen hears of it live.
  await expect(story(page)).toContainText("Mira (Rogue) joins the party.");
  await expect(table.getByTestId("table-members")).toContainText("Mira (Rogue, seat 2)");
});

test("a round waits for both players and is told once, on both screens", async () => {
  await host.page.getByRole("button", { name: /^Look down into the hollow/ }).click();
  await expect(host.page.getByText("Your move is in.")).toBeVisible();
  await settled(friend.page);
  await friend.page.getByRole("button", { name: /^Wait for the smoke to clear/ }).click();
  for (const page of [host.page, friend.page]) {
    await expect(story(page)).toContainText("goblins argue over a cooking pot");
    await expect(story(page).locator(".move").last()).toContainText("Mira Wait for the smoke to clear");
    await settled(page);
  }
  await expect(story(host.page).locator(".scene")).toHaveCount(2);
});

test("a fight puts both heroes and the companion in the initiative order", async () => {
  await friend.page.getByRole("button", { name: /^Look down into the hollow/ }).click();
  await expect(friend.page.getByText("Your move is in.")).toBeVisible();
  await host.page.getByRole("button", { name: /^Look down into the hollow/ }).click();
  for (const page of [host.page, friend.page]) {
    await expect(story(page)).toContainText("Two goblins leap out of the smoke");
    await expect(tracker(page)).toContainText("Mira");
    await expect(tracker(page)).toContainText("Bran");
    await expect(tracker(page)).toContainText("Goblin 2");
    await settled(page);
  }
});

test("in the fight, each hero strikes on their own turn", async () => {
  await host.page.getByRole("button", { name: /^Attack Goblin/ }).first().click();
  await expect(host.page.getByText("Your move is in.")).toBeVisible();
  await friend.page.getByRole("button", { name: /^Attack Goblin/ }).first().click();
  for (const page of [host.page, friend.page]) {
    await expect(story(page)).toContainText("Steel rings in the hollow");
    await expect(story(page)).toContainText(/Mira's .+ at Goblin/);
    await settled(page);
  }
});
