// board.js — GTP vertices, the SVG board, and a small client-side replay
// (place, capture, suicide) used only to display earlier positions.

import {svg, clear} from './dom.js'

export const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'

export function vertexName(size, col, rowFromTop) {
  return LETTERS[col] + (size - rowFromTop)
}

// "D4" -> [col, rowFromTop] or null
export function parseVertex(size, v) {
  if (typeof v !== 'string') return null
  const m = /^([A-HJ-Z])(\d{1,2})$/i.exec(v)
  if (!m) return null
  const col = LETTERS.indexOf(m[1].toUpperCase())
  const row = parseInt(m[2], 10)
  if (col < 0 || col >= size || row < 1 || row > size) return null
  return [col, size - row]
}

export function starPoints(size) {
  const pts = []
  if (size < 5) return pts
  const d = size >= 12 ? 4 : size >= 7 ? 3 : 0
  const mid = (size + 1) / 2
  const lines = []
  if (d) lines.push(d, size + 1 - d)
  if (d && size % 2 === 1 && size >= 15) lines.push(mid)
  for (const x of lines) for (const y of lines) pts.push([x, y])
  if (size % 2 === 1 && (size >= 7 || size === 5)) {
    if (!pts.some(([x, y]) => x === mid && y === mid)) pts.push([mid, mid])
  }
  return pts.map(([x, y]) => LETTERS[x - 1] + y)
}

// Board string ('.XO', row by row from the top) <-> array of 0/1/2.
export function boardFromString(size, s) {
  const b = new Array(size * size).fill(0)
  for (let i = 0; i < size * size && i < (s || '').length; i++) {
    b[i] = s[i] === 'X' ? 1 : s[i] === 'O' ? 2 : 0
  }
  return b
}

function neighbours(size, i) {
  const r = Math.floor(i / size), c = i % size, out = []
  if (r > 0) out.push(i - size)
  if (r < size - 1) out.push(i + size)
  if (c > 0) out.push(i - 1)
  if (c < size - 1) out.push(i + 1)
  return out
}

function chainAt(size, b, i) {
  const colour = b[i], chain = [i], seen = new Set([i])
  let libs = 0
  for (let k = 0; k < chain.length; k++) {
    for (const n of neighbours(size, chain[k])) {
      if (seen.has(n)) continue
      if (b[n] === colour) { seen.add(n); chain.push(n) } else if (b[n] === 0) { seen.add(n); libs++ }
    }
  }
  return {chain, libs}
}

// Replays setup stones (Black) and the first `upto` moves.  Returns the
// position, captures (stones each colour has taken), the last move and,
// for each point, the number of the move whose stone stands there.
export function replay(size, setup, moves, upto) {
  const b = new Array(size * size).fill(0)
  const numbers = new Array(size * size).fill(0)
  const captures = {black: 0, white: 0}
  for (const v of setup || []) {
    const p = parseVertex(size, v)
    if (p) b[p[1] * size + p[0]] = 1
  }
  let last = null
  const n = Math.min(upto, moves.length)
  for (let k = 0; k < n; k++) {
    const m = moves[k]
    last = m.move
    const p = parseVertex(size, m.move)
    if (!p) continue
    const i = p[1] * size + p[0]
    const me = m.color === 'white' ? 2 : 1, them = 3 - me
    b[i] = me
    numbers[i] = m.n || k + 1
    // the capture choice (002 §4.3): the mover's own chains go, the opponent's stay
    if (m.own) {
      for (const nb of [i, ...neighbours(size, i)]) {
        if (b[nb] !== me) continue
        const {chain, libs} = chainAt(size, b, nb)
        if (libs === 0) {
          for (const s of chain) { b[s] = 0; numbers[s] = 0 }
          captures[m.color === 'white' ? 'black' : 'white'] += chain.length
        }
      }
      continue
    }
    for (const nb of neighbours(size, i)) {
      if (b[nb] !== them) continue
      const {chain, libs} = chainAt(size, b, nb)
      if (libs === 0) {
        for (const s of chain) { b[s] = 0; numbers[s] = 0 }
        captures[m.color === 'white' ? 'white' : 'black'] += chain.length
      }
    }
    const own = chainAt(size, b, i)
    if (own.libs === 0) {
      for (const s of own.chain) { b[s] = 0; numbers[s] = 0 }
      captures[m.color === 'white' ? 'black' : 'white'] += own.chain.length
    }
  }
  return {board: b, captures, last, numbers}
}

