import { test, expect } from "@playwright/test";
import { expectAccessible } from "./support/axe";

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
  await expectAccessible(page, "the home page");
  await page.getByText("Tone and lines").click();
  await expectAccessible(page, "the creation form with its tone and lines open");
  expect(errors).toEqual([]);
});

test("a recovery code moves the campaigns to a second browser; the table's lines go with the campaign", async ({
  browser,
}, testInfo) => {
  const first = await (await browser.newContext()).newPage();
  await first.goto("/");
  await expect(first.locator('main[data-hydrated="true"]')).toBeAttached();
  await first.getByPlaceholder("Mira Thorne").fill("Tamsin");
  await first.getByText("Tone and lines").click();
  await first.getByLabel("Lines").fill("spiders\ndrowning");
  await first.getByLabel("The game master's style").selectOption("grim");
  await first.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(first).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(first.locator('main[data-hydrated="true"]')).toBeAttached();
  // The lines chosen at creation are the campaign's, and can be changed in play.
  const panel = first.getByTestId("agreement-panel");
  await panel.locator("summary").click();
  await expect(panel.getByLabel("Lines")).toHaveValue("spiders\ndrowning");
  await expect(panel.getByLabel("The game master's style")).toHaveValue("grim");
  await panel.getByLabel("Veils").fill("torture");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(first.getByTestId("agreement-saved")).toBeVisible();
  await expectAccessible(first, "the table's lines in play");

  await first.goto("/");
  await expect(first.locator('main[data-hydrated="true"]')).toBeAttached();
  const recovery = first.getByTestId("recovery");
  await recovery.locator("summary").click();
  await recovery.getByRole("button", { name: "Make a recovery code" }).click();
  const code = (await recovery.getByTestId("recovery-code").textContent()) ?? "";
  expect(code).toMatch(/^([A-Z2-9]{5}-){4}[A-Z2-9]{5}$/);
  await expect(recovery.getByTestId("recovery-made")).toContainText("You made a recovery code on");
  await first.screenshot({ path: testInfo.outputPath("recovery-code.png"), fullPage: true });
  await expectAccessible(first, "the recovery panel with a code");

  const second = await (await browser.newContext()).newPage();
  await second.goto("/");
  await expect(second.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(second.getByText("Tamsin the")).toHaveCount(0);
  const there = second.getByTestId("recovery");
  await there.locator("summary").click();
  await there.getByLabel("Recovery code").fill(code.toLowerCase());
  await there.getByRole("button", { name: "Bring my campaigns here" }).click();
  await expect(second.getByText(/Tamsin the \w+/)).toBeVisible();
  await expectAccessible(second, "the recovery panel after redeeming");
  await second.screenshot({ path: testInfo.outputPath("recovered.png"), fullPage: true });
  await first.context().close();
  await second.context().close();
});

test("a character card starts a campaign with its companion and lore in the journal", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByTestId("card-file").setInputFiles(`${__dirname}/../fixtures/seraphine.card.json`);
  await expect(page.getByTestId("card-brought")).toContainText("Companion: Seraphine. 1 lore entry goes into the journal.");
  await expect(page.getByPlaceholder("Or write your own premise…")).toHaveValue(
    "Seraphine meets you at the salt road's last inn, where the lantern never goes out.",
  );
  await page.getByPlaceholder("Mira Thorne").fill("Corin");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  const journal = page.getByTestId("journal");
  await expect(journal).toContainText("Seraphine");
  await expect(journal).toContainText("A wandering knight sworn to no crown.");
  await expect(journal).toContainText("The Salt Guild");

  // A file that is not a card says so, and nothing starts.
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByTestId("card-file").setInputFiles({
    name: "notes.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"hello": "world"}'),
  });
  await expect(page.getByRole("alert")).toContainText("neither a character card");
});
