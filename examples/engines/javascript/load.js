'use strict';
// The bot a command line names, for the runner (engine.js) and the league client
// (league.js) alike: an example bot of bots.js by its name, or else the path of your own
// module that exports move(board, deadline).
const path = require('node:path');
const bots = require('./bots');

function loadBot(choice) {
  if (Object.hasOwn(bots, choice)) return bots[choice];
  const module = require(path.resolve(choice));
  if (typeof module.move !== 'function') throw new Error(`${choice} exports no move(board, deadline)`);
  return module.move;
}

module.exports = { loadBot };