// The move number shown on each stone of a live position: the last move
// played at the point, when a stone of that colour still stands there.
export function liveNumbers(size, board, moves) {
  const numbers = new Array(size * size).fill(0)
  for (const m of moves) {
    const p = parseVertex(size, m.move)
    if (!p) continue
    const i = p[1] * size + p[0]
    if (board[i] === (m.color === 'white' ? 2 : 1)) numbers[i] = m.n
  }
  return numbers
}

// A move on a copy of a position, for trying variations: the new board and
// the stones it took, or null where the point is taken, the move is suicide
// or it retakes a ko at once (the position before `previous`).
export function tryMove(size, board, i, colour, previous) {
  if (board[i]) return null
  const b = board.slice(), me = colour === 'white' ? 2 : 1, them = 3 - me
  b[i] = me
  let taken = 0
  for (const nb of neighbours(size, i)) {
    if (b[nb] !== them) continue
    const {chain, libs} = chainAt(size, b, nb)
    if (libs === 0) { for (const s of chain) b[s] = 0; taken += chain.length }
  }
  if (chainAt(size, b, i).libs === 0) return null
  if (previous && previous.every((x, k) => x === b[k])) return null
  return {board: b, taken}
}

const DEFS = [
  ['radialGradient', {id: 'g-black', cx: '35%', cy: '30%', r: '70%'}, [['0', '#6b6b6b'], ['0.35', '#2a2a2a'], ['1', '#050505']]],
  ['radialGradient', {id: 'g-white', cx: '35%', cy: '30%', r: '75%'}, [['0', '#ffffff'], ['0.6', '#eeeeea'], ['1', '#b9b6ad']]],
  ['linearGradient', {id: 'g-wood', x1: '0', y1: '0', x2: '1', y2: '1'}, [['0', '#e6c27a'], ['0.45', '#d9b062'], ['0.55', '#dcb467'], ['1', '#c99a4a']]]
]

function defs() {
  const d = svg('defs', {})
  for (const [tag, attrs, stops] of DEFS) {
    d.appendChild(svg(tag, attrs, stops.map(([o, c]) => svg('stop', {offset: o, 'stop-color': c}))))
  }
  return d
}

