// board.js — board helpers of the `tengen serve` tests and of
// bench/serve/load.js, with no dependency: GTP vertices <-> board string
// indices (docs/protocol.md, "Conventions"), SGF points, a challenge's id,
// and whether a random player's move is surely legal.
'use strict'

const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'

// Board string index (row by row from the top row) -> GTP vertex.
function vertexOf(index, size) {
  const row = size - Math.floor(index / size)
  return COLUMNS[index % size] + row
}

// GTP vertex -> board string index (-1 for pass or a malformed vertex).
function indexOf(vertex, size) {
  const m = /^([A-HJ-Z])(\d+)$/.exec(String(vertex).toUpperCase())
  if (!m) return -1
  const col = COLUMNS.indexOf(m[1])
  const row = Number(m[2])
  if (col < 0 || col >= size || row < 1 || row > size) return -1
  return (size - row) * size + col
}

// GTP vertex -> SGF point ("aa" is the top-left corner).
function sgfPoint(vertex, size) {
  const i = indexOf(vertex, size)
  if (i < 0) return ''
  const a = 'abcdefghijklmnopqrstuvwxy'
  return a[i % size] + a[Math.floor(i / size)]
}

// The challenge id in a challenge.create answer: docs/protocol.md names the
// field `challenge` without saying whether it is the id or the challenge
// object; both are read.
function challengeId(answer) {
  const c = answer && answer.challenge
  return c !== null && typeof c === 'object' ? c.id : c
}

// Whether `colour` ('black'/'white') may play at board index i with no risk
// of the move being illegal: the point is empty, the move is no suicide, and
// it is not a single-stone capture by a lone stone left in atari (a possible
// ko recapture, illegal under any ko rule).  Under the default Chinese rules
// an illegal move is voided and counted as a pass with a warning (RULES.md R6,
// tengen's `illegal=void`), and two warnings lose the game, so random players
// must not try them.
function safeMove(board, size, i, colour) {
  if (board[i] !== '.') return false
  const me = colour === 'black' ? 'X' : 'O'
  const op = me === 'X' ? 'O' : 'X'
  const b = board.split('')
  b[i] = me
  const nb = j => {
    const r = Math.floor(j / size), c = j % size, out = []
    if (r > 0) out.push(j - size)
    if (r < size - 1) out.push(j + size)
    if (c > 0) out.push(j - 1)
    if (c < size - 1) out.push(j + 1)
    return out
  }
  const chain = j => {
    const col = b[j], seen = new Set([j]), stack = [j], libs = new Set()
    while (stack.length) {
      const k = stack.pop()
      for (const x of nb(k)) {
        if (b[x] === '.') libs.add(x)
        else if (b[x] === col && !seen.has(x)) { seen.add(x); stack.push(x) }
      }
    }
    return {stones: seen, libs: libs.size}
  }
  let captured = 0
  for (const x of nb(i)) {
    if (b[x] !== op) continue
    const c = chain(x)
    if (c.libs === 0) for (const st of c.stones) { b[st] = '.'; captured++ }
  }
  const mine = chain(i)
  if (mine.libs === 0) return false
  if (captured === 1 && mine.stones.size === 1 && mine.libs === 1) return false
  return true
}

module.exports = {COLUMNS, vertexOf, indexOf, sgfPoint, challengeId, safeMove}
