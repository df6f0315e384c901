'use strict';
// A position of the Adjacency Strategy Game (docs/rules.md): the board, whose turn it is and
// how many plies (single moves) are left.
//
// board.grid[r][c] is 'x', 'o' or '.'; row r = 0 is rank 1 (the bottom) and column c = 0 is
// file a, so grid[0][0] is a1 and grid[3][2] is c4. Boards have 4 to 8 rows and columns.
// A move puts a piece of the side to move on any empty square; every orthogonally adjacent
// opponent piece becomes the mover's. play() returns a new Board and leaves this one as it is.

const FILES = 'abcdefgh';

function parseNumber(text, what) {
  if (typeof text !== 'string' || !/^[0-9]{1,18}$/.test(text)) {
    throw new Error(`${what} must be a whole number, not '${text}'`);
  }
  return Math.min(Number(text), 2 ** 31 - 1);
}

function opponent(side) {
  return side === 'x' ? 'o' : 'x';
}

/** The name of the square in row r (0 = rank 1), column c (0 = file a): "d4". */
function square(r, c) {
  return FILES[c] + (r + 1);
}

class Board {
  constructor(grid, turn, pliesLeft) {
    this.rows = grid.length;
    this.cols = grid[0].length;
    this.grid = grid;
    this.turn = turn;
    this.pliesLeft = pliesLeft;
  }

  /** The most rounds a board of this size allows (28 on 8x8). */
  static mostRounds(rows, cols) {
    return Math.floor((rows * cols - 8) / 2);
  }

  /** The start position: X's 2x2 block at a1, O's in the top-right corner. */
  static start(rows = 8, cols = 8, rounds = Board.mostRounds(rows, cols), first = 'x') {
    if (rows < 4 || rows > 8 || cols < 4 || cols > 8) {
      throw new Error(`the board must have 4 to 8 rows and columns, not ${rows}x${cols}`);
    }
    const most = Board.mostRounds(rows, cols);
    if (rounds < 1 || rounds > most) {
      throw new Error(`rounds must be 1 to ${most} on ${rows}x${cols}, not ${rounds}`);
    }
    if (first !== 'x' && first !== 'o') throw new Error(`first must be x or o, not '${first}'`);
    const grid = Array.from({ length: rows }, () => Array(cols).fill('.'));
    for (let r = 0; r < 2; r++) {
      for (let c = 0; c < 2; c++) {
        grid[r][c] = 'x';
        grid[rows - 1 - r][cols - 1 - c] = 'o';
      }
    }
    return new Board(grid, first, 2 * rounds);
  }

  /** A position from position text: Board.fromFen('6oo/6oo/8/8/8/8/xx6/xx6', 'x', '56'). */
  static fromFen(board, side, plies) {
    const ranks = String(board).split('/');
    if (ranks.length < 4 || ranks.length > 8) {
      throw new Error(`position text '${board}' must have 4 to 8 ranks`);
    }
    const grid = [];
    let empty = 0;
    for (const rank of ranks) {
      const row = [];
      for (const ch of rank) {
        if (ch >= '1' && ch <= '8') {
          for (let k = 0; k < Number(ch); k++) row.push('.');
          empty += Number(ch);
        } else if (ch === 'x' || ch === 'o') {
          row.push(ch);
        } else {
          throw new Error(`unexpected '${ch}' in rank '${rank}'`);
        }
      }
      if (row.length < 4 || row.length > 8 || (grid.length && row.length !== grid[0].length)) {
        throw new Error(`rank '${rank}' has ${row.length} squares`);
      }
      grid.unshift(row); // the text starts with the top rank
    }
    if (side !== 'x' && side !== 'o') throw new Error(`the side to move must be x or o, not '${side}'`);
    const left = parseNumber(plies, 'plies left');
    if (left > empty) throw new Error(`${left} plies left but only ${empty} empty squares`);
    return new Board(grid, side, left);
  }

  /** [row, col] of a square name on this board ('C3' is 'c3'); throws if it is not one. */
  parseSquare(name) {
    const s = String(name).toLowerCase();
    if (!/^[a-h][1-9][0-9]?$/.test(s)) throw new Error(`malformed square '${name}'`);
    const c = s.charCodeAt(0) - 97;
    const r = Number(s.slice(1)) - 1;
    if (r >= this.rows || c >= this.cols) {
      throw new Error(`square '${name}' is off the ${this.rows}x${this.cols} board`);
    }
    return [r, c];
  }

