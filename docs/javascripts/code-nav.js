// Material's copy button sits in a <nav class="md-code__nav"> of each code block, made by
// the theme's own script: landmarks without names, alike (axe-core: landmark-unique). One
// button is no navigation, so each of them is marked as no landmark (role="none"), also
// when the theme draws it later than this script runs.
function plain(root) {
  for (const nav of root.querySelectorAll("nav.md-code__nav:not([role])")) nav.setAttribute("role", "none");
}

new MutationObserver(() => plain(document)).observe(document.body, { childList: true, subtree: true });
plain(document);
