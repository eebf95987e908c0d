// The page's heartbeat in Node (tests/web/test_page_heartbeat.py): a fake WebSocket and clock.
let now = 0;
const timers = [];
Date.now = () => now;
globalThis.setTimeout = (fn, ms) => { timers.push({ at: now + ms, fn, every: 0 }); return timers.length; };
globalThis.setInterval = (fn, ms) => { timers.push({ at: now + ms, fn, every: ms }); return timers.length; };
globalThis.clearInterval = (id) => { if (id && timers[id - 1]) timers[id - 1].fn = null; };
globalThis.clearTimeout = globalThis.clearInterval;
globalThis.location = { search: "", protocol: "http:", host: "example" };
const texts = [];
const conn = { set textContent(v) { texts.push(v); }, dataset: {} };
globalThis.document = {
  cookie: "", documentElement: { lang: "en" }, getElementById: () => conn,
  addEventListener: () => {}, querySelector: () => null, querySelectorAll: () => [],
};
globalThis.navigator = { languages: ["en"], language: "en" };
const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.on = {}; sockets.push(this); }
  addEventListener(kind, fn) { (this.on[kind] ||= []).push(fn); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.closed = true; }
  fire(kind, ev = {}) { for (const fn of this.on[kind] || []) fn(ev); }
}
globalThis.WebSocket = FakeSocket;
function advance(ms) {
  const end = now + ms;
  for (;;) {
    const due = timers.filter((t) => t.fn && t.at <= end).sort((a, b) => a.at - b.at)[0];
    if (!due) break;
    now = due.at;
    const fn = due.fn;
    if (due.every) due.at += due.every; else due.fn = null;
    fn();
  }
  now = end;
}
const { tableSocket } = await import(process.argv[2]);
const frames = [];
const socket = tableSocket("T1", false, { onFrame: (f) => frames.push(f) });
socket.connect();
const first = sockets[0];
first.readyState = 1;
first.fire("open");
advance(2100);
const pinged = first.sent.filter((m) => m.type === "ping").length;
first.fire("message", { data: JSON.stringify({ type: "pong", ref: "hb1" }) });
advance(3000);
const aliveAfterPong = sockets.length;
advance(7000);  // nothing more from the server
const said = texts.includes("no word from the server for a few seconds: reconnecting…");
advance(3000);  // the reconnect's delay
console.log(JSON.stringify({ pinged, aliveAfterPong, said, sockets: sockets.length,
  firstClosed: Boolean(first.closed), pongsShown: frames.filter((f) => f.type === "pong").length }));
