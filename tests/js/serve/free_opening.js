// free_opening.js — `tengen serve` under the free-opening ruleset of 002
// against the built-in engine, with raw WebSocket clients (issue 43): a
// person who chose the second seat plays tengen; the engine places opening
// stone 1, the person stones 2 and 3 (the wrong seat and a pass refused),
// the engine stone 4 and seals its prediction, which nothing the person
// or a spectator receives, and neither the API nor the SGF, carries; the
// server is killed and restarted before the person seals (the game, the
// seats and the engine's sealed prediction come back, still sealed); the
// person seals; the reveal sets the colours and the threshold; the engine
// moves as White or Black; the person resigns; the result, the record's
// predictions and the finished game's colours are checked.  Then the
// capture choice (002 §4.3) over the wire, between two people under
// `chinese capture=choose`: game.move's "own" where there is no choice is
// refused, where there is one removes the mover's own chains, and the move
// says so to both players, in the state and in the SGF.  Issue 49, between
// two people on 2x2: no undo reaches an opening stone, a repetition is a
// loss and not a refusal, and a threshold of a quarter gives a margin of a
// quarter in the result, its texts, the record and the games list.
// Usage: node free_opening.js TENGEN_BIN
'use strict'

const assert = require('assert')
const fs = require('fs')
const path = require('path')
const {startServer, killServer, tmpDir, get, Client, makeChecker, challengeId} = require('./lib')

const bin = process.argv[2] || process.env.TENGEN_BIN
if (!bin) {
  console.error('usage: node free_opening.js TENGEN_BIN')
  process.exit(2)
}

let server = null
const clients = []
const {check, results} = makeChecker('free opening: ', () => {
  if (server && server.exited) throw new Error(`the server is dead: ${JSON.stringify(server.exited)}`)
})

async function open(name) {
  const c = await Client.open(server.url, {name})
  clients.push(c)
  return c
}

function stateOf(c, game, pred, ms = 20000) {
  return c.waitFor(m => m.type === 'game.state' && m.game && m.game.id === game && pred(m.game), ms,
    `game.state of game ${game}`).then(m => m.game)
}

// Every prediction text seen in what a client received (not its own).
function predictionsIn(c, own) {
  const seen = new Set()
  for (const m of c.all) {
    for (const p of JSON.stringify(m).match(/"[WB]\+[0-9]+(?:\.5)?"/g) || []) if (p !== `"${own}"`) seen.add(p)
  }
  return [...seen]
}

async function main() {
  const dir = tmpDir('tengen-serve-free-')
  const db = path.join(dir, 't.db')
  try {
    server = await startServer(bin, {db})
    console.log(`# server on ${server.http} (pid ${server.child.pid})`)
    await run(db)
  } finally {
    for (const c of clients) c.terminate()
    if (server) await killServer(server)
    fs.rmSync(dir, {recursive: true, force: true})
  }
}

