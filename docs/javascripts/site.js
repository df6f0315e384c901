// The site's own additions to Material's script (extra_javascript in mkdocs.yml): what
// axe-core asks of the parts the theme's script draws (tests/docs/test_site.py), also
// when it draws them later than this script runs.
//
// - Each code block's copy button sits in a <nav class="md-code__nav">: landmarks
//   without names, alike (landmark-unique). One button is no navigation: role="none".
// - A table wider than the page scrolls in its .md-typeset__scrollwrap, which a person
//   without a mouse could not scroll (scrollable-region-focusable): such a wrap takes
//   the focus (arrow keys scroll it), a region named by the table's place on the page
//   (names of landmarks differ).
function fix() {
  for (const nav of document.querySelectorAll("nav.md-code__nav:not([role])")) nav.setAttribute("role", "none");
  for (const [index, wrap] of document.querySelectorAll(".md-typeset__scrollwrap").entries()) {
    const scrolls = wrap.scrollWidth > wrap.clientWidth;
    if (scrolls === wrap.hasAttribute("tabindex")) continue;
    if (scrolls) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", `Table ${index + 1} (scrolls sideways)`);
    } else {
      for (const name of ["tabindex", "role", "aria-label"]) wrap.removeAttribute(name);
    }
  }
}

new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
window.addEventListener("resize", fix);
fix();
