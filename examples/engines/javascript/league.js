#!/usr/bin/env node
'use strict';
// Joins a league (docs/league.md) directly over its WebSocket protocol, without the adjacency
// package: one connection, every game the server starts for the account, a move for each
// `your_turn` within the budget the server suggests.
//
//   export ADJACENCY_LEAGUE_TOKEN=adjl_...
//   node --experimental-websocket league.js http://127.0.0.1:8780 alphabeta [--games N]
//   node --experimental-websocket league.js http://127.0.0.1:8780 ./my_bot.js   # your module
//
// Node 22 and later have WebSocket built in; Node 20 needs --experimental-websocket. The
// token may also come from a file: --token-file FILE. For a league served with a private
// certificate authority: NODE_EXTRA_CA_CERTS=class-ca.pem node ... https://...
const fs = require('node:fs');
const { Board } = require('./board');
const { Deadline } = require('./deadline');
const { loadBot } = require('./load');

const USE = 0.8; // share of the server's suggested budget the bot may use

function fail(text) {
  console.error(text);
  process.exit(2);
}

function main(argv) {
  if (typeof WebSocket === 'undefined') {
    fail('no WebSocket in this Node: use Node 22+, or Node 20 with --experimental-websocket');
  }
  const positional = [];
  let games = Infinity;
  let token = process.env.ADJACENCY_LEAGUE_TOKEN;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--games') games = Number(argv[++i]);
    else if (argv[i] === '--token-file') token = fs.readFileSync(argv[++i], 'utf8').trim();
    else positional.push(argv[i]);
  }
  const [url, choice = 'alphabeta'] = positional;
  if (!url || !token) fail('usage: league.js URL [greedy|alphabeta|./my_bot.js] [--games N] [--token-file F] (or $ADJACENCY_LEAGUE_TOKEN)');
  let bot;
  try {
    bot = loadBot(choice);
  } catch (error) {
    fail(`no bot named '${choice}': greedy, alphabeta or a module exporting move(board, deadline) (${error.message})`);
  }
  const address = url.replace(/^http/, 'ws').replace(/\/+$/, '') + '/api/league/connect';

  let finished = 0;
  let failures = 0;
  let done = false;
  function connect() {
    const ws = new WebSocket(address, { headers: { Authorization: `Bearer ${token}` } });
    let welcomed = false;
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'welcome') {
        welcomed = true;
        failures = 0;
        console.error(`connected as ${message.name}`);
      } else if (message.type === 'game_start') {
        console.error(`game ${message.game}: ${message.color} against ${message.opponent}`);
      } else if (message.type === 'your_turn') {
        const [cells, side, plies] = message.fen.split(' ');
        const board = Board.fromFen(cells, side, plies);
        let move = null;
        try {
          move = bot(board, new Deadline(message.budget * 1000 * USE));
        } catch (error) {
          // a crash: the server ends the game at once, in the bot's own words
          const detail = String(error && error.stack ? error.stack : error).slice(0, 600); // its message first
          console.error(`the bot failed: ${detail}`);
          ws.send(JSON.stringify({ type: 'failed', game: message.game, termination: 'disconnection', detail }));
          return;
        }
        // an answer that is not a legal move goes as it is: the server judges it illegal
        ws.send(JSON.stringify({ type: 'move', game: message.game, move }));
      } else if (message.type === 'game_end') {
        finished++;
        console.error(`game ${message.game}: ${message.result} (${message.termination}) ${message.detail || ''}`);
        if (finished >= games) {
          done = true;
          ws.close(1000);
        }
      } else if (message.type === 'error') {
        console.error(`the server refused a message: ${message.detail}`);
      }
    };
    let ended = false;
    // Node 20's WebSocket fires only an error (no close) when a connection cannot be made
    // (the server is down or restarting): both end this socket, once, and retry.
    const end = (code) => {
      if (ended) return;
      ended = true;
      if (done) process.exit(0);
      failures = welcomed ? 1 : failures + 1;
      if (failures > 5) {
        console.error(`cannot connect to ${address} (code ${code}): a wrong token, or no server`);
        process.exit(1);
      }
      const delay = Math.min(30, 0.5 * 2 ** (failures - 1));
      console.error(`connection closed (code ${code}); again in ${delay} s`);
      setTimeout(connect, delay * 1000);
    };
    ws.onerror = () => end('none');
    ws.onclose = (event) => end(event.code);
  }
  connect();
}

main(process.argv.slice(2));
