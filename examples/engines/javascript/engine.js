#!/usr/bin/env node
'use strict';
// Runs a bot over the engine protocol (docs/protocol.md) on standard input and output.
//
//   node engine.js greedy            # or alphabeta (the default), or ./my_bot.js: a module
//                                    # that exports move(board, deadline)
//   node engine.js --rules           # test mode: one position per line in, its facts out
//
// Standard output carries protocol lines only (console.log goes to standard error). The bot
// thinks in a worker thread, so `isready` and `stop` are answered at once; when the budget is
// spent or `stop` arrives the runner answers with the bot's last offer, and a bot still busy
// at the next `go` is restarted.
const path = require('node:path');
const readline = require('node:readline');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { Board, parsePosition, parseNumber } = require('./board');
const { Deadline } = require('./deadline');
const bots = require('./bots');
const { loadBot } = require('./load');

const AIM = 0.85; // share of movetime the bot is told it may use; the runner answers at 95%
const BARE_GO_MS = 5000;

for (const name of ['log', 'info', 'debug']) console[name] = console.error; // stdout: protocol only

function send(line) {
  process.stdout.write(line + '\n');
}

function quote(line) {
  const text = line.trim();
  return `'${text.length > 80 ? text.slice(0, 80) + '...' : text}'`;
}

