// The colour theme: the system's (the default), light or dark, picked in the top bar and
// remembered by the browser (localStorage). A choice sets data-theme on <html>, which
// style.css turns into its color-scheme; "system" removes it. Applied when this module
// loads, before the page's first drawing.

const KEY = "adjacency.theme";
const CHOICES = ["system", "light", "dark"];

export function savedTheme() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (err) { /* private mode */ }
  return CHOICES.includes(stored) ? stored : "system";
}

export function applyTheme(choice) {
  const root = document.documentElement;
  if (choice === "light" || choice === "dark") root.dataset.theme = choice;
  else delete root.dataset.theme;
}

// Wire the <select> of the three choices: it shows the saved one and saves a change.
export function themePicker(select) {
  select.value = savedTheme();
  select.addEventListener("change", () => {
    const choice = CHOICES.includes(select.value) ? select.value : "system";
    try { localStorage.setItem(KEY, choice); } catch (err) { /* private mode */ }
    applyTheme(choice);
  });
}

applyTheme(savedTheme());
