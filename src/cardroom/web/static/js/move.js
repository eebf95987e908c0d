// A move link's page: nothing changes until the person confirms here (a same-origin JSON POST).
import { readJson, startI18n } from "./common.js";

const $ = (id) => document.getElementById(id);

async function confirmMove() {
  const secret = location.pathname.split("/").pop();
  $("move-error").textContent = "";
  $("move-confirm").disabled = true;
  try {
    await readJson(await fetch(`/api/move/${encodeURIComponent(secret)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ confirm: true }),
    }));
    location.assign("/me");
  } catch (err) {
    $("move-error").textContent = err.message;
    $("move-confirm").disabled = false;
  }
}

await startI18n();
$("move-confirm").addEventListener("click", confirmMove);
