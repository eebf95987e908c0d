// Play now: a button per game, the wait for the other people, the leaderboards.
import { _, clear, el, ngettext, personName, ratingText, readJson, startI18n } from "./common.js";
import { BOT_WORDS, GAME_NAMES, isRealtime } from "./games.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";
let polling = null;

async function post(url, body) {
  return readJson(await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
}

function showWaiting(waiting) {
  if (waiting && waiting.table) {
    location.assign(`/t/${waiting.table}`);
    return;
  }
  $("waiting").hidden = !waiting;
  for (const b of document.querySelectorAll(".play-button")) b.disabled = Boolean(waiting);
  if (!waiting) {
    if (polling) clearInterval(polling);
    polling = null;
    return;
  }
  const now = Date.now() / 1000;
  const seconds = Math.max(0, Math.round(now - waiting.since));
  const game = _(GAME_NAMES[waiting.game]);
  $("waiting-text").textContent = _("Waiting for other players for {game}… ({n} s)", { game, n: seconds });
  const others = waiting.others || 0;
  $("waiting-count").textContent = others
    ? ngettext("{n} other person is waiting for {game}.", "{n} other people are waiting for {game}.", others, { game })
    : _("Nobody else is waiting for {game} right now.", { game });
  const left = Math.max(1, Math.round((waiting.bots_at || now) - now));
  const bot = _(BOT_WORDS[waiting.level] || BOT_WORDS.medium);
  const alone = isRealtime(waiting.game);
  $("waiting-bot").textContent = alone
    ? ngettext("If nobody comes, you play {bot} in about {n} second.", "If nobody comes, you play {bot} in about {n} seconds.", left, { bot })
    : ngettext("If the table is not full, bots take the empty seats in about {n} second.", "If the table is not full, bots take the empty seats in about {n} seconds.", left);
  $("bot-now").textContent = alone ? _("Play {bot} now", { bot }) : _("Start now with bots");
  if (!polling) polling = setInterval(poll, 1000);
}

async function poll() {
  try {
    showWaiting((await readJson(await fetch("/api/play"))).waiting);
  } catch (err) {
    $("play-error").textContent = err.message;
  }
}

async function board() {
  const game = $("board-game").value;
  const data = await readJson(await fetch(`/api/leaderboard/${game}`));
  $("board-hint").textContent = _("People appear after {n} rated games; the bots are there at the ratings measured in tournaments.", { n: data.min_games });
  clear($("board"));
  for (const row of data.board) {
    const who = row.bot
      ? el("em", {}, _(BOT_WORDS[row.bot] || row.bot))
      : el("span", {}, personName(row.name), row.tag ? el("small", { class: "tag" }, ` #${row.tag}`) : "");
    $("board").append(el("li", {}, who, " ", el("span", { class: "rating" }, ratingText(row.rating, row.provisional))));
  }
}

async function main() {
  await startI18n();
  for (let n = 2; n <= 8; n += 1) $("nj-size").append(el("option", { value: String(n), selected: n === 4 }, String(n)));
  for (const [game, label] of Object.entries(GAME_NAMES)) $("board-game").append(el("option", { value: game }, _(label)));
  $("board-game").addEventListener("change", () => board().catch((err) => { $("play-error").textContent = err.message; }));
  const me = await readJson(await fetch("/api/me"));
  $("who-box").hidden = Boolean(me.player && me.player.name);
  $("who-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const out = await post("/api/me", { name: $("who-name").value });
      localStorage.setItem(NAME_KEY, out.player.name);
      $("who-box").hidden = true;
    } catch (err) {
      $("who-error").textContent = err.message;
    }
  });
  let asked = null;
  const ask = async (body) => {
    $("play-error").textContent = "";
    asked = body;
    try {
      showWaiting((await post("/api/play", body)).waiting);
    } catch (err) {
      $("play-error").textContent = err.message;
      if (err.status === 401) $("who-box").hidden = false;
    }
  };
  for (const button of document.querySelectorAll(".play-button")) {
    button.addEventListener("click", () => {
      const body = { game: button.dataset.game };
      if (!isRealtime(body.game)) {
        body.size = Number($("nj-size").value);
        body.wait = Number($("nj-wait").value) || 30;
      }
      ask(body);
    });
  }
  $("bot-now").addEventListener("click", async () => {
    const waiting = (await readJson(await fetch("/api/play"))).waiting;
    const body = asked || (waiting ? { game: waiting.game } : null);
    if (!body) return;
    if (!isRealtime(body.game) && waiting) body.size = waiting.size;
    ask({ ...body, bot_now: true });
  });
  $("stop").addEventListener("click", async () => {
    await post("/api/play/leave", { confirm: true });
    showWaiting(null);
  });
  await poll();
  await board();
}

main();