async function run(db) {
  let ana, spy, token, game, enginePrediction = null

  await check('ana registers; a spectator logs in as a guest', async () => {
    ana = await open('ana')
    token = (await ana.ok('register', {name: 'ana', password: 'password-ana'})).token
    spy = await open('spy')
    await spy.ok('guest')
  })

  await check('engine.play under free-opening with ana in the second seat: the engine places stone 1', async () => {
    const a = await ana.ok('engine.play', {engine: 'tengen', strength: {playouts: 60},
      settings: {size: 9, rules: 'free-opening', color: 'black', time: 'absolute:600'}})
    game = a.game
    assert.ok(game > 0, JSON.stringify(a))
    await ana.ok('game.watch', {game})
    await spy.ok('game.watch', {game})
    const g = await stateOf(ana, game, g => g.moves.length === 1)
    assert.strictEqual(g.phase, 'opening')
    assert.strictEqual(g.moves[0].color, 'white')
    assert.strictEqual(g.free_opening.first, 'white')
    assert.strictEqual(g.free_opening.placer, 'black') // stone 2 is the second player's
    assert.strictEqual(g.you, 'black')
  })

  let board = null
  const empty = () => {
    for (const v of ['E5', 'C3', 'G7', 'C7', 'G3', 'D4', 'F6']) if (!board.includes(v)) return v
    throw new Error('no empty point')
  }
  await check('stones 2 (Black) and 3 (White) by ana; a pass is refused', async () => {
    let g = await get(server, `/api/games/${game}`).then(r => r.json.game || r.json)
    board = g.moves.map(m => m.move)
    const pass = await ana.request('game.move', {game, move: 'pass'})
    assert.strictEqual(pass.type, 'error')
    assert.strictEqual(pass.code, 'illegal')
    const v2 = empty()
    await ana.ok('game.move', {game, move: v2})
    board.push(v2)
    const v3 = empty()
    await ana.ok('game.move', {game, move: v3})
    board.push(v3)
    g = await stateOf(ana, game, g => g.moves.length === 3)
    assert.strictEqual(g.moves[2].color, 'white')
    assert.strictEqual(g.moves[2].move, v3)
    assert.strictEqual(g.free_opening.placer, 'white')
  })

  await check('the engine places stone 4 and seals; no one else learns its prediction', async () => {
    const g = await stateOf(ana, game, g => g.phase === 'prediction' && g.free_opening.sealed.first, 60000)
    assert.strictEqual(g.moves.length, 4)
    assert.strictEqual(g.moves[3].color, 'black')
    assert.strictEqual(g.free_opening.mine, null)
    assert.strictEqual(g.free_opening.predictions, null)
    assert.deepStrictEqual(predictionsIn(ana, null), [], 'ana received a prediction')
    assert.deepStrictEqual(predictionsIn(spy, null), [], 'the spectator received a prediction')
    const api = await get(server, `/api/games/${game}`)
    assert.ok(!/"[WB]\+[0-9]/.test(api.body), `the API shows a prediction: ${api.body.slice(0, 400)}`)
    const sgf = await get(server, `/api/games/${game}/sgf`)
    assert.ok(!/P[FS]\[/.test(sgf.body), `the SGF shows a prediction: ${sgf.body}`)
  })

  await check('the server restarts: the game comes back, ana still second, the engine\'s prediction still sealed', async () => {
    const port = server.port
    await killServer(server)
    for (const c of [ana, spy]) c.terminate()
    server = await startServer(bin, {db, port})
    ana = await open('ana2')
    await ana.ok('hello', {token})
    await ana.ok('game.watch', {game})
    const g = await stateOf(ana, game, () => true)
    assert.strictEqual(g.phase, 'prediction')
    assert.strictEqual(g.you, 'black')
    assert.strictEqual(g.free_opening.sealed.first, true)
    assert.strictEqual(g.free_opening.sealed.second, false)
    assert.strictEqual(g.free_opening.predictions, null)
    assert.ok(typeof g.free_opening.prediction_ms.second === 'number' && g.free_opening.prediction_ms.second > 0,
      JSON.stringify(g.free_opening))
    assert.deepStrictEqual(predictionsIn(ana, null), [])
  })

  await check('ana seals W+40.5; the reveal: ana rates White higher and takes it, the seats swap', async () => {
    const bad = await ana.request('game.predict', {game, prediction: 'W+6.25'})
    assert.strictEqual(bad.code, 'bad_request')
    await ana.ok('game.predict', {game, prediction: 'W+40.5'})
    const again = await ana.request('game.predict', {game, prediction: 'B+1'})
    assert.strictEqual(again.code, 'wrong_phase')
    const g = await stateOf(ana, game, g => g.free_opening.revealed)
    enginePrediction = g.free_opening.predictions.first
    assert.strictEqual(g.free_opening.predictions.second, 'W+40.5')
    assert.match(enginePrediction, /^([WB]\+[0-9]+(\.5)?|0)$/)
    assert.strictEqual(g.you, 'white')
    assert.strictEqual(g.white.name, 'ana')
    assert.strictEqual(g.black.engine, true)
    assert.strictEqual(g.free_opening.first, 'black')
    assert.strictEqual(g.phase, 'play')
    assert.strictEqual(g.to_move, 'white')
    assert.ok(g.free_opening.threshold && g.free_opening.threshold.startsWith('W+'), g.free_opening.threshold)
  })

  await check('ana (White) moves first; tengen, now Black, answers; ana resigns', async () => {
    await ana.ok('game.move', {game, move: empty(), n: 5})
    await ana.waitFor(m => (m.type === 'game.move' && m.game === game && m.n === 6) ||
      (m.type === 'game.state' && m.game && m.game.id === game && m.game.moves.length >= 6), 60000, 'the engine\'s move 6')
    await ana.ok('game.resign', {game})
    const g = await stateOf(ana, game, g => g.phase === 'over')
    assert.strictEqual(g.result, 'B+R')
    assert.strictEqual(g.result_text, 'Black wins by resignation')
  })

  await check('the record and the finished game name the colours played', async () => {
    const sgf = (await get(server, `/api/games/${game}/sgf`)).body
    for (const prop of ['RU[free-opening]', `PF[${enginePrediction}]`, 'PS[W+40.5]', 'FC[B]', 'PW[ana]', 'RE[B+R]'])
      assert.ok(sgf.includes(prop), `the SGF lacks ${prop}: ${sgf}`)
    const fin = (await get(server, '/api/games?state=finished')).json.games
    const row = fin.find(x => x.id === game)
    assert.ok(row, JSON.stringify(fin))
    assert.strictEqual(row.white, 'ana')
    assert.strictEqual(row.white_engine, false)
    const api = await get(server, `/api/games/${game}`)
    const g = api.json.game || api.json
    assert.strictEqual(g.white.name, 'ana')
    assert.strictEqual(g.free_opening.first, 'black')
  })
  await check('the capture choice over the wire: game.move with own removes the mover\'s chains', async () => {
    const bo = await open('bo')
    await bo.ok('register', {name: 'bo', password: 'password-bo'})
    const a = await ana.ok('challenge.create', {settings: {size: 5, rules: 'chinese capture=choose', color: 'black'}})
    const g2 = (await bo.ok('challenge.accept', {challenge: challengeId(a)})).game
    await ana.ok('game.watch', {game: g2})
    await bo.ok('game.watch', {game: g2})
    const moves = ['A2', 'A1', 'C1', 'B2', 'E5', 'C2', 'E4', 'D1']
    for (let i = 0; i < moves.length; i++) await (i % 2 ? bo : ana).ok('game.move', {game: g2, move: moves[i], n: i + 1})
    const none = await ana.request('game.move', {game: g2, move: 'D5', own: true, n: 9})
    assert.strictEqual(none.code, 'illegal', JSON.stringify(none))
    await ana.ok('game.move', {game: g2, move: 'B1', own: true, n: 9})
    const m = await bo.waitFor(m => m.type === 'game.move' && m.game === g2 && m.n === 9, 5000, 'move 9')
    assert.strictEqual(m.own, true, JSON.stringify(m))
    assert.deepStrictEqual(m.captured, ['C1'])
    assert.strictEqual(m.board.slice(20), 'O..O.', m.board) // row 1: A1 White, B1 C1 empty, D1 White
    const api = await get(server, `/api/games/${g2}`)
    const g = api.json.game || api.json
    assert.strictEqual(g.capture_choice, true)
    assert.deepStrictEqual(g.moves[8], {n: 9, color: 'black', move: 'B1', own: true})
    const sgf = (await get(server, `/api/games/${g2}/sgf`)).body
    assert.ok(sgf.includes(';B[be]CC[own]'), sgf)
    await bo.ok('game.resign', {game: g2})
  })

  // ---- issue 49: two people on 2x2, every stone chosen.  ana (first, the
  // White seat) places A2; cy places A1 and B1, which takes A1; ana's stone
  // 4 on A1 is a one-stone suicide.  White holds A2 and B1 with two eyes
  // (position F), and cy, rating White higher, takes it: White to move.
  let cy = null
  async function openingOnTwo(first2, second2) {
    const a = await ana.ok('challenge.create', {settings: {size: 2, rules: 'free-opening', color: 'white'}})
    const game = (await cy.ok('challenge.accept', {challenge: challengeId(a)})).game
    await ana.ok('game.watch', {game})
    await cy.ok('game.watch', {game})
    await ana.ok('game.move', {game, move: 'A2'})
    await cy.ok('game.move', {game, move: 'A1'})
    await cy.ok('game.move', {game, move: 'B1'})
    await ana.ok('game.move', {game, move: 'A1'})
    await ana.ok('game.predict', {game, prediction: first2})
    await cy.ok('game.predict', {game, prediction: second2})
    const g = await stateOf(cy, game, g => g.phase === 'play')
    assert.strictEqual(g.white.name, 'cy')
    assert.strictEqual(g.to_move, 'white')
    assert.strictEqual(g.board, 'O..O', g.board) // row 2: A2 White; row 1: B1 White
    return game
  }
  const refused = async (c, type, fields, code) => {
    const a = await c.request(type, fields)
    assert.strictEqual(a.type, 'error', `${type} ${JSON.stringify(fields)}: ${JSON.stringify(a)}`)
    assert.strictEqual(a.code, code, JSON.stringify(a))
  }

  await check('no undo reaches an opening stone (002 §2.4); a move after them is taken back', async () => {
    cy = await open('cy')
    await cy.ok('register', {name: 'cy', password: 'password-cy'})
    const game = await openingOnTwo('W+1', 'W+2')
    await refused(cy, 'game.request', {game, what: 'undo'}, 'wrong_phase') // cy's stones 2 and 3
    await refused(ana, 'game.request', {game, what: 'undo'}, 'wrong_phase') // ana's stone 4
    await cy.ok('game.move', {game, move: 'pass'})
    await refused(ana, 'game.request', {game, what: 'undo'}, 'wrong_phase')
    await cy.ok('game.request', {game, what: 'undo'})
    await ana.ok('game.answer', {game, what: 'undo', accept: true})
    let g = await stateOf(cy, game, g => g.moves.length === 4)
    assert.strictEqual(g.to_move, 'white')
    await refused(cy, 'game.request', {game, what: 'undo'}, 'wrong_phase')
    g = await get(server, `/api/games/${game}`).then(r => r.json.game || r.json)
    assert.deepStrictEqual(g.moves.map(m => m.move), ['A2', 'A1', 'B1', 'A1'])
    await ana.ok('game.resign', {game})
  })

  await check('a repetition loses (002 §5.4): Black\'s suicide after White\'s pass is a loss, not a refusal', async () => {
    const game = await openingOnTwo('W+1', 'W+2')
    await cy.ok('game.move', {game, move: 'pass'})
    // Black's one-stone suicide on A1 leaves White facing F again, as after stone 4
    const a = await ana.request('game.move', {game, move: 'A1'})
    assert.notStrictEqual(a.type, 'error', `the repetition was refused: ${JSON.stringify(a)}`)
    const g = await stateOf(ana, game, g => g.phase === 'over')
    assert.strictEqual(g.result, 'W+F')
    assert.strictEqual(g.reason, 'forfeit')
    assert.strictEqual(g.result_text, 'White wins by forfeit')
    assert.strictEqual(g.moves.length, 5)
  })

  await check('a threshold of a quarter (002 §5.5): W+3.75, White 4 ahead, wins by 1/4 stone, in every text', async () => {
    const game = await openingOnTwo('W+3.5', 'W+4')
    await cy.ok('game.move', {game, move: 'pass'})
    await ana.ok('game.move', {game, move: 'pass'})
    await stateOf(ana, game, g => g.phase === 'removal')
    await ana.ok('game.accept', {game})
    await cy.ok('game.accept', {game})
    const g = await stateOf(ana, game, g => g.phase === 'over')
    assert.strictEqual(g.free_opening.threshold, 'W+3.75')
    assert.strictEqual(g.result, 'W+0.25')
    assert.strictEqual(g.result_text, 'White wins by ¼ stone')
    assert.strictEqual(g.result_text_zh, '白1/4子胜')
    const sgf = (await get(server, `/api/games/${game}/sgf`)).body
    assert.ok(sgf.includes('RE[W+0.25]') && sgf.includes('PF[W+3.5]PS[W+4]FC[B]'), sgf)
    const row = (await get(server, '/api/games?state=finished')).json.games.find(x => x.id === game)
    assert.ok(row, 'the game is not among the finished ones')
    assert.strictEqual(row.result, 'W+0.25')
  })
}

main().then(() => {
  console.log(`# ${results.passed} passed, ${results.failed} failed`)
  process.exit(results.failed ? 1 : 0)
}, e => {
  console.log(`FAIL ${e && e.stack || e}`)
  process.exit(1)
})
