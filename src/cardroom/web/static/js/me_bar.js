// The lobby knows who you are: your player's name fills the name fields (asked once).
import { readJson } from "./common.js";

const NAME_KEY = "cardroom.name";

async function main() {
  try {
    const me = await readJson(await fetch("/api/me"));
    const name = me.player && me.player.name;
    if (!name) return;
    localStorage.setItem(NAME_KEY, name);
    for (const id of ["f-name", "rt-name"]) {
      const input = document.getElementById(id);
      if (input) input.value = name;
    }
  } catch {
    // the lobby works without it
  }
}

main();