  isOver() {
    return this.pliesLeft === 0;
  }

  /** Every empty square in the order a1, b1, ..., a2, b2, ...; none when the game is over. */
  legalMoves() {
    const moves = [];
    if (this.isOver()) return moves;
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) {
        if (this.grid[r][c] === '.') moves.push(square(r, c));
      }
    }
    return moves;
  }

  /** Squares the side to move would win by playing at (r, c): the piece plus its conversions. */
  gain(r, c) {
    const them = opponent(this.turn);
    const g = this.grid;
    let won = 1;
    if (r > 0 && g[r - 1][c] === them) won++;
    if (r < this.rows - 1 && g[r + 1][c] === them) won++;
    if (c > 0 && g[r][c - 1] === them) won++;
    if (c < this.cols - 1 && g[r][c + 1] === them) won++;
    return won;
  }

  /** The position after the side to move plays `name` ('c3'); throws if it is illegal. */
  play(name) {
    if (this.isOver()) throw new Error(`illegal move '${name}': the game is over`);
    const [r, c] = this.parseSquare(name);
    if (this.grid[r][c] !== '.') throw new Error(`illegal move '${name}': the square is occupied`);
    return this.playAt(r, c);
  }

  /** The position after the side to move plays on the empty square (r, c). */
  playAt(r, c) {
    const next = this.grid.map((row) => row.slice());
    const me = this.turn;
    const them = opponent(me);
    next[r][c] = me;
    if (r > 0 && next[r - 1][c] === them) next[r - 1][c] = me;
    if (r < this.rows - 1 && next[r + 1][c] === them) next[r + 1][c] = me;
    if (c > 0 && next[r][c - 1] === them) next[r][c - 1] = me;
    if (c < this.cols - 1 && next[r][c + 1] === them) next[r][c + 1] = me;
    return new Board(next, them, this.pliesLeft - 1);
  }

  /** [X's squares, O's squares]. */
  score() {
    let x = 0;
    let o = 0;
    for (const row of this.grid) {
      for (const cell of row) {
        if (cell === 'x') x++;
        else if (cell === 'o') o++;
      }
    }
    return [x, o];
  }

  /** The position text, e.g. '6oo/6oo/8/8/8/2x5/xx6/xx6 o 55'. */
  fen() {
    const ranks = [];
    for (let r = this.rows - 1; r >= 0; r--) {
      let text = '';
      let run = 0;
      for (const cell of this.grid[r]) {
        if (cell === '.') {
          run++;
          continue;
        }
        if (run) text += run;
        run = 0;
        text += cell;
      }
      ranks.push(run ? text + run : text);
    }
    return `${ranks.join('/')} ${this.turn} ${this.pliesLeft}`;
  }
}

/** The arguments of a protocol `position` command ('startpos ...' or 'fen ...') as a Board. */
function parsePosition(args) {
  const at = args.indexOf('moves');
  const head = at < 0 ? args : args.slice(0, at);
  const moves = at < 0 ? [] : args.slice(at + 1);
  let board;
  if (head[0] === 'fen') {
    if (head.length < 4) throw new Error('position fen needs the board, the side and the plies left');
    board = Board.fromFen(head[1], head[2], head[3]);
  } else if (head[0] === 'startpos') {
    const settings = { rows: '8', cols: '8', first: 'x' };
    for (let i = 1; i + 1 < head.length; i += 2) settings[head[i]] = head[i + 1];
    const rows = parseNumber(settings.rows, 'rows');
    const cols = parseNumber(settings.cols, 'cols');
    const rounds = 'rounds' in settings ? parseNumber(settings.rounds, 'rounds') : undefined;
    board = Board.start(rows, cols, rounds === undefined ? Board.mostRounds(rows, cols) : rounds, settings.first);
  } else {
    throw new Error('expected startpos or fen');
  }
  for (const move of moves) board = board.play(move);
  return board;
}

module.exports = { Board, FILES, square, opponent, parseNumber, parsePosition };
