// The lobby's real-time form: a real-time game's table for two (you and a bot or a friend) with its
// options. Each game's options are its part of the form (its lobby_realtime.html, in the game's folder):
// every field marked data-option is sent as that option (data-unless: left out at that value).
// Against a bot it takes you to your seat at once; a friend's table shows the invitation first.
import { LANG, _, clear, el, readJson } from "./common.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";

/** Show the chosen game's options (the lobby fills the games from the registry); the form can
 * be sent once there is a game to send (not before the page has its games). */
function gameChanged() {
  const game = $("rt-game").value;
  for (const box of document.querySelectorAll(".rt-opts")) box.hidden = box.dataset.game !== game;
  $("rt-create").disabled = !game;
}

function opponentChanged() {
  const bot = $("rt-opponent").value === "bot";
  $("rt-level").disabled = !bot;
  // the service's defaults: a bot takes the seat of a person away from a bot, a friend forfeits
  if (!awayChosen) $("rt-away-then").value = bot ? "bot" : "forfeit";
}

let awayChosen = false; // once the person picks what happens, the opponent no longer changes it

function body() {
  const game = $("rt-game").value;
  const options = { countdown: $("rt-countdown").value || "3" };
  const box = document.querySelector(`.rt-opts[data-game="${CSS.escape(game)}"]`);
  for (const field of box ? box.querySelectorAll("[data-option]") : []) {
    const value = field.type === "checkbox" ? field.checked : field.value;
    if (field.dataset.unless !== undefined && value === field.dataset.unless) continue; // e.g. one game, not a match
    options[field.dataset.option] = value;
  }
  const level = $("rt-level").value;
  const other = $("rt-opponent").value === "bot" ? { kind: "bot", level } : { kind: "person" };
  return {
    game,
    name: $("rt-name").value.trim(),
    players: 2,
    seats: [{ kind: "person" }, other],
    level,
    options,
    public: $("rt-public").checked,
    rated: $("rt-rated").checked,
    takeover_after: Number($("rt-away").value || "60"),
    when_away: $("rt-away-then").value,
  };
}

async function create(event) {
  event.preventDefault();
  const error = $("rt-error");
  error.textContent = "";
  const data = body();
  if (!data.game) return; // the games are not on the page yet (the button waits for them)
  if (!data.name) {
    error.textContent = _("Write your name (1 to 24 characters).");
    $("rt-name").focus();
    return;
  }
  localStorage.setItem(NAME_KEY, data.name);
  $("rt-create").disabled = true;
  try {
    const made = await readJson(await fetch(`/api/tables?lang=${LANG}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
      credentials: "same-origin",
    }));
    const invites = made.invites || [];
    if (!invites.length) {
      location.assign(made.url); // a bot is waiting: straight to the seat
      return;
    }
    $("rt-created").hidden = false;
    $("rt-go").href = made.url;
    $("rt-invite-box").hidden = !invites.length;
    const box = clear($("rt-invite"));
    for (const inv of invites) {
      const href = new URL(inv.url, location.origin).href;
      box.append(el("input", { class: "link-text", value: href, readonly: true, "aria-label": _("Invite link") }));
    }
    $("rt-go").focus();
  } catch (err) {
    error.textContent = err.message;
  } finally {
    $("rt-create").disabled = false;
  }
}

$("rt-name").value = localStorage.getItem(NAME_KEY) || "";
$("rt-game").addEventListener("change", gameChanged);
$("rt-opponent").addEventListener("change", opponentChanged);
$("rt-form").addEventListener("submit", create);
$("rt-away-then").addEventListener("change", () => { awayChosen = true; });
gameChanged();
opponentChanged();
