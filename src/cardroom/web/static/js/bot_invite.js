// The creator of a table that waits may invite a bot a player brought to a free seat, and
// reads its answer in words (docs/bots-api.md): accepted, declined, not answered in time.
import { _, LANG, clear, el, readJson, startI18n, tableAddress } from "./common.js";

const $ = (id) => document.getElementById(id);
const { table: TABLE, watch: WATCH } = tableAddress();
const LOOK_MS = 2000;

let form = null;

function buildForm(box) {
  const seat = el("select", { id: "bot-invite-seat" });
  const name = el("input", { id: "bot-invite-name", maxlength: "24", autocomplete: "off", placeholder: _("any bot") });
  const error = el("p", { id: "bot-invite-error", class: "error", role: "alert" });
  const made = el("form", { id: "bot-invite-form", class: "bot-invite-form" },
    el("label", { for: "bot-invite-seat" }, _("Seat"), " "), seat, " ",
    el("label", { for: "bot-invite-name" }, _("Bot's name"), " "), name, " ",
    el("button", { type: "submit" }, _("Invite")), error);
  made.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      await readJson(await fetch(`/api/tables/${encodeURIComponent(TABLE)}/seats/${Number(seat.value)}/invite?lang=${LANG}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ bot: name.value.trim() || "*" }),
        credentials: "same-origin",
      }));
      await look();
    } catch (err) {
      error.textContent = err.message;
    }
  });
  box.append(el("h2", {}, _("Invite a bot")),
    el("p", { class: "hint" }, _("A program a player brought may take a free seat. Leave the name empty for any bot that plays this game.")),
    made, el("ul", { id: "bot-invite-answers", class: "bot-invite-answers", "aria-live": "polite" }));
  return { seat, made };
}

function show(box, data) {
  box.hidden = !(data.free.length || data.invites.length);
  if (!form) form = buildForm(box);
  const wanted = data.free.map(String);
  const have = [...form.seat.options].map((o) => o.value);
  if (wanted.join() !== have.join()) {
    const chosen = form.seat.value;
    clear(form.seat);
    for (const s of data.free) form.seat.append(el("option", { value: String(s) }, _("Seat {number}", { number: s + 1 })));
    if (wanted.includes(chosen)) form.seat.value = chosen;
  }
  form.made.hidden = !data.free.length;
  const answers = $("bot-invite-answers");
  const key = JSON.stringify(data.invites.map((i) => [i.seat, i.state, i.text]));
  if (answers.dataset.shown !== key) {
    answers.dataset.shown = key;
    clear(answers);
    for (const inv of data.invites) answers.append(el("li", { "data-seat": inv.seat, "data-state": inv.state }, inv.text));
  }
}

/** One look at the invitations; whether to look again (the table still waits). */
async function look() {
  const box = $("bot-invite");
  if (!box || WATCH) return false;
  let data;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/invites?lang=${LANG}`, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 404) { box.hidden = true; return false; }
    data = await readJson(response);
    if (!data.creator) { box.hidden = true; return false; }  // only the creator invites
  } catch {
    return true;  // the server is away a moment: look again
  }
  show(box, data);
  return data.free.length > 0 || data.invites.some((i) => i.state === "waiting");
}

async function keepLooking() {
  if (await look()) setTimeout(keepLooking, LOOK_MS);
}

await startI18n();
keepLooking();
