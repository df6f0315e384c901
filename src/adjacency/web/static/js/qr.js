// A QR code encoder, written for this project (no library, nothing fetched): byte mode
// (the text as UTF-8), error correction level M (about 15% of the code may be damaged),
// versions 1 to 10 (up to 213 bytes: a seat link is about 70). It follows ISO/IEC 18004:
// the data and its Reed-Solomon codewords in blocks, interleaved, placed in the zigzag
// order around the function patterns (finders, timing, alignment, format and version
// information), under the mask whose penalty is lowest, or the one asked for.
// tests/web/test_qr.py checks the matrices against segno's for the same text, version
// and mask, and that a decoder reads the drawn code back.

const ECC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]; // level M, by version
const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
export const MAX_VERSION = 10;
const FORMAT_M = 0; // the format bits of level M
const SVG_NS = "http://www.w3.org/2000/svg";

function bit(value, i) {
  return ((value >>> i) & 1) !== 0;
}

// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1.
function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = divisor.map(() => 0);
  for (const byte of data) {
    const factor = byte ^ result.shift();
    result.push(0);
    divisor.forEach((coefficient, i) => { result[i] ^= gfMultiply(coefficient, factor); });
  }
  return result;
}

function rawModules(version) {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

function dataCodewords(version) {
  return Math.floor(rawModules(version) / 8) - ECC_PER_BLOCK[version] * BLOCKS[version];
}

// The bytes a version holds in byte mode at level M.
export function capacity(version) {
  const countBits = version < 10 ? 8 : 16;
  return Math.floor((dataCodewords(version) * 8 - 4 - countBits) / 8);
}

function alignmentPositions(version, size) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const result = [6];
  for (let pos = size - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}

// The data codewords, then each block's error correction, interleaved.
function codewords(bytes, version) {
  const countBits = version < 10 ? 8 : 16;
  const bits = [];
  const push = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  push(0b0100, 4);
  push(bytes.length, countBits);
  for (const byte of bytes) push(byte, 8);
  const capacityBits = dataCodewords(version) * 8;
  push(0, Math.min(4, capacityBits - bits.length));
  push(0, (8 - (bits.length % 8)) % 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; data.length < dataCodewords(version); pad ^= 0xec ^ 0x11) data.push(pad);

  const blocks = BLOCKS[version];
  const ecc = ECC_PER_BLOCK[version];
  const raw = Math.floor(rawModules(version) / 8);
  const short = blocks - (raw % blocks);
  const shortLength = Math.floor(raw / blocks);
  const divisor = rsDivisor(ecc);
  const parts = [];
  for (let i = 0, k = 0; i < blocks; i++) {
    const length = shortLength - ecc + (i < short ? 0 : 1);
    const block = data.slice(k, k + length);
    k += length;
    const check = rsRemainder(block, divisor);
    if (i < short) block.push(0); // a place holder, skipped below
    parts.push(block.concat(check));
  }
  const result = [];
  for (let i = 0; i < parts[0].length; i++) {
    parts.forEach((block, j) => {
      if (i !== shortLength - ecc || j >= short) result.push(block[i]);
    });
  }
  return result;
}

class Matrix {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.modules[y][x] = dark;
    this.fixed[y][x] = true;
  }

  functionPatterns() {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          const distance = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < size && y >= 0 && y < size) this.set(x, y, distance !== 2 && distance !== 4);
        }
      }
    }
    const aligns = alignmentPositions(this.version, size);
    const last = aligns.length - 1;
    aligns.forEach((ay, i) => aligns.forEach((ax, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) this.set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }));
    this.format(0);
    if (this.version >= 7) {
      let rem = this.version;
      for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
      const bits = (this.version << 12) | rem;
      for (let i = 0; i < 18; i++) {
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.set(a, b, bit(bits, i));
        this.set(b, a, bit(bits, i));
      }
    }
  }

  format(mask) {
    const size = this.size;
    const data = (FORMAT_M << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(bits, i));
    this.set(8, 7, bit(bits, 6));
    this.set(8, 8, bit(bits, 7));
    this.set(7, 8, bit(bits, 8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(bits, i));
    for (let i = 0; i < 8; i++) this.set(size - 1 - i, 8, bit(bits, i));
    for (let i = 8; i < 15; i++) this.set(8, size - 15 + i, bit(bits, i));
    this.set(8, size - 8, true); // the dark module
  }

  place(data) {
    const size = this.size;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vert = 0; vert < size; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? size - 1 - vert : vert;
          if (!this.fixed[y][x] && i < data.length * 8) {
            this.modules[y][x] = bit(data[i >>> 3], 7 - (i & 7));
            i++;
          }
        }
      }
    }
  }

  applyMask(mask) {
    const test = [
      (x, y) => (x + y) % 2 === 0,
      (x, y) => y % 2 === 0,
      (x) => x % 3 === 0,
      (x, y) => (x + y) % 3 === 0,
      (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
      (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
      (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
      (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
    ][mask];
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        if (!this.fixed[y][x] && test(x, y)) this.modules[y][x] = !this.modules[y][x];
      }
    }
  }

  // The standard's penalty: runs of five or more, 2x2 blocks, finder-like patterns, balance.
  penalty() {
    const size = this.size;
    const m = this.modules;
    let score = 0;
    const lines = [];
    for (let i = 0; i < size; i++) {
      lines.push(m[i]);
      lines.push(m.map((row) => row[i]));
    }
    const finder = [true, false, true, true, true, false, true];
    for (const line of lines) {
      let run = 1;
      for (let i = 1; i <= size; i++) {
        if (i < size && line[i] === line[i - 1]) { run++; continue; }
        if (run >= 5) score += 3 + run - 5;
        run = 1;
      }
      for (let i = 0; i + 7 <= size; i++) {
        if (!finder.every((dark, k) => line[i + k] === dark)) continue;
        const light = (from, to) => { for (let k = from; k < to; k++) if (k >= 0 && k < size && line[k]) return false; return true; };
        if (light(i - 4, i) || light(i + 7, i + 11)) score += 40;
      }
    }
    for (let y = 0; y + 1 < size; y++) {
      for (let x = 0; x + 1 < size; x++) {
        const c = m[y][x];
        if (c === m[y][x + 1] && c === m[y + 1][x] && c === m[y + 1][x + 1]) score += 3;
      }
    }
    const dark = m.reduce((n, row) => n + row.filter(Boolean).length, 0);
    const total = size * size;
    score += Math.floor(Math.abs(dark * 20 - total * 10) / total) * 10;
    return score;
  }
}

// The QR code of `text`: { version, mask, size, modules } (modules[row][column], true
// dark). `version` (1-10) and `mask` (0-7) are chosen unless given: the smallest version
// that holds the text, the mask of the lowest penalty. A text too long for version 10
// (or for the version given) is a RangeError.
export function qrMatrix(text, { version = null, mask = null } = {}) {
  const bytes = [...new TextEncoder().encode(text)];
  let chosen = version;
  if (chosen == null) {
    chosen = 1;
    while (chosen <= MAX_VERSION && capacity(chosen) < bytes.length) chosen++;
  }
  if (chosen < 1 || chosen > MAX_VERSION || capacity(chosen) < bytes.length) {
    throw new RangeError(`a QR code of version ${chosen} cannot hold ${bytes.length} bytes`);
  }
  const data = codewords(bytes, chosen);
  const build = (m) => {
    const matrix = new Matrix(chosen);
    matrix.functionPatterns();
    matrix.place(data);
    matrix.applyMask(m);
    matrix.format(m);
    return matrix;
  };
  let best = null;
  for (const m of mask == null ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask]) {
    const matrix = build(m);
    const score = mask == null ? matrix.penalty() : 0;
    if (best == null || score < best.score) best = { matrix, score, mask: m };
  }
  const { matrix } = best;
  return { version: chosen, mask: best.mask, size: matrix.size, modules: matrix.modules };
}

// The QR code of `text` as an SVG image (dark modules on a light ground, the standard's
// four-module quiet zone), named `label` for screen readers.
export function qrSvg(text, label) {
  const { size, modules } = qrMatrix(text);
  const quiet = 4;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${size + quiet * 2} ${size + quiet * 2}`);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const ground = document.createElementNS(SVG_NS, "rect");
  ground.setAttribute("width", "100%");
  ground.setAttribute("height", "100%");
  ground.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG_NS, "path");
  let d = "";
  modules.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x + quiet} ${y + quiet}h1v1h-1z`; }));
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(ground, path);
  svg.dataset.text = text;
  return svg;
}
