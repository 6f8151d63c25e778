// An admin's live connection for bench/instances.sh: connects to one instance's /ws, signs in
// with RIFA_BENCH_TOKEN, and on SIGTERM writes the ids of the purchases it heard of as JSON
// ({"authenticated": true, "purchase_ids": [...]}) to the file named by its second argument.
//
//   node bench/live-listener.mjs http://127.0.0.1:PORT OUT.json
import { writeFileSync } from "node:fs";

const [base, out] = process.argv.slice(2);
if (!base || !out || !process.env.RIFA_BENCH_TOKEN) {
  console.error("usage: RIFA_BENCH_TOKEN=… node bench/live-listener.mjs API_URL OUT.json");
  process.exit(2);
}
const heard = [];
let authenticated = false;
let closed = null;
const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws`);
socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "admin_auth", token: process.env.RIFA_BENCH_TOKEN })));
socket.addEventListener("message", (event) => {
  const message = JSON.parse(String(event.data));
  if (message.type === "authenticated") {
    authenticated = true;
    console.log("listening");
  } else if (message.type === "new_purchase") {
    heard.push(message.data.purchaseId);
  }
});
socket.addEventListener("close", (event) => {
  closed = { code: event.code, reason: event.reason };
});
process.on("SIGTERM", () => {
  writeFileSync(out, JSON.stringify({ authenticated, closed, purchase_ids: heard }));
  process.exit(0);
});
