// The player page's bots (docs/bots-api.md): make a bot, make a token (shown once), revoke one.
import { _, clear, el, readJson } from "./common.js";

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
      el("strong", {}, bot.name), " ", _("(a program)"), " ", make, shown, tokens));
  }
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
