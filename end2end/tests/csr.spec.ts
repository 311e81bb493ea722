import { test, expect } from "@playwright/test";

// The client-side-rendered build (Trunk, target/csr), served as static files by csr-server.mjs
// with /api/ passed to a game server of its own (fixtures/scenario.json): the page starts empty,
// the wasm renders the app, and one turn is played through the server's functions.

test("the Trunk build renders the app in the browser and plays one turn", async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  const served = await (await page.request.get("/")).text();
  expect(served).not.toContain("Begin the adventure"); // nothing rendered by a server
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Mira");
  await page.getByRole("button", { name: "Begin the adventure" }).click();

  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  const story = page.getByTestId("story");
  await expect(story).toContainText("You stand before the drowned gate of Hollowmere.");
  await page.getByRole("button", { name: /Sneak past the guard/ }).click();

  await expect(story.locator(".move").last()).toHaveText("Sneak past the guard");
  await expect(story.locator(".roll", { hasText: "Stealth" }).last()).toContainText(/Rolled 1d20\+2 for Stealth.* vs DC 12/);
  await expect(story).toContainText("the guard's spear grazes your arm");
  await expect(page.getByTestId("hp")).toHaveText("HP 8/11");
  await page.screenshot({ path: testInfo.outputPath("csr.png"), fullPage: true });
  expect(errors).toEqual([]);
});
