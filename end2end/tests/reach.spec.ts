import { test, expect, type Browser, type Page } from "@playwright/test";
import { closeWatched, openWatched, type Watched } from "./support/watched";

// Reach, on a server of its own (fixtures/harbour.json): playing by voice, with the browser's
// speech recognition replaced by a stub; the web app manifest; the service worker that keeps the
// hashed assets.
test.describe.configure({ mode: "serial" });

let page: Page;
let watched: Watched;
let playUrl: string;
const story = () => page.getByTestId("story");
const moveBox = () => page.getByRole("textbox", { name: "Your move" });
const voice = () => page.getByTestId("voice");
const hydrated = (on: Page) => expect(on.locator('main[data-hydrated="true"]')).toBeAttached();

interface Recognitions {
  started: number;
  stopped: number;
  error: string | null;
}

test.beforeAll(async ({ browser }) => {
  watched = await openWatched(browser);
  page = watched.page;
  // A recognition that hears "open the door" when it starts (or fails with `window.__recognitions.error`)
  // and ends when stopped, as the browser's does.
  await page.addInitScript(() => {
    const log: Recognitions = { started: 0, stopped: 0, error: null };
    (window as unknown as { __recognitions: Recognitions }).__recognitions = log;
    type Handler = ((event: unknown) => void) | null;
    class Recognition {
      continuous = false;
      interimResults = true;
      onresult: Handler = null;
      onerror: Handler = null;
      onend: Handler = null;
      start() {
        log.started += 1;
        if (log.error) {
          this.onerror?.({ error: log.error });
          this.onend?.({});
          return;
        }
        const heard = Object.assign([{ transcript: "open the door", confidence: 0.9 }], { isFinal: true });
        this.onresult?.({ resultIndex: 0, results: [heard] });
      }
      stop() {
        log.stopped += 1;
        this.onend?.({});
      }
      abort() {}
    }
    Object.defineProperty(window, "SpeechRecognition", { value: Recognition, configurable: true });
  });
});

test.afterAll(async () => closeWatched(watched));

test("the voice button types what was said into the box, after what was typed, and sends nothing", async () => {
  await page.goto("/");
  await hydrated(page);
  await page.getByPlaceholder("Mira Thorne").fill("Ash");
  await page.getByRole("button", { name: "Begin the adventure" }).click();
  await expect(page).toHaveURL(/\/play\/[0-9a-f]{32}$/);
  playUrl = page.url();
  await hydrated(page);
  await expect(story()).toContainText("A bell tolls over the harbour.");

  await moveBox().fill("I look around.");
  await expect(voice()).toBeVisible();
  await expect(voice()).toHaveAttribute("aria-pressed", "false");
  await voice().click();
  await expect(voice()).toHaveAttribute("aria-pressed", "true");
  await expect(voice()).toHaveAccessibleName("Stop listening");
  await expect(moveBox()).toHaveValue("I look around. open the door");
  // A second press, from the keyboard, stops it.
  await voice().focus();
  await page.keyboard.press("Enter");
  await expect(voice()).toHaveAttribute("aria-pressed", "false");
  const log = await page.evaluate(() => (window as unknown as { __recognitions: Recognitions }).__recognitions);
  expect(log).toEqual({ started: 1, stopped: 1, error: null });
  // Nothing was sent: the story is still its opening, the box still holds the words.
  await expect(story().locator(".move")).toHaveCount(0);
  await expect(moveBox()).toHaveValue("I look around. open the door");
});

test("a recognition that fails says why, and the box keeps what it holds", async () => {
  await page.evaluate(() => {
    (window as unknown as { __recognitions: Recognitions }).__recognitions.error = "not-allowed";
  });
  await voice().click();
  await expect(page.getByTestId("voice-error")).toHaveText(/microphone is not allowed/);
  await expect(voice()).toHaveAttribute("aria-pressed", "false");
  await expect(moveBox()).toHaveValue("I look around. open the door");
  await page.evaluate(() => {
    (window as unknown as { __recognitions: Recognitions }).__recognitions.error = null;
  });
});

test("without the browser's speech recognition the voice button stays hidden", async ({ browser }) => {
  const other = await samePlayer(browser, page);
  await other.addInitScript(() => {
    for (const name of ["SpeechRecognition", "webkitSpeechRecognition"]) {
      Object.defineProperty(window, name, { value: undefined, configurable: true });
    }
  });
  await other.goto(playUrl);
  await hydrated(other);
  await expect(other.getByRole("button", { name: "Do it" })).toBeVisible();
  await expect(other.getByTestId("voice")).toBeHidden();
  await other.context().close();
});

test("the web app manifest is served and linked from the page", async () => {
  const link = page.locator('link[rel="manifest"]');
  await expect(link).toHaveAttribute("href", "/manifest.webmanifest");
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#15110d");
  const response = await page.request.get("/manifest.webmanifest");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/manifest+json");
  const manifest = await response.json();
  expect(manifest).toMatchObject({ name: "Dicebound", start_url: "/", display: "standalone" });
  const sizes = manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`);
  expect(sizes).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
  for (const icon of manifest.icons) {
    const png = await page.request.get(icon.src);
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
  }
  const worker = await page.request.get("/sw.js");
  expect(worker.headers()["content-type"]).toMatch(/javascript/);
  expect(worker.headers()["cache-control"]).toMatch(/no-(store|cache)/);
});

test("the service worker keeps the hashed assets and answers them from its cache, never the game's answers", async () => {
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe("/");
  // Controlled from now on: this visit's assets go through it, and are kept.
  await page.reload();
  await hydrated(page);
  const kept = await cachedAssets(page);
  const hashed = (name: string) => /^[^.]+\.[A-Za-z0-9_-]{16,}\./.test(name);
  const mainModule = (name: string) => name.endsWith(".js") && !name.startsWith("__wasm_split.");
  const loaded = (await loadedAssets(page)).filter((name) => hashed(name) && !mainModule(name));
  expect(loaded.some((name) => name.endsWith(".wasm"))).toBe(true);
  expect(loaded.some((name) => name.endsWith(".css"))).toBe(true);
  for (const name of loaded) expect(kept).toContain(`/pkg/${name}`);

  // The next visit takes them from the worker's cache; the page and the main JS module (asked
  // for again by the server's rule) go to the network.
  const served = new Map<string, boolean>();
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith("/pkg/") || path.startsWith("/play/")) served.set(path, response.fromServiceWorker());
  });
  await page.reload();
  await hydrated(page);
  for (const name of loaded) expect(served.get(`/pkg/${name}`)).toBe(true);
  expect(served.get(new URL(playUrl).pathname)).toBe(false);
  for (const [path, fromWorker] of served) if (mainModule(path.slice("/pkg/".length))) expect(fromWorker).toBe(false);

  // The game still plays under the worker, and nothing it answered was kept.
  await page.getByRole("button", { name: "Walk to the pier" }).click();
  await expect(story()).toContainText("The boards creak under your boots!");
  const all = await cachedAssets(page);
  expect(all.filter((path) => !path.startsWith("/pkg/"))).toEqual([]);
  expect(all.some((path) => mainModule(path.slice("/pkg/".length)))).toBe(false);
});

/** A page in a second context with `page`'s cookie (the same player). */
async function samePlayer(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  return context.newPage();
}

/** The paths of every request kept in any of the page's caches. */
async function cachedAssets(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

/** The names of the /pkg/ files the page loaded. */
async function loadedAssets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith("/pkg/"))
      .map((path) => path.slice("/pkg/".length)),
  );
}
