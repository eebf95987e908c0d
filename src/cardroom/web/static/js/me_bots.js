// The player page's bots (docs/bots-api.md): make a bot, make a token (shown once), revoke one,
// choose what it accepts (invitations, Play now, rated or friendly games, which games).
import { _, clear, el, readJson } from "./common.js";
import { GAME_NAMES } from "./games.js";

const $ = (id) => document.getElementById(id);

async function post(url, body) {
  return readJson(await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }));
}

function showBots(bots) {
  const list = clear($("bots"));
  for (const bot of bots) {
    const tokens = el("ul", { class: "keys" });
    for (const token of bot.tokens) {
      const revoke = el("button", { type: "button", class: "small danger" }, _("Revoke"));
      revoke.addEventListener("click", async () => {
        $("bots-error").textContent = "";
        try {
          await post(`/api/me/bots/${encodeURIComponent(bot.id)}/tokens/revoke`, { token: token.id });
          await loadBots();
        } catch (err) {
          $("bots-error").textContent = err.message;
        }
      });
      tokens.append(el("li", {}, el("code", {}, token.id), " ", token.label || "", " ", revoke));
    }
    const make = el("button", { type: "button", class: "small" }, _("New token"));
    const shown = el("p", { class: "hint", role: "status" });
    make.addEventListener("click", async () => {
      $("bots-error").textContent = "";
      try {
        const made = await post(`/api/me/bots/${encodeURIComponent(bot.id)}/tokens`, {});
        await loadBots();
        const again = document.querySelector(`[data-bot="${CSS.escape(bot.id)}"] .token-shown`);
        if (again) {
          again.textContent = _("The token, shown this once: {token}", { token: made.token });
        }
      } catch (err) {
        $("bots-error").textContent = err.message;
      }
    });
    shown.classList.add("token-shown");
    list.append(el("li", { "data-bot": bot.id },
      el("strong", {}, bot.name), " ", _("(a program)"), " ", make, shown, tokens, acceptsBox(bot)));
  }
}

const ACCEPTS = [
  ["invitations", () => _("invitations to a table's seat")],
  ["play_now", () => _("Play now matches (they are rated)")],
  ["rated", () => _("rated games")],
  ["friendly", () => _("friendly games")],
];

/** What the bot accepts, as boxes its owner ticks; each change is saved at once. */
function acceptsBox(bot) {
  const chosen = bot.accepts;
  const status = el("span", { class: "hint", role: "status" });
  const box = el("fieldset", { class: "bot-accepts", "data-accepts-of": bot.id }, el("legend", {}, _("It accepts")));
  const ticks = {};
  for (const [key, words] of ACCEPTS) {
    ticks[key] = el("input", { type: "checkbox", "data-accepts": key, checked: Boolean(chosen[key]) });
    box.append(el("label", { class: "check" }, ticks[key], " ", words()));
  }
  const games = Object.entries(GAME_NAMES).map(([name, title]) => {
    const input = el("input", { type: "checkbox", "data-game": name, checked: !chosen.games.length || chosen.games.includes(name) });
    box.append(el("label", { class: "check" }, input, " ", _(title)));
    return input;
  });
  box.append(status);
  box.addEventListener("change", async () => {
    status.textContent = "";
    $("bots-error").textContent = "";
    const played = games.filter((g) => g.checked).map((g) => g.dataset.game);
    if (!played.length) { status.textContent = _("Tick at least one game."); return; }
    const body = Object.fromEntries(ACCEPTS.map(([key]) => [key, ticks[key].checked]));
    body.games = played.length === games.length ? [] : played;
    try {
      await post(`/api/me/bots/${encodeURIComponent(bot.id)}/accepts`, body);
      status.textContent = _("Saved.");
    } catch (err) {
      $("bots-error").textContent = err.message;
    }
  });
  return box;
}

async function loadBots() {
  try {
    const data = await readJson(await fetch("/api/me/bots"));
    showBots(data.bots);
  } catch (err) {
    $("bots-error").textContent = err.message;
  }
}

/** Show the player's bots and wire the form that makes one (after the page's words are in). */
export async function startBots() {
  $("bot-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("bots-error").textContent = "";
    try {
      await post("/api/me/bots", { name: $("bot-name").value });
      $("bot-name").value = "";
      await loadBots();
    } catch (err) {
      $("bots-error").textContent = err.message;
    }
  });
  await loadBots();
}
