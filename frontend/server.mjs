// The site's server: Next for the pages, and a reverse proxy to the API for /api, /ws and
// /uploads, so the browser reaches everything at one origin.
//
// Why not Next's rewrites: `next build` writes them into the build, so the API's address was
// fixed at build time; here RIFA_API_ORIGIN is read when the server starts, and one build runs
// against any API. And Next's proxy passes on whatever X-Forwarded-For the client sent without
// adding the client's address, so an API that trusts its proxy would count every visitor as
// one (or as whoever the client claims to be). This proxy appends the peer's address: the last
// hop, the only one the API trusts (RIFA_TRUST_PROXY=true), is the real client.
//
// When the site itself sits behind one proxy that appends the client's address (a TLS proxy, a
// CDN forwarding /api here), RIFA_SITE_TRUST_PROXY=true passes that header on unchanged instead:
// exactly one hop, the outermost, writes the address the API trusts.
//
//   node server.mjs [--dev]     WEB_HOST (127.0.0.1), WEB_PORT (3000), RIFA_API_ORIGIN,
//                               RIFA_SITE_TRUST_PROXY (false)
import { createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { fileURLToPath } from "node:url";
import next from "next";

const dev = process.argv.includes("--dev");
// Not HOSTNAME: containers set it to their own name.
const hostname = process.env.WEB_HOST ?? "127.0.0.1";
const port = Number(process.env.WEB_PORT ?? 3000);
const apiOrigin = new URL(process.env.RIFA_API_ORIGIN ?? "http://127.0.0.1:8080");
const trustProxy = /^(1|true|yes|on)$/i.test(process.env.RIFA_SITE_TRUST_PROXY ?? "");
const proxied = /^\/(api|uploads)(\/|$)|^\/ws(\?|$)/;
// Per RFC 9110 these describe one connection, not the message: never forwarded.
const hopByHop = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"];

/** The peer's address, IPv4-mapped IPv6 written as IPv4. */
function peerAddress(req) {
  const address = req.socket.remoteAddress ?? "";
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

function forwardedHeaders(req) {
  const headers = { ...req.headers };
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  for (const name of [...hopByHop, ...named]) delete headers[name];
  const prior = [req.headers["x-forwarded-for"]].flat().filter(Boolean).join(", ");
  if (!(trustProxy && prior)) headers["x-forwarded-for"] = prior ? `${prior}, ${peerAddress(req)}` : peerAddress(req);
  headers["x-forwarded-host"] = req.headers.host ?? "";
  headers["x-forwarded-proto"] = req.socket.encrypted ? "https" : "http";
  headers.host = apiOrigin.host;
  return headers;
}

function apiRequest(req, headers) {
  const send = apiOrigin.protocol === "https:" ? httpsRequest : httpRequest;
  return send({
    protocol: apiOrigin.protocol,
    hostname: apiOrigin.hostname,
    port: apiOrigin.port,
    method: req.method,
    path: req.url,
    headers,
  });
}

function proxy(req, res) {
  const upstream = apiRequest(req, forwardedHeaders(req));
  upstream.on("response", (answer) => {
    const headers = { ...answer.headers };
    for (const name of hopByHop) delete headers[name];
    res.writeHead(answer.statusCode ?? 502, headers);
    answer.pipe(res);
  });
  upstream.on("error", (error) => {
    console.error(`proxy ${req.method} ${req.url}: ${error.message}`);
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    res.end("Bad gateway");
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}

function proxyUpgrade(req, socket, head) {
  const headers = forwardedHeaders(req);
  headers.connection = "Upgrade";
  headers.upgrade = req.headers.upgrade ?? "websocket";
  const upstream = apiRequest(req, headers);
  upstream.on("upgrade", (answer, apiSocket, apiHead) => {
    const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
    for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (apiHead.length) socket.write(apiHead);
    if (head.length) apiSocket.write(head);
    apiSocket.pipe(socket).pipe(apiSocket);
    const close = () => {
      apiSocket.destroy();
      socket.destroy();
    };
    apiSocket.on("error", close);
    socket.on("error", close);
    apiSocket.on("close", close);
    socket.on("close", close);
  });
  upstream.on("response", (answer) => {
    // The API refused the upgrade: pass its answer on and close.
    socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\nconnection: close\r\n\r\n`);
    answer.resume();
  });
  upstream.on("error", () => socket.destroy());
  upstream.end();
}

// Public pages are the same for every visitor of one language (the admin's session lives in the
// browser, not in a cookie), so a CDN may keep them: fresh for a minute, then served stale while
// it fetches a new copy. Prices and free numbers are always read live by the browser, so a
// minute-old page costs nothing. The language comes from the NEXT_LOCALE cookie, hence
// `Vary: Cookie` (infra/CDN.md: key the cache on that cookie only). Only successful answers:
// errors keep Next's `no-store`. Pages are rendered per request (the locale cookie), so Next
// marks them all `no-store` itself; this is where that is corrected for public ones.
const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
const publicPage = /^\/(?!admin(\/|$|\?)|_next\/)[^.?]*(\?|$)/;

function cachePublicPage(req, res) {
  if ((req.method !== "GET" && req.method !== "HEAD") || !publicPage.test(req.url ?? "")) return;
  const writeHead = res.writeHead;
  res.writeHead = function (status, ...rest) {
    if (status === 200) {
      this.setHeader("cache-control", PUBLIC_PAGE_CACHE_CONTROL);
      const vary = this.getHeader("vary");
      this.setHeader("vary", vary ? `${vary}, Cookie` : "Cookie");
    }
    return writeHead.call(this, status, ...rest);
  };
}

const app = next({ dev, hostname, port, dir: fileURLToPath(new URL(".", import.meta.url)) });
const handle = app.getRequestHandler();
await app.prepare();
const upgradeNext = app.getUpgradeHandler();

const server = createServer((req, res) => {
  if (proxied.test(req.url ?? "")) proxy(req, res);
  else {
    cachePublicPage(req, res);
    handle(req, res);
  }
});
server.on("upgrade", (req, socket, head) => {
  if (proxied.test(req.url ?? "")) proxyUpgrade(req, socket, head);
  else upgradeNext(req, socket, head);
});
server.listen(port, hostname, () => {
  console.log(`  site on http://${hostname}:${port} (API at ${apiOrigin.origin})`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
