// Serves Trunk's client-side-rendered build (target/csr) as static files and passes /api/ to a
// running game server, so that the page and the server functions share one origin (as a reverse
// proxy in front of both would). Any other path gets index.html: the app routes in the browser.
//
//   CSR_DIST=../target/csr CSR_PORT=8080 GAME_SERVER=http://127.0.0.1:3000 node csr-server.mjs
import { createServer, request } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const dist = process.env.CSR_DIST ?? "../target/csr";
const port = Number(process.env.CSR_PORT ?? 8080);
const game = new URL(process.env.GAME_SERVER ?? "http://127.0.0.1:3000");
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".svg": "image/svg+xml",
};

/** Passes the request to the game server and streams its answer back as it comes. */
function proxy(incoming, outgoing) {
  const upstream = request(
    {
      host: game.hostname,
      port: game.port,
      method: incoming.method,
      path: incoming.url,
      headers: incoming.headers,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on("error", () => {
    outgoing.writeHead(502);
    outgoing.end("the game server is not answering");
  });
  incoming.pipe(upstream);
}

async function file(path, outgoing) {
  const safe = normalize(path).replace(/^(\.\.[/\\])+/, "");
  const type = types[extname(safe)];
  try {
    if (!type) throw new Error("not a built file");
    const body = await readFile(join(dist, safe));
    outgoing.writeHead(200, { "content-type": type });
    outgoing.end(body);
  } catch {
    const index = await readFile(join(dist, "index.html"));
    outgoing.writeHead(200, { "content-type": types[".html"] });
    outgoing.end(index);
  }
}

createServer((incoming, outgoing) => {
  const path = new URL(incoming.url, "http://localhost").pathname;
  if (path.startsWith("/api/")) proxy(incoming, outgoing);
  else file(path, outgoing);
}).listen(port, "127.0.0.1");
