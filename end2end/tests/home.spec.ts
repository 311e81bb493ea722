import { test, expect } from "@playwright/test";

test("the home page hydrates and New adventure shows the server's answer", async ({ page }, testInfo) => {
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));

  await page.goto("/");
  await expect(page).toHaveTitle("Dicebound");
  await expect(page.getByRole("heading", { name: "Dicebound" })).toBeVisible();
  // The root component marks <main> once the wasm has hydrated the page.
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();

  await page.getByRole("button", { name: "New adventure" }).click();

  const premise = page.getByTestId("premise");
  await expect(premise).toBeVisible();
  await expect(premise).not.toBeEmpty();
  await expect(page.getByRole("alert")).toHaveCount(0);

  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
  expect(consoleErrors).toEqual([]);
});