// Draws the board into `root` (an <svg>).  view: {size, board (array),
// last, numbers (array or null), marks: {vertex: 'dead-mine'|'dead-theirs'|
// 'dead-both'|'dead'|'proposal'|'selected'}, disputed (Set of vertices),
// owner (array: 1/2 territory, 3 dame, or null), cursor (vertex or null),
// hover: colour or null}.
// The board's static layers (wood, lines, coordinates, the click targets)
// are built once per size and kept across draws: a move redraws the stones
// and marks only, and the targets' states change in place (a long game's
// move within a frame on a phone).
function staticLayers(root, size, M, W) {
  const cache = root._tengenBoard
  if (cache && cache.size === size && cache.hits.parentNode === root) {
    // everything else (the last draw's stones, overlays added after it) goes
    for (const ch of [...root.children]) if (ch !== cache.defs && ch !== cache.grid && ch !== cache.hits) root.removeChild(ch)
    return cache
  }
  clear(root)
  root.setAttribute('viewBox', `0 0 ${W} ${W}`)
  root.setAttribute('data-size', size)
  const X = c => M + c
  const d = defs()
  root.appendChild(d)
  const g = svg('g', {class: 'grid'})
  g.appendChild(svg('rect', {x: 0, y: 0, width: W, height: W, class: 'wood', fill: 'url(#g-wood)'}))
  // a few faint grain lines, drawn, not an image
  for (let k = 1; k < 7; k++) {
    const y = (W * k) / 7 + ((k * 37) % 5) * 0.05
    g.appendChild(svg('path', {d: `M0,${y} C${W / 3},${y - 0.35} ${(2 * W) / 3},${y + 0.35} ${W},${y - 0.1}`, class: 'grain'}))
  }
  for (let k = 0; k < size; k++) {
    g.appendChild(svg('line', {x1: X(0), y1: X(k), x2: X(size - 1), y2: X(k), class: 'line'}))
    g.appendChild(svg('line', {x1: X(k), y1: X(0), x2: X(k), y2: X(size - 1), class: 'line'}))
  }
  for (const v of starPoints(size)) {
    const [c, r] = parseVertex(size, v)
    g.appendChild(svg('circle', {cx: X(c), cy: X(r), r: 0.1, class: 'star'}))
  }
  for (let k = 0; k < size; k++) {
    const letter = LETTERS[k], num = String(size - k)
    g.appendChild(svg('text', {x: X(k), y: M * 0.45, class: 'coord', text: letter}))
    g.appendChild(svg('text', {x: X(k), y: W - M * 0.45, class: 'coord', text: letter}))
    g.appendChild(svg('text', {x: M * 0.4, y: X(k) + 0.02, class: 'coord', text: num}))
    g.appendChild(svg('text', {x: W - M * 0.4, y: X(k) + 0.02, class: 'coord', text: num}))
  }
  root.appendChild(g)
  const hits = svg('g', {class: 'hits'})
  const rects = []
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const rect = svg('rect', {x: X(c) - 0.5, y: X(r) - 0.5, width: 1, height: 1,
        class: 'hit', 'data-vertex': vertexName(size, c, r), 'data-state': 'empty'})
      rects.push(rect)
      hits.appendChild(rect)
    }
  }
  root.appendChild(hits)
  root._tengenBoard = {size, defs: d, grid: g, hits, rects}
  return root._tengenBoard
}

