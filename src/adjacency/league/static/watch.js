// Watching one game live.
import { GameView } from "./game-view.js";

const id = Number(location.pathname.split("/").pop());
new GameView(document).follow(id);
