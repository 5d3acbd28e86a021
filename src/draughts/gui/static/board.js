// Drawing the board as SVG: squares, labels, pieces and marks.  The geometry
// (each playing square's number, row, column and label) comes from the server.
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class BoardView {
  constructor(svg) {
    this.svg = svg;
    this.flipped = false;
    this.variant = null;
  }

  // (row, col) on screen of a square number
  cell(num) {
    const [r, c] = this.coords.get(num);
    const n = this.variant.size;
    return this.flipped ? [n - 1 - r, n - 1 - c] : [r, c];
  }

  // the square number under a point of the page, or null
  squareAt(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    const n = this.variant.size;
    let c = Math.floor((clientX - box.left) / box.width * n);
    let r = Math.floor((clientY - box.top) / box.height * n);
    if (r < 0 || c < 0 || r >= n || c >= n) return null;
    if (this.flipped) { r = n - 1 - r; c = n - 1 - c; }
    return this.byCell.get(r * n + c) ?? null;
  }

  setVariant(v) {
    this.variant = v;
    this.coords = new Map();
    this.byCell = new Map();
    for (const [num, r, c, label] of v.squares) {
      this.coords.set(num, [r, c]);
      this.byCell.set(r * v.size + c, num);
    }
    this.labels = new Map(v.squares.map(([num, , , label]) => [num, label]));
  }

  // pieces: {square: "w"|"W"|"b"|"B"}; marks: {last: [...], selected, targets: [...]}
  draw(pieces, marks = {}) {
    const v = this.variant, n = v.size, svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
    svg.replaceChildren();
    el("rect", { x: 0, y: 0, width: n, height: n, class: "sq-light" }, svg);
    const every = v.geometry === "orthogonal";
    for (const [num] of v.squares) {
      const [r, c] = this.cell(num);
      const [r0, c0] = this.coords.get(num);
      const shade = every && (r0 + c0) % 2 === 0 ? "sq-light" : "sq-dark";
      el("rect", { x: c, y: r, width: 1, height: 1, class: shade, "data-square": num }, svg);
    }
    for (const num of marks.last || []) {
      const [r, c] = this.cell(num);
      el("rect", { x: c, y: r, width: 1, height: 1, class: "lastmove" }, svg);
    }
    if (marks.selected != null) {
      const [r, c] = this.cell(marks.selected);
      el("rect", { x: c, y: r, width: 1, height: 1, class: "selected" }, svg);
    }
    for (const [num] of v.squares) {
      const [r, c] = this.cell(num);
      const t = el("text", { x: c + 0.06, y: r + 0.21, "font-size": 0.19, class: "label" }, svg);
      t.textContent = this.labels.get(num);
    }
    for (const [sq, kind] of Object.entries(pieces)) {
      const num = Number(sq);
      if (marks.dragFrom === num) continue;
      const [r, c] = this.cell(num);
      this.piece(kind, c + 0.5, r + 0.5, num);
    }
    for (const num of marks.targets || []) {
      const [r, c] = this.cell(num);
      el("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.14, class: "target", "data-target": num }, svg);
    }
    if (marks.dragFrom != null && marks.dragAt) {
      this.piece(pieces[marks.dragFrom], marks.dragAt[0], marks.dragAt[1], null, "dragging");
    }
  }

  piece(kind, cx, cy, num, extra = "") {
    const white = kind === "w" || kind === "W";
    const g = el("g", { class: `piece ${white ? "white" : "black"} ${kind === kind.toUpperCase() ? "king" : "man"} ${extra}`,
      "data-square": num ?? "" }, this.svg);
    el("circle", { cx, cy, r: 0.36, "stroke-width": 0.03, class: white ? "pw" : "pb" }, g);
    if (kind === "W" || kind === "B") {
      el("circle", { cx, cy, r: 0.25, "stroke-width": 0.035, class: white ? "rw" : "rb" }, g);
      const pts = [[-0.16, 0.09], [-0.16, -0.1], [-0.08, -0.01], [0, -0.14], [0.08, -0.01], [0.16, -0.1], [0.16, 0.09]]
        .map(([x, y]) => `${cx + x},${cy + y}`).join(" ");
      el("polygon", { points: pts, "stroke-width": 0.015, class: "crown" }, g);
    }
  }

  // board units of a page point (for a dragged piece)
  toBoard(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    const n = this.variant.size;
    return [(clientX - box.left) / box.width * n, (clientY - box.top) / box.height * n];
  }
}
