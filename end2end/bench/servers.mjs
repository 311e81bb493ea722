// The processes a browser bench runs against: the fake OpenAI-compatible model
// (scripts/fake-openai.mjs) and the release game server on a fresh SQLite file. Both are killed
// when the bench ends.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

const here = new URL(".", import.meta.url).pathname;

/** Starts a child process that is killed when this script ends. */
function child(command, args, env) {
  const process_ = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  process.on("exit", () => process_.kill());
  return process_;
}

/** The fake model, answering after `latencyMs`; its port. */
export async function fakeModel(latencyMs) {
  const model = child("node", [join(here, "../../scripts/fake-openai.mjs")], { LATENCY_MS: String(latencyMs) });
  const [line] = await createInterface({ input: model.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value]);
  return Number(line.split(":").pop());
}

/** The release server (`DICEBOUND_SERVER_BIN`, its site at `LEPTOS_SITE_ROOT`) on the fake model
 * at `modelPort`, its database in `data`, with `env` besides; its URL once it answers. */
export async function gameServer(modelPort, data, env = {}) {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  child(process.env.DICEBOUND_SERVER_BIN, [], {
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    LEPTOS_SITE_ROOT: process.env.LEPTOS_SITE_ROOT,
    LEPTOS_OUTPUT_NAME: "dicebound",
    LEPTOS_ENV: "PROD",
    RUST_LOG: "warn",
    DICEBOUND_DATABASE_URL: `sqlite://${data}/bench.db`,
    DICEBOUND_LLM_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
    DICEBOUND_LLM_API_KEY: "fake",
    DICEBOUND_LLM_MODEL: "fake",
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 500; tries++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the server did not start");
}
