// The NPC commitment check, in the reader's browser: SHA-256 of the salt, a newline and the
// canonical JSON as sealed (service/scene.py `commitment`), compared with the digest published
// when the GM sealed the orders. No server is asked: the Web Crypto API computes it here.
"use strict";

async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function check(form) {
  const verdict = form.querySelector(".verdict");
  const salt = form.querySelector(".salt").value;
  const canonical = form.querySelector(".canonical").value;
  if (!window.crypto || !crypto.subtle) {
    verdict.textContent = "This browser cannot compute SHA-256 here (the page needs HTTPS or localhost).";
    return;
  }
  const computed = await sha256Hex(salt + "\n" + canonical);
  const matches = computed === form.dataset.digest;
  verdict.textContent = (matches ? "matches" : "does not match") +
    ": the SHA-256 of the salt and these orders is " + computed + ".";
  verdict.classList.toggle("ok", matches);
  verdict.classList.toggle("bad", !matches);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form.check")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      check(form);
    });
    check(form);
  }
});
