import { expect, type Browser, type Page } from "@playwright/test";

/** A page in a browser context of its own, with every page error and console error it shows. */
export interface Watched {
  page: Page;
  errors: string[];
}

/** Opens a page for a serial spec, collecting its errors (a context of its own, so a second tab can share the player's cookie). */
export async function openWatched(browser: Browser): Promise<Watched> {
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return { page, errors };
}

/** Closes the page's context once its spec is over, failing if the page showed any error. */
export async function closeWatched({ page, errors }: Watched) {
  expect(errors).toEqual([]);
  await page.context().close();
}

/** The hit points the character panel shows, as [current, max]. */
export async function hitPoints(page: Page): Promise<[number, number]> {
  const text = (await page.getByTestId("hp").textContent()) ?? "";
  const [, current, max] = text.match(/HP (\d+)\/(\d+)/) ?? [];
  return [Number(current), Number(max)];
}
