// The game page's way into the search lab: open /lab on the position shown (a game's
// shown position or the editor's), as position text checked by the server.

export async function openLab(api, position) {
  const tab = window.open("", "_blank"); // opened now, inside the click, so it is not blocked
  let url = "/lab";
  if (position) {
    const { rows, cols, cells, turn } = position;
    const plies = position.plies_left ?? position.plies;
    try {
      const { fen } = await api.checkPosition({ rows, cols, cells, turn, plies_left: plies });
      if (fen) url += `?fen=${encodeURIComponent(fen)}`;
    } catch (err) {
      // an impossible position: the lab opens on the start position instead
    }
  }
  if (tab) tab.location.href = url;
  else window.location.href = url;
}
