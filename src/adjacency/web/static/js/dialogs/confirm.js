// The confirmation dialog: a question with its own "yes" button and Cancel. Resolves
// true only for the yes button (Cancel, Escape and closing resolve false).

import { $ } from "../dom.js";

export function confirmAction({ title, text, yes }) {
  const dialog = $("#dlg-confirm");
  $("#confirm-title").textContent = title;
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = yes;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
    $("#confirm-no").focus();
  });
}
