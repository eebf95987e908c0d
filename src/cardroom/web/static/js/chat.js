// The table chat panel (the turn-based and the real-time table pages): seated players write, everyone reads.
// Lines are put in with text nodes only (el()), never as HTML.
import { LANG, _, el, personName } from "./common.js";

const TEXT_MAX = 300;
const SHOWN_MAX = 200;

/**
 * Wire the page's chat panel (#chat…) to a send function; returns take(frame), which handles
 * the chat frames (and the errors of chat messages) and tells whether it did.
 */
export function mountChat(send, { watching = false, collapsed = false } = {}) {
  const box = document.getElementById("chat");
  if (!box) return () => false;
  const lines = document.getElementById("chat-lines");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  const error = document.getElementById("chat-error");
  const toggle = document.getElementById("chat-toggle");
  const body = document.getElementById("chat-body");
  const unread = document.getElementById("chat-unread");
  const shown = new Map(); // n -> <li>
  let you = null;
  let nextId = 1;
  let unseen = 0;

  function setOpen(open) {
    body.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      unseen = 0;
      unread.textContent = "";
      lines.scrollTop = lines.scrollHeight;
    }
  }
  toggle.addEventListener("click", () => setOpen(body.hidden));
  setOpen(!collapsed);

  function showError(text) {
    error.textContent = text || "";
  }

  function canWrite() {
    return !watching && you !== null && you !== undefined;
  }

  function refreshInput() {
    const ok = canWrite();
    input.disabled = !ok;
    form.querySelector("button").disabled = !ok;
    input.placeholder = ok ? _("Say something to the table") : _("Only the players can write here");
  }
  refreshInput();

  function timeOf(at) {
    const d = new Date(Number(at) * 1000);
    return Number.isFinite(d.getTime()) ? d.toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" }) : "";
  }

  function add(line) {
    const n = Number(line.n);
    if (!Number.isInteger(n) || shown.has(n)) return;
    const item = el("li", { class: line.seat === you ? "chat-line mine" : "chat-line", "data-n": n },
      el("time", { class: "chat-time muted", datetime: new Date(Number(line.at) * 1000).toISOString() }, timeOf(line.at)),
      " ",
      el("span", { class: "chat-name" }, `${personName(String(line.name ?? ""))}:`),
      " ",
      el("span", { class: "chat-text" }, String(line.text ?? "")));
    // keep the lines in their order at the table (another server's line may come a bit late)
    let before = null;
    for (const [k, node] of shown) if (k > n && (!before || k < Number(before.dataset.n))) before = node;
    lines.insertBefore(item, before);
    shown.set(n, item);
    while (shown.size > SHOWN_MAX) {
      const oldest = Math.min(...shown.keys());
      shown.get(oldest).remove();
      shown.delete(oldest);
    }
    lines.scrollTop = lines.scrollHeight;
    if (body.hidden) {
      unseen += 1;
      unread.textContent = ` (${unseen})`;
    }
  }

  // Esc gives the keys back to the game
  input.addEventListener("keydown", (ev) => { if (ev.key === "Escape") input.blur(); });

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > TEXT_MAX) {
      showError(_("A message has at most {max} characters.", { max: TEXT_MAX }));
      return;
    }
    if (send({ type: "chat", text, id: `chat-${nextId++}` })) {
      input.value = "";
      showError("");
    }
  });

  return function take(frame) {
    if (frame.type === "state") {
      if (frame.you !== you) {
        you = frame.you ?? null;
        refreshInput();
      }
      return false;
    }
    if (frame.type === "chat-history") {
      lines.setAttribute("aria-live", "off"); // the history is not read out line by line
      for (const line of frame.lines || []) add(line);
      setTimeout(() => lines.setAttribute("aria-live", "polite"), 0);
      return true;
    }
    if (frame.type === "chat") {
      add(frame);
      return true;
    }
    if (frame.type === "error" && typeof frame.ref === "string" && frame.ref.startsWith("chat-")) {
      showError(frame.message || _("The server refused that."));
      return true;
    }
    return false;
  };
}

