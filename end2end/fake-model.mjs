// A second scripted model behind an OpenAI-compatible API, for the settings test: it lists one
// model, wants one key, answers a test call with "ready", streams numbered scenes and gives one
// action a list; and an images endpoint (`/v1/images/generations`) that draws a 1×1 PNG.
//
//   FAKE_MODEL_PORT=8090 node fake-model.mjs
import { createServer } from "node:http";

const port = Number(process.env.FAKE_MODEL_PORT ?? 8090);
const key = "sk-e2e-second-model";
let scenes = 0;

/** A chat completion chunk (streamed) or a whole completion carrying `content`. */
function completion(content, chunk) {
  const choice = chunk
    ? { index: 0, delta: content === null ? {} : { content }, finish_reason: content === null ? "stop" : null }
    : { index: 0, finish_reason: "stop", message: { role: "assistant", content } };
  return { id: "fake", object: chunk ? "chat.completion.chunk" : "chat.completion", created: 1, model: "second-model", choices: [choice] };
}

/** A 1×1 PNG, as an images endpoint answers it (`b64_json`). */
const PICTURE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function reply(request, body, answer) {
  if (request.url === "/v1/images/generations" && request.method === "POST") {
    return answer(200, { created: 1, data: [{ b64_json: PICTURE }] });
  }
  if (request.url === "/v1/models") {
    return answer(200, { object: "list", data: [{ id: "second-model" }, { id: "third-model" }] });
  }
  if (request.url !== "/v1/chat/completions" || request.method !== "POST") return answer(404, { error: "not found" });
  const asked = JSON.parse(body);
  if (asked.response_format) {
    const actions = { actions: [{ id: "bell", description: "Follow the bell", diceRoll: null, diceReason: null, difficultyClass: null, attribute: null }] };
    return answer(200, completion(JSON.stringify(actions), false));
  }
  if (!asked.stream) return answer(200, completion("ready", false));
  scenes += 1;
  const text = `The second model tells scene ${scenes}: a bell rings across the water.`;
  return [completion(text, true), completion(null, true)];
}

createServer((request, response) => {
  let body = "";
  request.on("data", (part) => (body += part));
  request.on("end", () => {
    const answer = (status, json) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(json));
    };
    if (request.headers.authorization !== `Bearer ${key}`) {
      return answer(401, { error: { message: "a key is needed" } });
    }
    const chunks = reply(request, body, answer);
    if (!Array.isArray(chunks)) return;
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    response.end("data: [DONE]\n\n");
  });
}).listen(port, "127.0.0.1");
