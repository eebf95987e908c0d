// The player page: name, my games and statistics, another device, password, sign in, leaving.
import { _, LANG, clear, el, num, ratingText, readJson, startI18n } from "./common.js";
import { BOT_WORDS, GAME_NAMES } from "./games.js";
import { startBots } from "./me_bots.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";
function N_(msg) {
  return msg;
}

const FORMER = N_("a former player");


async function post(url, body) {
  return readJson(await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }));
}

// WebAuthn's binary fields travel as base64url in the JSON the server reads and writes.
function fromB64(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function credentialJson(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) response.attestationObject = toB64(r.attestationObject);
  if (r.authenticatorData) response.authenticatorData = toB64(r.authenticatorData);
  if (r.signature) response.signature = toB64(r.signature);
  if (r.userHandle) response.userHandle = toB64(r.userHandle);
  if (r.getTransports) response.transports = r.getTransports();
  return { id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response, clientExtensionResults: cred.getClientExtensionResults() };
}

async function addPasskey() {
  const options = await post("/api/passkey/register-options", { confirm: true });
  options.challenge = fromB64(options.challenge);
  options.user.id = fromB64(options.user.id);
  for (const c of options.excludeCredentials || []) c.id = fromB64(c.id);
  const cred = await navigator.credentials.create({ publicKey: options });
  await post("/api/passkey/register", { credential: credentialJson(cred) });
}

async function passkeySignIn() {
  const options = await post("/api/passkey/signin-options", { confirm: true });
  options.challenge = fromB64(options.challenge);
  for (const c of options.allowCredentials || []) c.id = fromB64(c.id);
  const cred = await navigator.credentials.get({ publicKey: options });
  return post("/api/passkey/signin", { credential: credentialJson(cred) });
}

function showPlayer(player) {
  $("me-new").hidden = Boolean(player && player.name);
  if (player && player.name) {
    $("me-name").value = player.name;
    localStorage.setItem(NAME_KEY, player.name);
  }
  for (const id of ["device-box", "keys-box", "bots-box", "password-box", "leave-box"]) $(id).hidden = !(player && player.name);
  $("password-state").textContent = !(player && player.protected)
    ? _("No password yet: if this browser forgets you, a password lets you sign in again.")
    : player.signs_in
      ? _("A password protects your player: you can sign in with it on any browser.")
      : _("Another player signs in with this name: choose another name to sign in with your password again.");
}

const HOW = {
  new: N_("made here"),
  move: N_("moved by a link"),
  password: N_("signed in with a password"),
  passkey: N_("signed in with a passkey"),
};

