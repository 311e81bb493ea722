import { test, expect } from "@playwright/test";
import { closeWatched, openWatched } from "../tests/support/watched";

// The development build (what `cargo leptos watch` serves) hydrates: its wasm is not split, so the
// parts a split build fetches on first use (a panel's body, the settings page, a drawer) come with
// the rest and work without a page error (app/build.rs).
test("the development build hydrates; its lazily loaded parts work unsplit", async ({ browser }, testInfo) => {
  const watched = await openWatched(browser);
  const { page } = watched;
  const hydrated = () => expect(page.locator('main[data-hydrated="true"]')).toBeAttached();

  await page.goto("/");
  await hydrated();
  // A `#[lazy]` panel body: mounted by the hydrated page when the panel opens.
  const trash = page.getByTestId("trash");
  await trash.locator("summary").click();
  await expect(trash.getByText("The trash is empty.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("dev-home.png"), fullPage: true });

  // The settings page (rendered in the browser from its code), reached by the client-side router.
  await page.getByRole("link", { name: "Change the game master's model" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await hydrated();
  await expect(page.getByTestId("in-use")).toContainText("a scripted scenario");

  // A drawer's body in play.
  await page.getByRole("link", { name: "Back to your adventures" }).click();
  await hydrated();
  await page.getByPlaceholder("Mira Thorne").fill("Wren");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await hydrated();
  const ledger = page.getByTestId("ledger");
  await ledger.locator("summary").click();
  await expect(ledger.locator("table.ledger-table, p.meta").first()).toBeVisible();

  await closeWatched(watched);
});
