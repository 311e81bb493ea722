import { chromium } from "@playwright/test";
const base = process.env.BASE;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on("pageerror", e => errors.push(e.message));
page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
let t = Date.now();
await page.goto(base + "/");
await page.waitForSelector('main[data-hydrated="true"]', { state: "attached" });
await page.screenshot({ path: "/tmp/play1/home.png", fullPage: true });
await page.getByPlaceholder("Mira Thorne").fill("Mira");
await page.getByRole("button", { name: "Begin the adventure" }).click();
await page.waitForURL(/\/play\//, { timeout: 180000 });
await page.waitForSelector('main[data-hydrated="true"]', { state: "attached" });
await page.waitForSelector(".actions button.action", { timeout: 180000 });
console.log("opening + actions", (Date.now() - t) / 1000, "s");
for (let turn = 0; turn < 3; turn++) {
  t = Date.now();
  const buttons = page.locator(".actions button.action");
  console.log("actions:", await buttons.allTextContents());
  if (turn === 1) {
    await page.locator("textarea, input[type=text]").last().fill("I light my lantern and look for a way down.");
    await page.keyboard.press("Enter");
  } else {
    await buttons.first().click();
  }
  await page.waitForTimeout(500);
  await page.waitForSelector(".actions button.action:not([disabled])", { timeout: 240000 });
  console.log("turn", turn, (Date.now() - t) / 1000, "s");
}
await page.screenshot({ path: "/tmp/play1/play.png", fullPage: true });
await page.setViewportSize({ width: 375, height: 800 });
await page.screenshot({ path: "/tmp/play1/play-375.png" });
console.log("story:", (await page.getByTestId("story").textContent()).slice(0, 1500));
console.log("errors:", errors);
await browser.close();
