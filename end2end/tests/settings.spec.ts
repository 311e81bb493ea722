import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// The settings page on a server of its own, started on the scripted scenario: the operator points
// it at a second scripted model behind an OpenAI-compatible API (fake-model.mjs), which wants a
// key. A wrong key is refused, the model is picked from the endpoint's own list, the connection
// is tested, and once saved the next adventure is told by the second model, turn after turn.
// Then an image model is set beside it (the same fake's images endpoint): "Picture this" draws
// the scene, which shows in the story, and a portrait shows in the panel.
test.describe.configure({ mode: "serial" });

const KEY = "sk-e2e-second-model";
let page: Page;
let watched: Watched;
let played = "";
const hydrated = () => expect(page.locator('main[data-hydrated="true"]')).toBeAttached();

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

test("the game master's model is changed in the app and tells the next turn", async ({}, testInfo) => {
  const endpoint = testInfo.project.metadata.fakeModel as string;
  await page.goto("/");
  await hydrated();
  await page.getByRole("link", { name: "Change the game master's model" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await hydrated();
  await expect(page.getByTestId("in-use")).toContainText("a scripted scenario");

  await page.getByRole("textbox", { name: /^Endpoint/ }).fill(endpoint);
  await page.getByLabel("API key").fill("sk-wrong");
  await page.getByRole("button", { name: "List the models" }).click();
  await expect(page.getByRole("alert")).toContainText("the endpoint refused the API key (HTTP 401)");
  // A refusal is an error answer (the typed error, an invalid field: HTTP 422), which the browser
  // logs once.
  expect(watched.errors).toHaveLength(1);
  expect(watched.errors[0]).toMatch(
    /^Failed to load resource: the server responded with a status of 422 \(Unprocessable (Entity|Content)\)$/,
  );
  watched.errors.length = 0;

  await page.getByLabel("API key").fill(KEY);
  await page.getByRole("button", { name: "List the models" }).click();
  const models = page.locator('select[name="model"]');
  await expect(models.locator("option")).toHaveText(["second-model", "third-model"]);
  await models.selectOption("second-model");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("connection-ok")).toContainText("answered \u201cready\u201d");
  await expect(page.getByTestId("connection-ok")).toContainText("lists 2 models");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("saved")).toContainText("second-model tells the stories");
  await expect(page.getByTestId("in-use")).toContainText("second-model");
  await expect(page.getByLabel("API key")).toHaveValue("");
  await page.screenshot({ path: testInfo.outputPath("settings.png"), fullPage: true });
  await expectAccessible(page, "the settings page");

  // After a reload the key is only "set": it never comes back to the page.
  await page.reload();
  await hydrated();
  await expect(page.locator("label", { hasText: "API key (set" })).toBeVisible();
  expect(await page.content()).not.toContain(KEY);

  // The next adventure is told by the second model, and so is its next turn.
  await page.goto("/");
  await hydrated();
  await page.getByPlaceholder("Mira Thorne").fill("Ilse");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await hydrated();
  const story = page.getByTestId("story");
  await expect(story).toContainText("The second model tells scene 1");
  await page.getByRole("button", { name: "Follow the bell" }).click();
  await expect(story).toContainText("The second model tells scene 2");
  await page.screenshot({ path: testInfo.outputPath("second-model.png"), fullPage: true });
  played = page.url();
});

test("with an image model set, a picture of the scene shows in the story", async ({}, testInfo) => {
  const endpoint = testInfo.project.metadata.fakeModel as string;
  // Without an image model, nothing of pictures shows.
  await page.goto(played);
  await hydrated();
  await expect(page.getByTestId("story")).toContainText("The second model tells scene 2");
  await expect(page.getByTestId("pictures")).toHaveCount(0);

  await page.goto("/settings");
  await hydrated();
  const pictures = page.getByTestId("picture-settings");
  await pictures.getByLabel(/^Images endpoint/).fill(endpoint);
  await pictures.getByLabel("Image model", { exact: true }).fill("tiny-painter");
  await pictures.getByLabel("Key for the images endpoint").fill(KEY);
  await pictures.getByRole("button", { name: "Save the image model" }).click();
  await expect(page.getByTestId("pictures-saved")).toContainText("pictures are on");
  expect(await page.content()).not.toContain(KEY);

  await page.goto(played);
  await hydrated();
  await page.getByTestId("pictures").locator("summary").click();
  await page.getByTestId("picture-this").click();
  const picture = page.getByTestId("story").getByTestId("picture").locator("img");
  await expect(picture).toBeVisible();
  await expect
    .poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBe(1);
  await page.getByTestId("draw-portrait").click();
  await expect(page.getByTestId("portrait")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("pictures.png"), fullPage: true });

  // After a reload, the pictures are still in the story.
  await page.reload();
  await hydrated();
  await expect(page.getByTestId("story").getByTestId("picture")).toHaveCount(2);
  expect(await page.content()).not.toContain(KEY);
});
