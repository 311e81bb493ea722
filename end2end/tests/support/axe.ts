import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The WCAG 2 A and AA rules (2.0, 2.1 and 2.2) axe-core checks. */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/**
 * Runs axe-core on the page as it is now (every panel open at this point included) and expects
 * no WCAG 2 A/AA violation; when there are some, the failure lists each rule with its impact, its
 * help link and the elements it found, so that the fix is in the message. `what` names the screen.
 * A soft expectation: the test goes on to its other screens and fails at its end with them all.
 */
export async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const found = results.violations.map((violation) => {
    const nodes = violation.nodes
      .slice(0, 5)
      .map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ") ?? ""}`)
      .join("\n");
    return `${violation.id} (${violation.impact}): ${violation.help} <${violation.helpUrl}>\n${nodes}`;
  });
  expect.soft(found, `axe-core on ${what}:\n${found.join("\n")}`).toEqual([]);
}