export function drawBoard(root, view) {
  const {size} = view
  const M = 1.0  // margin for coordinates, in line spacings
  const W = size - 1 + 2 * M
  const layers = staticLayers(root, size, M, W)
  const X = c => M + c

  const stones = svg('g', {id: 'stones'})
  const marks = view.marks || {}
  const disputed = view.disputed || new Set()
  for (let i = 0; i < size * size; i++) {
    const s = view.board[i]
    if (!s) continue
    const c = i % size, r = Math.floor(i / size)
    const v = vertexName(size, c, r)
    const colour = s === 1 ? 'black' : 'white'
    const mark = marks[v]
    const dead = mark === 'dead-mine' || mark === 'dead-both' || mark === 'dead'
    stones.appendChild(svg('circle', {cx: X(c) + 0.04, cy: X(r) + 0.06, r: 0.47, class: 'shadow' + (dead ? ' dead' : '')}))
    stones.appendChild(svg('circle', {
      cx: X(c), cy: X(r), r: 0.47, class: `stone ${colour}` + (mark ? ' ' + mark : ''),
      fill: `url(#g-${colour})`,
      'data-stone': v, 'data-color': colour, 'data-mark': mark || null, 'data-disputed': disputed.has(v) ? '1' : null
    }))
    if (view.numbers && view.numbers[i]) {
      stones.appendChild(svg('text', {x: X(c), y: X(r) + 0.02, class: `num on-${colour}`,
        text: String(view.numbers[i])}))
    }
    if (dead) {
      stones.appendChild(svg('path', {d: `M${X(c) - 0.25},${X(r) - 0.25}l0.5,0.5m0,-0.5l-0.5,0.5`,
        class: `cross on-${colour}`}))
    }
    if (mark === 'dead-theirs') {
      stones.appendChild(svg('rect', {x: X(c) - 0.14, y: X(r) - 0.14, width: 0.28, height: 0.28,
        class: `square on-${colour}`}))
    }
    if (disputed.has(v)) {
      stones.appendChild(svg('circle', {cx: X(c), cy: X(r), r: 0.5, class: 'disputed', 'data-disputed-ring': v}))
    }
    if (mark === 'proposal') {
      stones.appendChild(svg('circle', {cx: X(c), cy: X(r), r: 0.1, class: `dot on-${colour}`}))
    }
  }
  if (view.owner) {
    const area = svg('g', {id: 'territory'})
    for (let i = 0; i < size * size; i++) {
      const o = view.owner[i]
      if (!o) continue
      const c = i % size, r = Math.floor(i / size), v = vertexName(size, c, r)
      if (o === 3) {
        area.appendChild(svg('circle', {cx: X(c), cy: X(r), r: 0.09, class: 'dame', 'data-dame': v}))
        continue
      }
      const owner = o === 1 ? 'black' : 'white'
      area.appendChild(svg('rect', {x: X(c) - 0.19, y: X(r) - 0.19, width: 0.38, height: 0.38,
        class: `terr ${owner}`, 'data-territory': owner, 'data-vertex-territory': v}))
    }
    stones.appendChild(area)
  }
  for (const [v, mark] of Object.entries(marks)) {
    if (mark !== 'selected') continue
    const p = parseVertex(size, v)
    if (p) stones.appendChild(svg('circle', {cx: X(p[0]), cy: X(p[1]), r: 0.47,
      class: 'stone black selected', 'data-selected': v}))
  }
  const lp = parseVertex(size, view.last)
  if (lp && view.board[lp[1] * size + lp[0]] && !(view.numbers && view.numbers[lp[1] * size + lp[0]])) {
    const colour = view.board[lp[1] * size + lp[0]] === 1 ? 'black' : 'white'
    stones.appendChild(svg('circle', {cx: X(lp[0]), cy: X(lp[1]), r: 0.2, id: 'last-mark',
      'data-vertex-last': view.last, class: `last on-${colour}`}))
  }
  root.insertBefore(stones, layers.hits)

  const hover = svg('circle', {id: 'hover-stone', r: 0.47, cx: -5, cy: -5,
    class: 'stone hover ' + (view.hover || 'black'), fill: `url(#g-${view.hover || 'black'})`, visibility: 'hidden'})
  root.insertBefore(hover, layers.hits)
  const cp = parseVertex(size, view.cursor)
  const cursor = svg('rect', {id: 'cursor', x: -5, y: -5, width: 0.9, height: 0.9, rx: 0.12, class: 'cursor',
    visibility: cp ? 'visible' : 'hidden', 'data-cursor': view.cursor || null})
  if (cp) { cursor.setAttribute('x', X(cp[0]) - 0.45); cursor.setAttribute('y', X(cp[1]) - 0.45) }
  root.insertBefore(cursor, layers.hits)

  for (let i = 0; i < size * size; i++) {
    const state = view.board[i] === 1 ? 'black' : view.board[i] === 2 ? 'white' : 'empty'
    if (layers.rects[i].getAttribute('data-state') !== state) layers.rects[i].setAttribute('data-state', state)
  }
  return {
    showHover(v) {
      const p = view.hover && parseVertex(size, v)
      if (!p || view.board[p[1] * size + p[0]]) { hover.setAttribute('visibility', 'hidden'); return }
      hover.setAttribute('cx', X(p[0]))
      hover.setAttribute('cy', X(p[1]))
      hover.setAttribute('visibility', 'visible')
      hover.setAttribute('data-vertex-hover', v)
    },
    hideHover() { hover.setAttribute('visibility', 'hidden') }
  }
}