// A browser's User-Agent in short: its browser and system ("Firefox, Android"), or "".
function agentText(agent) {
  const browsers = [[/Edg\//, "Edge"], [/Firefox\//, "Firefox"], [/Chrom(e|ium)\//, "Chrome"], [/Safari\//, "Safari"]];
  const systems = [[/Android/, "Android"], [/iPhone|iPad/, "iOS"], [/Windows/, "Windows"], [/Mac OS X/, "macOS"], [/Linux/, "Linux"]];
  const found = [browsers, systems].map((list) => (list.find(([re]) => re.test(agent)) || [null, ""])[1]);
  return found.filter(Boolean).join(", ");
}

function showKeys(keys) {
  const when = new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" });
  clear($("keys"));
  for (const key of keys) {
    const said = [_("since {date}", { date: when.format(new Date(key.created_at * 1000)) })];
    if (key.last_used) said.push(_("last seen {date}", { date: when.format(new Date(key.last_used * 1000)) }));
    if (HOW[key.how]) said.push(_(HOW[key.how]));
    const remove = el("button", { type: "button", class: "small danger" }, key.current ? _("Remove this browser") : _("Remove"));
    remove.addEventListener("click", async () => {
      $("keys-error").textContent = "";
      try {
        const out = await post("/api/me/keys/revoke", { key: key.id });
        if (key.current) location.assign("/me");
        else showKeys(out.keys);
      } catch (err) {
        $("keys-error").textContent = err.message;
      }
    });
    $("keys").append(el("li", {},
      el("strong", { title: key.agent }, key.current ? _("This browser") : agentText(key.agent) || _("A browser")), " ",
      el("span", { class: "hint" }, said.join(" · ")), " ", remove));
  }
}

function resultText(game) {
  const r = game.result || {};
  const parts = [];
  if (r.won === true) parts.push(_("won"));
  else if (r.won === false && game.status === "over") parts.push(_("lost"));
  if (typeof r.chips === "number") parts.push(_("chips: {n}", { n: num(r.chips) }));
  if (game.status !== "over") parts.push(_("not finished"));
  if (Array.isArray(game.rating)) parts.push(_("rating {before} → {after}", { before: ratingText(game.rating[0]), after: ratingText(game.rating[1]) }));
  if (game.unrated) parts.push(game.unrated); // a rated game that did not count, and why (the server's words)
  return parts.join(", ");
}

// The creator of a table not finished may take a person's seat back: a new link, or a bot.
function seatControls(game) {
  const box = el("div", { class: "seat-controls" });
  const out = el("p", { class: "hint", role: "status" });
  game.kinds.forEach((kind, seat) => {
    if (seat === 0 || kind !== "person") return;
    const reissue = el("button", { type: "button", class: "small" }, _("New link for seat {n}", { n: seat + 1 }));
    const bot = el("button", { type: "button", class: "small" }, _("Give seat {n} to a bot", { n: seat + 1 }));
    reissue.addEventListener("click", async () => {
      try {
        const data = await post(`/api/tables/${game.table}/seats/${seat}/link`, {});
        out.textContent = _("Send this new link; the old one no longer works: {url}", { url: location.origin + data.url });
      } catch (err) {
        out.textContent = err.message;
      }
    });
    bot.addEventListener("click", async () => {
      try {
        await post(`/api/tables/${game.table}/seats/${seat}/bot`, {});
        out.textContent = _("Nobody's link opens seat {n} any more: a bot plays it while its person is away.", { n: seat + 1 });
      } catch (err) {
        out.textContent = err.message;
      }
    });
    box.append(reissue);
    if (!game.rated) box.append(" ", bot); // a rated game is not handed to a bot (the server refuses it)
  });
  box.append(out);
  return box;
}

function showGames(games) {
  const body = $("games-body");
  clear(body);
  $("games").hidden = games.length === 0;
  $("games-none").hidden = games.length > 0;
  const when = new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" });
  for (const game of games) {
    const people = game.people.map((n, i) => (n === FORMER ? _(FORMER) : n || (game.kinds[i] === "bot" ? _("Bot {number}", { number: i + 1 }) : _("free seat"))));
    // a finished game: watch it again, and download its record (what cardroom replay reads)
    const parts = [
      game.replay ? el("a", { href: game.replay }, _("Replay")) : null,
      game.record ? el("a", { href: game.record, download: "", class: "record-link" }, _("Record")) : null,
    ].filter(Boolean);
    const link = parts.length ? el("span", {}, ...parts.flatMap((a, i) => (i ? [" · ", a] : [a]))) : el("span", {}, "—");
    const result = el("td", {}, resultText(game));
    if (game.seat === 0 && game.status !== "over") result.append(seatControls(game));
    body.append(el("tr", {},
      el("td", {}, _(GAME_NAMES[game.game] || game.game)),
      el("td", {}, when.format(new Date(game.created_at * 1000))),
      el("td", {}, people.join(", ")),
      result,
      el("td", {}, game.status === "over" ? link : el("a", { href: `/t/${game.table}` }, _("Go to the table")))));
  }
}

function showStats(stats) {
  const list = $("stats");
  clear(list);
  for (const [game, s] of Object.entries(stats || {})) {
    const bits = [_("games played: {n}", { n: s.games })];
    if ("won" in s) bits.push(_("games won: {n}", { n: s.won }));
    if (s.rounds_won !== undefined) bits.push(_("rounds won: {n} of {m}", { n: s.rounds_won, m: s.rounds }));
    if (s.mean_chips !== undefined && s.mean_chips !== null) bits.push(_("chips per round on average: {n}", { n: num(s.mean_chips, 1) }));
    if (s.grand_operas !== undefined) bits.push(_("Grand Opéras: {n}", { n: s.grand_operas }));
    if (s.boxes !== undefined) bits.push(_("boxes taken: {n}", { n: s.boxes }));
    if (s.slaps_won !== undefined) bits.push(_("slaps won: {n}", { n: s.slaps_won }));
    if (s.mean_reaction !== undefined && s.mean_reaction !== null) bits.push(_("mean time to play after a change: {n} s", { n: num(s.mean_reaction, 2) }));
    if (s.rating !== undefined && s.rating !== null) {
      bits.push(_("rating: {n}", { n: ratingText(s.rating, s.provisional) }));
      if (s.provisional) bits.push(_("provisional until {n} rated games", { n: s.provisional_games }));
    }
    if (s.plays_like) bits.push(_("you play like {bot} ({n})", { bot: _(BOT_WORDS[s.plays_like] || s.plays_like), n: ratingText(s.plays_like_rating) }));
    list.append(el("li", {}, el("strong", {}, _(GAME_NAMES[game] || game)), " ", bits.join(", ")));
  }
}

async function load() {
  const me = await readJson(await fetch("/api/me"));
  showPlayer(me.player);
  if (me.player) showKeys((await readJson(await fetch("/api/me/keys"))).keys);
  const data = await readJson(await fetch("/api/me/games"));
  showGames(data.games || []);
  showStats(data.stats);
}

function onSubmit(form, errorBox, work) {
  $(form).addEventListener("submit", async (event) => {
    event.preventDefault();
    $(errorBox).textContent = "";
    try {
      await work();
    } catch (err) {
      $(errorBox).textContent = err.message;
    }
  });
}

async function main() {
  await startI18n();
  startBots();
  $("move-qr").alt = _("QR code of the link for another device");
  onSubmit("name-form", "name-error", async () => {
    const me = await post("/api/me", { name: $("me-name").value });
    showPlayer(me.player);
    $("me-saved").textContent = _("Saved: the others see you as {name}.", { name: me.player.name });
    const next = new URLSearchParams(location.search).get("next");
    if (next && next.startsWith("/") && !next.startsWith("//")) location.assign(next);
  });
  onSubmit("password-form", "password-error", async () => {
    const me = await post("/api/me/password", { password: $("me-password").value });
    $("me-password").value = "";
    showPlayer(me.player);
  });
  onSubmit("signin-form", "signin-error", async () => {
    const me = await post("/api/signin", { name: $("signin-name").value, password: $("signin-password").value });
    $("signin-password").value = "";
    showPlayer(me.player);
    await load();
  });
  const passkeys = Boolean(window.PublicKeyCredential && navigator.credentials);
  $("passkey-add").hidden = !passkeys;
  $("passkey-signin").hidden = !passkeys;
  $("passkey-add").addEventListener("click", async () => {
    $("passkey-out").textContent = "";
    try {
      await addPasskey();
      $("passkey-out").textContent = _("Passkey added: sign in with it on this device whenever you need to.");
    } catch (err) {
      $("passkey-out").textContent = err.name === "NotAllowedError" ? _("No passkey was made.") : err.message;
    }
  });
  $("passkey-signin").addEventListener("click", async () => {
    $("signin-error").textContent = "";
    try {
      const me = await passkeySignIn();
      showPlayer(me.player);
      await load();
    } catch (err) {
      $("signin-error").textContent = err.name === "NotAllowedError" ? _("No passkey was used.") : err.message;
    }
  });
  $("move").addEventListener("click", async () => {
    $("move-error").textContent = "";
    try {
      const out = await post("/api/me/move", { confirm: true });
      $("move-url").value = out.url;
      $("move-qr").src = out.qr;
      $("move-out").hidden = false;
    } catch (err) {
      $("move-error").textContent = err.message;
    }
  });
  $("leave").addEventListener("click", async () => {
    if (!window.confirm(_("Delete your player? Your name disappears from every game; this cannot be undone."))) return;
    try {
      await post("/api/me/delete", { confirm: true });
      localStorage.removeItem(NAME_KEY);
      location.assign("/");
    } catch (err) {
      $("leave-error").textContent = err.message;
    }
  });
  try {
    await load();
  } catch (err) {
    $("name-error").textContent = err.message;
  }
}

main();
