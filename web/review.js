// review.js — trying variations while stepping through a game: a small move
// tree kept in the page only (the game on the server is never touched), and
// the record with those variations as SGF.
//
// A variation is a line of moves from a position of the game (after `at`
// of its moves).  Playing away from a line's next move starts another line
// with the same beginning; the SGF merges lines that share moves into one
// tree.

import {parseVertex, replay, tryMove} from './board.js'

const other = c => (c === 'black' ? 'white' : 'black')
const SGF_LETTERS = 'abcdefghijklmnopqrstuvwxy'

export class Variations {
  constructor() {
    this.lines = []      // every line tried and not discarded: {at, moves: [{color, move}]}
    this.current = null  // the line on the board, or null
    this.shown = 0       // how many of its moves are on the board
  }

  active() { return !!this.current }

  // The colour to play after `at` moves of the game.
  static colourAfter(g, at) {
    if (at > 0) return other(g.moves[at - 1].color)
    return g.setup && g.setup.length ? 'white' : 'black'
  }

  // The position of the current line: {board, last, numbers, colour, previous}.
  position(g) {
    const line = this.current
    const base = replay(g.size, g.setup, g.moves, line.at)
    let board = base.board, previous = null, last = base.last
    const numbers = new Array(g.size * g.size).fill(0)
    for (let k = 0; k < this.shown; k++) {
      const m = line.moves[k]
      const p = parseVertex(g.size, m.move)
      last = m.move
      if (!p) { previous = board; continue }
      const i = p[1] * g.size + p[0]
      const r = tryMove(g.size, board, i, m.color, previous)
      if (!r) break
      previous = board
      board = r.board
      for (let j = 0; j < numbers.length; j++) if (!board[j]) numbers[j] = 0
      numbers[i] = k + 1
    }
    const colour = this.shown ? other(line.moves[this.shown - 1].color) : Variations.colourAfter(g, line.at)
    return {board, last, numbers, colour, previous}
  }

  // Plays `vertex` in the current line (or starts one after `at` moves).
  // Returns false when the move is illegal there.
  play(g, at, vertex) {
    if (!this.current) {
      this.current = {at, moves: []}
      this.shown = 0
      this.lines.push(this.current)
    }
    const line = this.current
    if (this.shown < line.moves.length && line.moves[this.shown].move === vertex) { this.shown++; return true }
    const pos = this.position(g)
    const p = parseVertex(g.size, vertex)
    if (!p || !tryMove(g.size, pos.board, p[1] * g.size + p[0], pos.colour, pos.previous)) {
      if (!line.moves.length) this.discard()
      return false
    }
    const move = {color: pos.colour, move: vertex}
    if (this.shown < line.moves.length) {
      // a branch: a new line beginning as this one does
      this.current = {at: line.at, moves: line.moves.slice(0, this.shown).concat([move])}
      this.lines.push(this.current)
    } else line.moves.push(move)
    this.shown++
    return true
  }

  step(k) {
    if (!this.current) return
    this.shown = Math.max(0, Math.min(this.current.moves.length, this.shown + k))
  }

  discard() {
    this.lines = this.lines.filter(l => l !== this.current)
    this.current = null
    this.shown = 0
  }

  leave() { this.current = null; this.shown = 0 }
}

function sgfPoint(size, v) {
  const p = parseVertex(size, v)
  return p ? SGF_LETTERS[p[0]] + SGF_LETTERS[p[1]] : ''
}

const esc = s => String(s).replace(/[\]\\]/g, m => '\\' + m)

// The game as SGF with every variation line as a branch.
export function sgfWithVariations(g, lines) {
  const size = g.size
  let head = `;GM[1]FF[4]CA[UTF-8]AP[tengen]SZ[${size}]KM[${g.komi}]RU[${esc(g.rules || '')}]` +
    `PB[${esc(g.black ? g.black.name : '')}]PW[${esc(g.white ? g.white.name : '')}]`
  if (g.handicap) head += `HA[${g.handicap}]`
  if (g.setup && g.setup.length) head += 'AB' + g.setup.map(v => `[${sgfPoint(size, v)}]`).join('')
  if (g.result) head += `RE[${esc(g.result)}]`
  const root = {prop: head, children: []}
  const main = [root]
  let node = root
  const moveProp = m => `;${m.color === 'white' ? 'W' : 'B'}[${sgfPoint(size, m.move)}]`
  for (const m of g.moves) {
    const n = {prop: moveProp(m), children: []}
    node.children.push(n)
    main.push(n)
    node = n
  }
  for (const line of lines) {
    let n = main[Math.min(line.at, main.length - 1)]
    for (const m of line.moves) {
      const prop = moveProp(m)
      let child = n.children.find(c => c.prop === prop)
      if (!child) { child = {prop, children: []}; n.children.push(child) }
      n = child
    }
  }
  const write = n => {
    let s = n.prop
    while (n.children.length === 1) { n = n.children[0]; s += n.prop }
    for (const c of n.children.length > 1 ? n.children : []) s += '(' + write(c) + ')'
    return s
  }
  return '(' + write(root) + ')\n'
}