function isLegal(board, move) {
  try {
    board.play(move);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- the worker: runs the bot

function workerMain() {
  const move = loadBot(workerData.bot);
  const stopFlag = new Int32Array(workerData.stop);
  parentPort.postMessage({ type: 'ready' });
  parentPort.on('message', ({ id, fen, budgetMs, maxDepth }) => {
    const [cells, side, plies] = fen.split(' ');
    const board = Board.fromFen(cells, side, plies);
    const deadline = new Deadline(budgetMs === null ? Infinity : budgetMs, maxDepth ?? Infinity, {
      stopped: () => Atomics.load(stopFlag, 0) === id,
      report: (best, text) => parentPort.postMessage({ id, type: 'offer', move: best, text }),
    });
    // A bot that throws has crashed: the error ends the worker, and the runner exits with
    // it (the controller scores the game so and shows the last lines of standard error).
    const answer = move(board, deadline);
    parentPort.postMessage({ id, type: 'done', move: answer });
  });
}

// ---------------------------------------------------------------- the runner: the protocol

function runnerMain(choice) {
  loadBot(choice); // fail at once on a bad name
  const stopFlag = new Int32Array(new SharedArrayBuffer(4));
  let worker = null;
  let workerBusy = false;
  let workerReady = false; // the first worker has loaded the bot
  let readyWaiting = 0; // isready answers held until then
  let position = Board.start();
  let current = null; // the search in progress
  let nextId = 1;

  function startWorker() {
    const w = new Worker(__filename, { workerData: { bot: choice, stop: stopFlag.buffer } });
    w.on('message', (message) => {
      if (w !== worker) return;
      if (message.type === 'ready') {
        workerReady = true;
        for (; readyWaiting > 0; readyWaiting--) send('readyok');
        return;
      }
      if (message.type === 'done') workerBusy = false;
      const search = current;
      if (!search || search.id !== message.id) return;
      if (message.type === 'offer') {
        search.best = message.move;
        if (message.text) send(message.text);
      } else {
        finish(search, message.move, false);
      }
    });
    w.on('error', (error) => {
      console.error('the bot failed:', error);
      process.exit(1); // a crash, not a stand-in move
    });
    return w;
  }

  // Ends a search with exactly one bestmove: the bot's answer, or on stop or timeout its
  // last offer, announced by an info string line (none if it offered nothing: the bot's late
  // return answers then). An infinite search keeps an early answer.
  function finish(search, move, forced) {
    if (search.answered) return;
    if (!forced) {
      search.returned = true;
      search.result = move;
      if (search.infinite && !search.stopRequested) return;
    }
    let answer = search.returned ? search.result : search.best;
    if ((answer === null || answer === undefined) && !search.returned) {
      // nothing returned, nothing offered: no answer; the controller's clock decides
      console.error('the bot has neither returned nor offered a move; the runner sends none');
      Atomics.store(stopFlag, 0, search.id); // deadline.passed() turns true: it answers on return
      search.gaveUp = true;
      if (search.onAnswered) search.onAnswered(); // a waiting quit exits without an answer
      return;
    }
    if (!search.returned) {
      // the bot's own offer, sent for it: said on the protocol and on standard error
      const note = `the bot had not returned; the runner sends its last offer ${answer}`;
      console.error(note);
      send(`info string ${note}`);
    } else if (!isLegal(search.board, answer)) {
      // the bot's own answer goes out as it is: the controller judges it illegal
      console.error(`the bot answered '${answer}', not an empty square`);
      answer = String(answer).replace(/\s+/g, '').slice(0, 32) || '(none)';
    }
    search.answered = true;
    Atomics.store(stopFlag, 0, search.id);
    clearTimeout(search.timer);
    current = null;
    send(`bestmove ${answer}`);
    if (search.onAnswered) search.onAnswered();
  }

  function go(line, args) {
    if (current) return send("info string error: go ignored while searching; send 'stop' first");
    let movetime = null;
    let clock = null;
    let maxDepth = null;
    let infinite = false;
    let limited = false;
    try {
      for (let i = 0; i < args.length; i++) {
        const word = args[i];
        if (word === 'infinite') infinite = true;
        else if (word === 'movetime') movetime = parseNumber(args[++i], word);
        else if (word === 'depth') [maxDepth, limited] = [Math.max(1, parseNumber(args[++i], word)), true];
        else if (word === 'nodes') parseNumber(args[++i], word); // not counted: a bare go's time
        else if (word === 'xtime' || word === 'otime') {
          const ms = parseNumber(args[++i], word);
          if (word[0] === position.turn) clock = ms;
        }
      }
    } catch (error) {
      return send(`info string error: ${quote(line)}: ${error.message}`);
    }
    if (position.isOver()) {
      send(`info string error: the game is over in '${position.fen()}'; no move to make`);
      return send('bestmove (none)');
    }
    let budget; // milliseconds the answer must come within; null: no limit
    if (movetime !== null) budget = movetime;
    else if (infinite) budget = null;
    else if (clock !== null) {
      const movesLeft = Math.max(1, Math.floor((position.pliesLeft + 1) / 2));
      budget = Math.min(clock / movesLeft, clock * 0.8);
    } else budget = limited ? null : BARE_GO_MS;
    if (workerBusy && worker) {
      worker.terminate(); // the last search ignored its deadline: start afresh
      worker = null;
    }
    if (!worker) worker = startWorker();
    const search = { id: nextId++, board: position, infinite, best: null, answered: false };
    current = search;
    if (budget !== null) search.timer = setTimeout(() => finish(search, null, true), Math.max(1, budget * 0.95));
    workerBusy = true;
    worker.postMessage({ id: search.id, fen: position.fen(), budgetMs: budget === null ? null : budget * AIM, maxDepth });
  }

  function handle(line) {
    const tokens = line.trim().split(/[ \t]+/).filter(Boolean);
    if (!tokens.length) return true;
    const words = ['aep', 'isready', 'setoption', 'newgame', 'position', 'go', 'stop', 'quit'];
    const at = tokens.findIndex((t) => words.includes(t)); // "joho isready" is "isready"
    if (at < 0) {
      send(`info string error: unknown command ${quote(line)}`);
      return true;
    }
    const args = tokens.slice(at + 1);
    switch (tokens[at]) {
      case 'aep':
        send(`id name ${path.basename(choice, '.js')} (JavaScript kit)`);
        send('id author the adjacency project');
        send('aepok');
        break;
      case 'isready': // before the first search, once the bot is loaded: its time is its own
        if (workerReady || current) send('readyok');
        else readyWaiting++;
        break;
      case 'setoption':
        send(`info string error: this engine has no options: ${quote(line)}`);
        break;
      case 'position':
        try {
          position = parsePosition(args);
        } catch (error) {
          send(`info string error: ${quote(line)}: ${error.message}`);
        }
        break;
      case 'go':
        go(line, args);
        break;
      case 'stop':
        if (current) {
          current.stopRequested = true;
          finish(current, null, true);
        }
        break;
      case 'quit':
        return false;
      default: // newgame: nothing to forget
    }
    return true;
  }

  worker = startWorker(); // now, so that it is ready when the first `go` comes
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  input.on('line', (line) => {
    let goOn = true;
    try {
      goOn = handle(line);
    } catch (error) {
      console.error(error); // a bug must not end the session: report it and go on
      send(`info string error: internal error on ${quote(line)}: ${error.message}`);
    }
    if (!goOn) quit();
  });
  input.on('close', quit);

  // quit or end of input. A search with a time budget still answers with the bot's own
  // move, at the latest when its budget is spent (so a piped go then quit shows what the
  // bot plays, not a stand-in); one without a budget is stopped now.
  function quit() {
    if (current && current.timer !== undefined && !current.gaveUp) {
      current.onAnswered = () => process.exit(0);
      return;
    }
    if (current) {
      current.stopRequested = true;
      finish(current, null, true);
    }
    process.exit(0);
  }
}

function rulesMain() {
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  const out = [];
  input.on('line', (line) => {
    try {
      const board = parsePosition(line.trim().split(/[ \t]+/));
      const [x, o] = board.score();
      const moves = board.legalMoves().join(',') || '-';
      out.push(`ok ${board.fen().replaceAll(' ', ';')} ${x} ${o} ${moves}`);
    } catch {
      out.push('error');
    }
  });
  input.on('close', () => process.stdout.write(out.map((l) => l + '\n').join('')));
}

if (!isMainThread) workerMain();
else if (process.argv[2] === '--rules') rulesMain();
else runnerMain(process.argv[2] || 'alphabeta');
