import { test, expect, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { closeWatched, hitPoints, openWatched, type Watched } from "./support/watched";

// An honest game master, against its own scripted scenario (fixtures/ledger.json, a server of
// its own): on each move the narrator takes 5 HP with the update_character tool and then says
// "you take 12 damage". The rules check the scene and send it back once with their note in hand.
// The first time the narrator corrects it (5), and the player sees no note; the second time it
// insists on 12, and the player sees the rules' note beside the scene while the sheet keeps 5.
// The context inspector shows each check. Then a leap too far, its stakes named, in a scene that
// changes nothing: the rules' complication is shown beside it and listed in the ledger.
test.describe.configure({ mode: "serial" });

const NOTE = "the rules say: 5 damage, not 12";

let page: Page;
let watched: Watched;
const story = () => page.getByTestId("story");
const drawer = () => page.locator(".gm-drawer");
const check = () => drawer().getByTestId("ledger-check");
const hold = () => page.getByRole("button", { name: "Brace yourself and hold the bridge" });

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
});

test.afterAll(async () => closeWatched(watched));

/** Waits until the turn is over and its actions are back. */
async function settled() {
  await expect(page.getByRole("button", { name: "Do it" })).toBeEnabled();
  await expect(hold()).toBeEnabled();
}

/** Opens the context inspector (it loads the latest check on opening) and waits for the check. */
async function openInspector(turn: number) {
  await drawer().locator("summary").click();
  await expect(check().getByTestId("check-claims")).toContainText(`Ledger check of turn ${turn}:`);
}

async function closeInspector() {
  await drawer().locator("summary").click();
}

test("the opening scene claims nothing the rules could check", async () => {
  await page.goto("/");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByPlaceholder("Mira Thorne").fill("Brannoc");
  await page.getByRole("button", { name: "Begin the adventure" }).click();

  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story()).toContainText("A troll squats on the Old Bridge");
  await settled();

  await openInspector(1);
  await expect(check().getByTestId("check-claims")).toHaveText(
    "Ledger check of turn 1: 0 claims in the scene the rules could check.",
  );
  await expect(check().getByTestId("check-asked")).toHaveText("The first draft was not sent back.");
  await expect(check().getByTestId("check-notes")).toHaveText("The scene agrees with the rules.");
  await closeInspector();
});

test("a scene corrected when sent back: 5 damage, and no note for the player", async () => {
  const [before, max] = await hitPoints(page);
  await hold().click();

  await expect(story().locator(".scene").last()).toHaveText("The troll's club smashes into you and you take 5 damage.");
  await expect(story().locator(".chip").last()).toHaveText("−5 HP");
  await expect(page.getByTestId("hp")).toHaveText(`HP ${before - 5}/${max}`);
  await settled();
  await expect(story().getByTestId("rules-note")).toHaveCount(0);

  await openInspector(2);
  await expect(check().getByTestId("check-claims")).toHaveText(
    "Ledger check of turn 2: 1 claim in the scene the rules could check.",
  );
  await expect(check().getByTestId("check-asked")).toHaveText("The first draft was sent back once, to correct:");
  await expect(check().locator(".check-notes li")).toHaveText([NOTE]);
  await expect(check().getByTestId("check-notes")).toHaveText("The scene agrees with the rules.");
  await closeInspector();
});

test("a model that insists: the rules' note beside the scene, and the sheet keeps 5", async ({}, testInfo) => {
  const [before, max] = await hitPoints(page);
  await hold().click();

  const scene = story().locator(".scene-block").last();
  await expect(scene).toContainText("The club comes round again and you take 12 damage.");
  // The note follows the scene it corrects, the only one in the story.
  const note = scene.locator("xpath=following-sibling::*[1]");
  await expect(note).toHaveAttribute("data-testid", "rules-note");
  await expect(note).toContainText("The rules say: 5 damage, not 12");
  // The rules' own note, not the game master speaking out of character.
  await expect(note.locator(".aside-label")).toHaveText("The rules");
  await expect(story().getByTestId("aside")).toHaveCount(0);
  await expect(story().getByTestId("rules-note")).toHaveCount(1);
  await expect(page.getByTestId("hp")).toHaveText(`HP ${before - 5}/${max}`);
  await settled();
  await note.screenshot({ path: testInfo.outputPath("note.png") });

  await openInspector(3);
  await expect(check().getByTestId("check-claims")).toHaveText(
    "Ledger check of turn 3: 1 claim in the scene the rules could check.",
  );
  await expect(check().getByTestId("check-asked")).toHaveText("The first draft was sent back once, to correct:");
  await expect(check().getByTestId("check-notes")).toHaveText("Left for the player:");
  await expect(check().locator(".check-notes li")).toHaveText([NOTE, NOTE]);
  await check().screenshot({ path: testInfo.outputPath("inspector.png") });
  await page.screenshot({ path: testInfo.outputPath("ledger-check.png"), fullPage: true });
  await expectAccessible(page, "the inspector with the rules' check");
  await closeInspector();

  // The note and the sheet are saved: a reload shows them again.
  await page.reload();
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(story().getByTestId("rules-note")).toHaveText(/The rules say: 5 damage, not 12/);
  await expect(page.getByTestId("hp")).toHaveText(`HP ${before - 5}/${max}`);
});

test("a failed roll with stakes in a scene that changes nothing costs the rules' complication", async ({}, testInfo) => {
  const notes = story().getByTestId("rules-note");
  const before = await notes.count();
  await page.getByRole("button", { name: /Leap the troll's club/ }).click();
  await expect(story().getByTestId("roll").last()).toContainText(/vs DC 30: failure/);
  // The scene (the troll on the bridge again) changes nothing; the rules' note follows it.
  const scene = story().locator(".scene-block").last();
  await expect(scene).toContainText("A troll squats on the Old Bridge");
  const note = scene.locator("xpath=following-sibling::*[1]");
  await expect(note).toHaveAttribute("data-testid", "rules-note");
  await expect(note).toContainText("The roll failed and the scene let it cost nothing (at stake: You land at the troll's feet).");
  await expect(note).toContainText(/The failure costs (a minor harm: \d damage|lost time: \d+ minutes|a .+ lost|a foe alerted: Noticed for 1 hour)/);
  await expect(notes).toHaveCount(before + 1);
  // The chips of what it changed follow the note.
  await expect(note.locator("xpath=following-sibling::*[1]")).toHaveClass(/chips/);
  await settled();
  await note.screenshot({ path: testInfo.outputPath("complication.png") });

  await page.getByTestId("ledger").locator("summary").click();
  const ledger = page.getByTestId("ledger");
  await expect(ledger.locator("tr", { hasText: "Rules: a failure's complication" })).toContainText(/1d6 \[\d\]/);
  await expect(ledger.locator("tr", { hasText: "Rules: a failed roll's cost" }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("complication-ledger.png"), fullPage: true });
});
