// An instant fake OpenAI-compatible model on loopback, for the benchmarks: `POST
// /v1/chat/completions` answers a request for JSON (phase 2's `response_format`) with one action
// and anything else with a short scene, streamed as server-sent events when asked, after
// LATENCY_MS (a fixed time to the first token; 0 by default). Prints its port once listening.
//
//   LATENCY_MS=1000 node scripts/fake-openai.mjs     → "listening 127.0.0.1:PORT"
import { createServer } from "node:http";

const latency = Number(process.env.LATENCY_MS ?? 0);
const port = Number(process.env.PORT ?? 0);
const scene = "You walk on through the rain, and the road bends toward the river.";
const actions = JSON.stringify({
  actions: [
    { id: "walk", description: "Walk on toward the river", diceRoll: null, diceReason: null, difficultyClass: null, attribute: null },
  ],
});
const usage = { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 };

function chunk(delta, finish) {
  return { id: "fake", object: "chat.completion.chunk", created: 1, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] };
}

function answer(request, response) {
  const content = request.response_format ? actions : scene;
  if (!request.stream) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({
      id: "fake", object: "chat.completion", created: 1, model: "fake", usage,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream" });
  const half = Math.ceil(content.length / 2);
  const events = [
    chunk({ role: "assistant", content: content.slice(0, half) }, null),
    chunk({ content: content.slice(half) }, "stop"),
    { ...chunk({}, null), choices: [], usage },
  ];
  response.end(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("") + "data: [DONE]\n\n");
}

const server = createServer((incoming, response) => {
  let body = "";
  incoming.on("data", (part) => (body += part));
  incoming.on("end", () => {
    if (incoming.method !== "POST" || !incoming.url.endsWith("/chat/completions")) {
      response.writeHead(404);
      response.end();
      return;
    }
    setTimeout(() => answer(JSON.parse(body), response), latency);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => console.log(`listening 127.0.0.1:${server.address().port}`));
