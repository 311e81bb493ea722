import { test, expect } from "@playwright/test";

test("the home page hydrates with the new-adventure form", async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));

  await page.goto("/");
  await expect(page).toHaveTitle("Dicebound");
  await expect(page.getByRole("heading", { name: "Dicebound" })).toBeVisible();
  // The root component marks <main> once the wasm has hydrated the page.
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(page.getByRole("heading", { name: "New adventure" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Begin the adventure" })).toBeEnabled();
  // The player is told which model is the game master.
  await expect(page.locator(".game-master .model-name")).toHaveText("scripted end-to-end scenario");
  await expect(page.locator(".game-master")).toContainText("a scripted scenario, not a model");

  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
  expect(errors).toEqual([]);
});
