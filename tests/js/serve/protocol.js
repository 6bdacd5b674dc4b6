// protocol.js — `tengen serve` checked against docs/protocol.md with raw
// WebSocket clients: a normal flow (register, login, challenge, accept, moves
// acknowledged and seen by the opponent and a spectator, a capture), then
// every kind of refusal — malformed JSON, a non-object, an unknown type, an
// unknown field, a wrong field type, an oversized frame (closed with 1009), a
// move for the other player or out of turn, a move in another game, a move
// after the end, a spectator moving, a forged token, a token replayed after
// logout, the rate limit, a foreign Origin — each answered with its `error`
// code and each checked to change nothing (via GET /api/games/ID), and the
// read-only HTTP API.  Starts the server itself on a free 127.0.0.1 port with
// a temporary database and always kills it.
// Usage: node protocol.js TENGEN_BIN   (or TENGEN_BIN in the environment)
'use strict'

const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const {startServer, killServer, tmpDir, get, Client, indexOf, sgfPoint, makeChecker, sleep, challengeId} = require('./lib')

const bin = process.argv[2] || process.env.TENGEN_BIN
if (!bin) {
  console.error('usage: node protocol.js TENGEN_BIN')
  process.exit(2)
}

const TIME_LIMIT_MS = 120000
const {check, results} = makeChecker('', () => {
  if (server && server.exited) throw new Error(`the server is dead: ${JSON.stringify(server.exited)}`)
})

let server = null
const clients = []

async function open(name, opts = {}) {
  const c = await Client.open(server.url, Object.assign({name}, opts))
  clients.push(c)
  return c
}

// Opens a connection and logs it in with hello {token}.
async function openAs(name, token) {
  const c = await open(name)
  const a = await c.ok('hello', {token})
  assert.ok(a.user, `${name}: hello with a valid token gave user ${JSON.stringify(a.user)}`)
  return c
}

async function apiGame(id) {
  const r = await get(server, `/api/games/${id}`)
  assert.strictEqual(r.status, 200, `GET /api/games/${id}: ${r.status} ${r.body.slice(0, 300)}`)
  const g = r.json && (r.json.game || r.json)
  assert.ok(g && typeof g === 'object', `GET /api/games/${id}: not a game: ${r.body.slice(0, 300)}`)
  return g
}

// The parts of a game a refused request must not change.
function essence(g) {
  return JSON.stringify({
    phase: g.phase, to_move: g.to_move, board: g.board, captures: g.captures,
    moves: g.moves, result: g.result === undefined ? null : g.result, paused: g.paused,
  })
}

// Runs fn (which makes a refused request) and checks the game is as before.
async function unchanged(gameId, fn) {
  const before = essence(await apiGame(gameId))
  const r = await fn()
  await sleep(30)
  const after = essence(await apiGame(gameId))
  assert.strictEqual(after, before, 'the game changed')
  return r
}

function expectError(answer, code, what) {
  assert.strictEqual(answer.type, 'error', `${what}: expected error ${code}, got ${JSON.stringify(answer)}`)
  assert.strictEqual(answer.code, code, `${what}: expected error ${code}, got ${JSON.stringify(answer)}`)
  assert.strictEqual(typeof answer.message, 'string', `${what}: error without a message string`)
}

// A raw frame that cannot carry an id: the error comes back without one.
async function rawRefused(c, text, code = 'bad_request') {
  c.drop(m => m.type === 'error')
  await c.sendRaw(text)
  const e = await c.waitFor(m => m.type === 'error', 3000, `an error for ${JSON.stringify(text).slice(0, 60)}`)
  expectError(e, code, JSON.stringify(text).slice(0, 60))
}

async function stillAlive(c) {
  assert.ok(!c.closed, `${c.name}: connection closed (${c.closed && c.closed.code})`)
  const a = await c.request('lobby.unsubscribe')
  assert.strictEqual(a.type, 'ok', `${c.name}: lobby.unsubscribe after the refusal: ${JSON.stringify(a)}`)
}

function waitMove(c, game, n, ms = 3000) {
  return c.waitFor(m => m.type === 'game.move' && m.game === game && m.n === n, ms, `game.move ${game}#${n}`)
}

function waitState(c, game, pred = () => true, ms = 3000) {
  return c.waitFor(m => m.type === 'game.state' && m.game && m.game.id === game && pred(m.game), ms, `game.state of game ${game}`)
}

async function main() {
  const dir = tmpDir('tengen-serve-protocol-')
  try {
    // TENGEN_TEST_DB: another database (serve_protocol_pg.sh: a postgresql:// URI)
    server = await startServer(bin, {db: process.env.TENGEN_TEST_DB || path.join(dir, 't.db')})
    console.log(`# server on ${server.http} (pid ${server.child.pid})`)
    await run()
  } finally {
    for (const c of clients) c.terminate()
    if (server) {
      const alive = !server.exited
      await killServer(server)
      if (!alive) console.log(`FAIL the server died during the test: ${JSON.stringify(server.exited)}\n${server.output.slice(-3000)}`)
      if (!alive) results.failed++
    }
    fs.rmSync(dir, {recursive: true, force: true})
  }
}

async function run() {
  const S = {}   // state shared between checks: tokens, clients, game ids
  const moves = []  // the moves of game G as played: {n, color, move}

  // ---- connection and accounts -------------------------------------------

  await check('welcome is the first message', async () => {
    const c = await open('first')
    assert.ok(c.all.length >= 1)
    const w = c.all[0]
    assert.strictEqual(w.type, 'welcome', `first message: ${JSON.stringify(w)}`)
    assert.strictEqual(w.protocol, 1)
    assert.ok(typeof w.server === 'string' && w.server.startsWith('tengen'), `server: ${w.server}`)
  })

  await check('register ana, bo, cy, dan', async () => {
    for (const name of ['ana', 'bo', 'cy', 'dan']) {
      const c = await open(name)
      const a = await c.ok('register', {name, password: `password-${name}`})
      assert.ok(typeof a.token === 'string' && /^[A-Za-z0-9_-]{40,}$/.test(a.token), `token: ${a.token}`)
      assert.ok(a.user && typeof a.user.id === 'number', `user: ${JSON.stringify(a.user)}`)
      assert.strictEqual(a.user.name, name)
      assert.strictEqual(a.user.guest, false)
      S[name] = {c, token: a.token, user: a.user}
    }
  })
  if (!S.dan) throw new Error('cannot go on without accounts')

  await check('register: a name taken is refused with name_taken', async () => {
    const c = await open('dup')
    expectError(await c.request('register', {name: 'ana', password: 'another-password'}), 'name_taken', 'register ana again')
  })

  await check('register: an invalid name or a short password is refused with bad_request', async () => {
    const c = await open('badreg')
    expectError(await c.request('register', {name: 'a b', password: 'password-x'}), 'bad_request', 'name with a space')
    expectError(await c.request('register', {name: 'x'.repeat(25), password: 'password-x'}), 'bad_request', 'name of 25 characters')
    expectError(await c.request('register', {name: 'shorty', password: 'short'}), 'bad_request', 'password of 5 bytes')
    const a = await c.ok('hello', {})
    assert.strictEqual(a.user, null)
  })

  await check('login: a wrong password is refused with bad_credentials, the right one works', async () => {
    const c = await open('login')
    expectError(await c.request('login', {name: 'ana', password: 'wrong-password'}), 'bad_credentials', 'wrong password')
    expectError(await c.request('login', {name: 'nobody', password: 'password-x'}), 'bad_credentials', 'unknown name')
    const a = await c.ok('login', {name: 'ana', password: 'password-ana'})
    assert.strictEqual(a.user.name, 'ana')
    assert.strictEqual(a.user.id, S.ana.user.id)
    assert.ok(typeof a.token === 'string' && a.token.length >= 40)
    // The new token works on a new connection.
    const d = await open('login2')
    const h = await d.ok('hello', {token: a.token})
    assert.strictEqual(h.user && h.user.name, 'ana')
  })

  await check('hello with a valid token logs the connection in', async () => {
    const c = await open('bo-hello')
    const h = await c.ok('hello', {token: S.bo.token})
    assert.deepStrictEqual(h.user, S.bo.user)
  })

  await check('guest gets a guest- name', async () => {
    const c = await open('guest')
    const a = await c.ok('guest')
    assert.ok(/^guest-[0-9a-f]{6}$/.test(a.user.name), `guest name: ${a.user.name}`)
    assert.strictEqual(a.user.guest, true)
    assert.ok(typeof a.token === 'string')
    S.guest = {c, token: a.token, user: a.user}
  })

  // ---- the lobby and a normal game ----------------------------------------

  await check('lobby: subscribe, then a challenge created and cancelled shows as lobby.update', async () => {
    const l = await open('lobby')
    await l.ok('lobby.subscribe')
    const lobby = await l.waitFor(m => m.type === 'lobby', 3000, 'lobby')
    assert.ok(Array.isArray(lobby.challenges) && Array.isArray(lobby.games) && Array.isArray(lobby.engines), JSON.stringify(lobby))
    const a = await S.dan.c.ok('challenge.create', {settings: {size: 9}})
    const id = challengeId(a)
    assert.strictEqual(typeof id, 'number', `challenge.create answer: ${JSON.stringify(a)}`)
    const u = await l.waitFor(m => m.type === 'lobby.update' && m.challenge && m.challenge.id === id, 3000, 'lobby.update (challenge)')
    assert.strictEqual(u.challenge.challenger, 'dan')
    assert.strictEqual(u.challenge.settings.size, 9)
    await S.dan.c.ok('challenge.cancel', {challenge: challengeId(a)})
    await l.waitFor(m => m.type === 'lobby.update' && m.challenge_removed === id, 3000, 'lobby.update (challenge_removed)')
    expectError(await S.bo.c.request('challenge.accept', {challenge: challengeId(a)}), 'not_found', 'accepting a cancelled challenge')
    S.lobby = l
  })

  await check('challenge, accept, watch: both players get game.state', async () => {
    const a = await S.ana.c.ok('challenge.create', {settings: {size: 9, color: 'black', time: 'absolute:600', komi: 6.5}})
    const b = await S.bo.c.ok('challenge.accept', {challenge: challengeId(a)})
    assert.strictEqual(typeof b.game, 'number', `challenge.accept answer: ${JSON.stringify(b)}`)
    S.G = b.game
    for (const [name, colour] of [['ana', 'black'], ['bo', 'white']]) {
      const c = S[name].c
      await c.ok('game.watch', {game: S.G})
      const st = (await waitState(c, S.G)).game
      assert.strictEqual(st.size, 9)
      assert.strictEqual(st.phase, 'play')
      assert.strictEqual(st.to_move, 'black')
      assert.strictEqual(st.black.name, 'ana')
      assert.strictEqual(st.white.name, 'bo')
      assert.strictEqual(st.komi, 6.5)
      assert.strictEqual(st.board, '.'.repeat(81))
      assert.deepStrictEqual(st.moves, [])
      assert.strictEqual(st.you, colour)
      assert.ok(st.clock && st.clock.black && typeof st.clock.black.main_ms === 'number', `clock: ${JSON.stringify(st.clock)}`)
      assert.ok(st.clock.black.main_ms <= 600000 && st.clock.black.main_ms > 590000, `black main_ms ${st.clock.black.main_ms}`)
    }
  })
  if (!S.G) throw new Error('cannot go on without a game')
  const G = S.G
  const player = colour => (colour === 'black' ? S.ana.c : S.bo.c)

  await check('a spectator watches: game.state with you null', async () => {
    await S.cy.c.ok('game.watch', {game: G})
    const st = (await waitState(S.cy.c, G)).game
    assert.strictEqual(st.you, null)
    assert.strictEqual(st.phase, 'play')
  })

  // Plays the moves, each acknowledged with its number and seen by the
  // opponent and the spectator as game.move with the documented fields.
  const script = [['black', 'E5'], ['white', 'C3'], ['black', 'C4'], ['white', 'G3'], ['black', 'B3'],
    ['white', 'G4'], ['black', 'D3'], ['white', 'G5'], ['black', 'C2']]
  await check('moves are acknowledged with n and seen by the opponent and the spectator (game.move fields)', async () => {
    for (const [colour, move] of script) {
      const n = moves.length + 1
      const me = player(colour)
      const opp = player(colour === 'black' ? 'white' : 'black')
      const fields = n % 2 ? {game: G, move, n} : {game: G, move}
      const a = await me.ok('game.move', fields)
      assert.strictEqual(a.n, n, `ok for ${move}: ${JSON.stringify(a)}`)
      moves.push({n, color: colour, move})
      for (const c of [opp, S.cy.c, me]) {
        const m = await waitMove(c, G, n)
        assert.strictEqual(m.color, colour)
        assert.strictEqual(m.move, move)
        assert.strictEqual(m.to_move, colour === 'black' ? 'white' : 'black')
        assert.ok(Array.isArray(m.captured), `captured: ${JSON.stringify(m.captured)}`)
        assert.strictEqual(typeof m.board, 'string')
        assert.strictEqual(m.board.length, 81)
        assert.strictEqual(m.board[indexOf(move, 9)], colour === 'black' ? 'X' : 'O', `board after ${move}`)
        assert.ok(m.captures && typeof m.captures.black === 'number' && typeof m.captures.white === 'number', `captures: ${JSON.stringify(m.captures)}`)
        assert.ok(m.clock && m.clock.black && m.clock.white && 'running' in m.clock, `clock: ${JSON.stringify(m.clock)}`)
        assert.strictEqual(m.clock.running, m.to_move)
        assert.ok('warning' in m, 'game.move without warning')
        if (move === 'C2') assert.deepStrictEqual(m.captured, ['C3'], 'C2 captures C3')
        else assert.deepStrictEqual(m.captured, [], `${move} captures nothing`)
      }
    }
  })

  await check('a capture: C2 takes the white stone at C3 (captured, board, captures)', async () => {
    const g = await apiGame(G)
    assert.strictEqual(g.board[indexOf('C3', 9)], '.', `C3 after the capture: board ${g.board}`)
    assert.strictEqual(g.captures.black + g.captures.white, 1, `captures: ${JSON.stringify(g.captures)}`)
    // The last game.move the spectator saw was C2 (consumed above); check it via a fresh watch.
    const w = await open('capture-watch')
    await w.ok('game.watch', {game: G})
    const st = (await waitState(w, G)).game
    assert.strictEqual(st.moves.length, script.length)
    assert.strictEqual(st.last, 'C2')
    assert.strictEqual(st.board, g.board)
  })

  await check('GET /api/games/ID: the moves as played', async () => {
    const g = await apiGame(G)
    assert.strictEqual(g.id, G)
    assert.deepStrictEqual(g.moves.map(m => ({n: m.n, color: m.color, move: m.move})), moves)
    assert.strictEqual(g.to_move, 'white')
    assert.strictEqual(g.black.name, 'ana')
  })

  await check('GET /api/games/ID: the game.state object without `you`', async () => {
    const g = await apiGame(G)
    assert.ok(!('you' in g), `the API game has a field you: ${JSON.stringify(g.you)}`)
  })

  // White (bo) is to move from here on.

  // ---- refusals --------------------------------------------------------------

  await check('malformed JSON is refused with bad_request and changes nothing', async () => {
    await unchanged(G, () => rawRefused(S.bo.c, `{"type":"game.move","game":${G},"move":"A1"`))
    await unchanged(G, () => rawRefused(S.bo.c, `{"type":"game.move","game":${G},"move":"A1",}`))
    await unchanged(G, () => rawRefused(S.bo.c, 'game.move A1'))
    await stillAlive(S.bo.c)
  })

  await check('a non-object is refused with bad_request', async () => {
    for (const text of ['[]', `[{"type":"game.move","game":${G},"move":"A1"}]`, '"game.move"', '42', 'null', 'true']) {
      await unchanged(G, () => rawRefused(S.bo.c, text))
    }
    await stillAlive(S.bo.c)
  })

  await check('an unknown or missing type is refused with bad_request (with the id)', async () => {
    expectError(await S.bo.c.request('game.teleport', {game: G}), 'bad_request', 'type game.teleport')
    expectError(await S.bo.c.request('', {}), 'bad_request', 'empty type')
    await unchanged(G, async () => {
      S.bo.c.drop(m => m.type === 'error')
      await S.bo.c.send({id: 900, game: G, move: 'A1'})
      const e = await S.bo.c.waitFor(m => m.type === 'error', 3000, 'error for a message without type')
      expectError(e, 'bad_request', 'no type')
    })
  })

  await check('an unknown field is refused with bad_request and changes nothing', async () => {
    await unchanged(G, async () => expectError(await S.bo.c.request('game.move', {game: G, move: 'A1', color: 'white'}), 'bad_request', 'game.move with color'))
    await unchanged(G, async () => expectError(await S.bo.c.request('game.move', {game: G, move: 'A1', n: 10, extra: null}), 'bad_request', 'game.move with extra'))
    expectError(await S.bo.c.request('hello', {token: S.bo.token, version: 1}), 'bad_request', 'hello with version')
    expectError(await S.dan.c.request('challenge.create', {settings: {size: 9, colour: 'black'}}), 'bad_request', 'settings with colour')
    await stillAlive(S.bo.c)
  })

  await check('a wrong field type or a missing field is refused with bad_request and changes nothing', async () => {
    const bad = [
      {game: String(G), move: 'A1'},
      {game: G, move: 1},
      {game: G, move: ['A1']},
      {game: G, move: 'A1', n: '10'},
      {game: G, move: 'A1', n: 10.5},
      {game: G + 0.5, move: 'A1'},
      {game: G},
      {move: 'A1'},
    ]
    for (const f of bad) {
      await unchanged(G, async () => expectError(await S.bo.c.request('game.move', f), 'bad_request', `game.move ${JSON.stringify(f)}`))
    }
    expectError(await S.dan.c.request('challenge.create', {settings: {size: '9'}}), 'bad_request', 'size "9"')
    expectError(await S.dan.c.request('challenge.create', {settings: 9}), 'bad_request', 'settings 9')
    // An id of the wrong type: refused, no answer with that id.
    await unchanged(G, async () => {
      S.bo.c.drop(m => m.type === 'error' || m.type === 'ok')
      await S.bo.c.send({type: 'game.move', id: 'x1', game: G, move: 'A1'})
      const e = await S.bo.c.waitFor(m => m.type === 'error' || m.type === 'ok', 3000, 'an answer to a string id')
      expectError(e, 'bad_request', 'id "x1"')
    })
    await stillAlive(S.bo.c)
  })

  await check('an occupied point is refused with illegal (occupied) and changes nothing', async () => {
    await unchanged(G, async () => {
      const e = await S.bo.c.request('game.move', {game: G, move: 'E5'})
      expectError(e, 'illegal', 'E5 on E5')
      assert.ok(/occupied/.test(e.message), `message: ${e.message}`)
    })
  })

  await check('an oversized frame (> 8 KiB) closes the connection with 1009 and changes nothing', async () => {
    const c = await openAs('bo-big', S.bo.token)
    await unchanged(G, async () => {
      // A valid game.move for the player to move, padded with JSON whitespace to 9,000 bytes.
      const head = `{"type":"game.move","id":4242,"game":${G},"move":"A1"`
      await c.sendRaw(head + ' '.repeat(9000 - head.length) + '}')
      const closed = await Promise.race([c.closedPromise, sleep(5000).then(() => null)])
      assert.ok(closed, 'the connection was not closed within 5 s')
      assert.strictEqual(closed.code, 1009, `close code ${closed.code} (${closed.reason})`)
      assert.ok(!c.all.some(m => m.id === 4242), `answered: ${JSON.stringify(c.all)}`)
    })
    await stillAlive(S.bo.c)
  })

  await check('a message of 8,000 bytes is still accepted', async () => {
    const head = `{"type":"lobby.unsubscribe","id":77`
    S.bo.c.drop(m => m.type === 'ok' || m.type === 'error')
    await S.bo.c.sendRaw(head + ' '.repeat(8000 - head.length) + '}')
    const a = await S.bo.c.waitFor(m => (m.type === 'ok' || m.type === 'error') && m.id === 77, 3000, 'answer #77')
    assert.strictEqual(a.type, 'ok', JSON.stringify(a))
  })

  await check('a move for the other player (Black on White\'s turn) is refused with not_your_turn', async () => {
    await unchanged(G, async () => expectError(await S.ana.c.request('game.move', {game: G, move: 'A1'}), 'not_your_turn', 'Black on White\'s turn'))
    await unchanged(G, async () => expectError(await S.ana.c.request('game.move', {game: G, move: 'A1', n: moves.length + 1}), 'not_your_turn', 'Black on White\'s turn with n'))
  })

  await check('a move out of turn (n for another position) is refused with not_your_turn', async () => {
    const n = moves.length + 1
    await unchanged(G, async () => expectError(await S.bo.c.request('game.move', {game: G, move: 'A1', n: n - 2}), 'not_your_turn', `n ${n - 2} (stale)`))
    await unchanged(G, async () => expectError(await S.bo.c.request('game.move', {game: G, move: 'A1', n: n + 1}), 'not_your_turn', `n ${n + 1} (ahead)`))
  })

  await check('a move in another game (not a player of it) is refused with forbidden', async () => {
    await unchanged(G, async () => expectError(await S.dan.c.request('game.move', {game: G, move: 'A1'}), 'forbidden', 'dan in ana-bo'))
    await unchanged(G, async () => expectError(await S.dan.c.request('game.resign', {game: G}), 'forbidden', 'dan resigns ana-bo'))
  })

  await check('a move in a game that does not exist is refused with not_found', async () => {
    expectError(await S.bo.c.request('game.move', {game: 987654, move: 'A1'}), 'not_found', 'game 987654')
    expectError(await S.bo.c.request('game.watch', {game: 987654}), 'not_found', 'watch 987654')
  })

  await check('a spectator moving is refused with forbidden', async () => {
    await unchanged(G, async () => expectError(await S.cy.c.request('game.move', {game: G, move: 'A1'}), 'forbidden', 'spectator cy'))
    const g = await openAs('guest-watch', S.guest.token)
    await g.ok('game.watch', {game: G})
    await unchanged(G, async () => expectError(await g.request('game.move', {game: G, move: 'A1', n: moves.length + 1}), 'forbidden', 'spectator guest'))
  })

  await check('a move from a connection not logged in is refused (auth_required or forbidden)', async () => {
    const c = await open('anon-move')
    await unchanged(G, async () => {
      const e = await c.request('game.move', {game: G, move: 'A1'})
      assert.strictEqual(e.type, 'error', JSON.stringify(e))
      assert.ok(['auth_required', 'forbidden'].includes(e.code), JSON.stringify(e))
    })
  })

  await check('a move after the end (after resign) is refused with wrong_phase and changes nothing', async () => {
    const a = await S.ana.c.ok('challenge.create', {settings: {size: 9, color: 'black'}, opponent: 'bo'})
    const b = await S.bo.c.ok('challenge.accept', {challenge: challengeId(a)})
    S.G2 = b.game
    await S.ana.c.ok('game.watch', {game: S.G2})
    await S.bo.c.ok('game.watch', {game: S.G2})
    await S.ana.c.ok('game.move', {game: S.G2, move: 'D4'})
    await S.bo.c.ok('game.resign', {game: S.G2})
    const st = (await waitState(S.ana.c, S.G2, g => g.phase === 'over', 3000)).game
    S.G2over = st
    assert.ok(/^B\+R/.test(st.result), `result ${st.result}`)
    assert.strictEqual(st.reason, 'resign')
    await unchanged(S.G2, async () => expectError(await S.bo.c.request('game.move', {game: S.G2, move: 'E5'}), 'wrong_phase', 'White after the end'))
    await unchanged(S.G2, async () => expectError(await S.ana.c.request('game.move', {game: S.G2, move: 'E5'}), 'wrong_phase', 'Black after the end'))
    await unchanged(S.G2, async () => expectError(await S.bo.c.request('game.resign', {game: S.G2}), 'wrong_phase', 'resigning again'))
    await unchanged(S.G2, async () => expectError(await S.ana.c.request('game.move', {game: S.G2, move: 'pass'}), 'wrong_phase', 'a pass after the end'))
  })

  await check('a suicide under the Chinese rules: refused (illegal) or voided (ok, then a game.state with a pass and a warning); no stone placed', async () => {
    const a = await S.ana.c.ok('challenge.create', {settings: {size: 9, color: 'black'}, opponent: 'bo'})
    const G3 = (await S.bo.c.ok('challenge.accept', {challenge: challengeId(a)})).game
    await S.ana.c.ok('game.watch', {game: G3})
    await S.bo.c.ok('game.watch', {game: G3})
    for (const [c, mv] of [[S.ana.c, 'A2'], [S.bo.c, 'E5'], [S.ana.c, 'B1']]) await c.ok('game.move', {game: G3, move: mv})
    S.bo.c.drop(m => m.type === 'game.state')
    const r = await S.bo.c.request('game.move', {game: G3, move: 'A1', n: 4})
    const g = await apiGame(G3)
    assert.strictEqual(g.board[indexOf('A1', 9)], '.', 'a stone stands on A1')
    if (r.type === 'error') {
      expectError(r, 'illegal', 'suicide')
      assert.strictEqual(g.moves.length, 3)
      return
    }
    assert.strictEqual(r.n, 4, JSON.stringify(r))
    const st = (await waitState(S.bo.c, G3, x => x.moves.length === 4)).game
    assert.strictEqual(st.moves[3].move, 'pass', `the voided move: ${JSON.stringify(st.moves[3])}`)
    assert.strictEqual(st.warnings.white, 1, `warnings ${JSON.stringify(st.warnings)}`)
    assert.strictEqual(st.to_move, 'black')
    assert.deepStrictEqual(g.moves.map(m => m.move), ['A2', 'E5', 'B1', 'pass'])
    console.log('# a suicide is acknowledged `ok` and voided: game.state with a pass and a warning')
  })

  await check('lobby.update: the game started and the game ended (GAME_SUMMARY)', async () => {
    assert.ok(S.G2over, 'no second game')
    const started = await S.lobby.waitFor(m => m.type === 'lobby.update' && m.game && m.game.id === S.G2, 3000, 'lobby.update for the new game')
    for (const f of ['black', 'white', 'size', 'rules', 'komi', 'handicap', 'phase', 'moves', 'result']) assert.ok(f in started.game, `summary without ${f}: ${JSON.stringify(started.game)}`)
    assert.strictEqual(started.game.black, 'ana')
    await S.lobby.waitFor(m => m.type === 'lobby.update' && m.game && m.game.id === S.G2 && m.game.phase === 'over', 3000, 'lobby.update for the ended game')
  })

  await check('an open challenge for bo cannot be accepted by dan (forbidden)', async () => {
    const a = await S.ana.c.ok('challenge.create', {settings: {size: 9}, opponent: 'bo'})
    const e = await S.dan.c.request('challenge.accept', {challenge: challengeId(a)})
    assert.strictEqual(e.type, 'error', JSON.stringify(e))
    assert.ok(['forbidden', 'not_found'].includes(e.code), JSON.stringify(e))
    expectError(await S.dan.c.request('challenge.cancel', {challenge: challengeId(a)}), 'forbidden', 'dan cancels ana\'s challenge')
    await S.ana.c.ok('challenge.cancel', {challenge: challengeId(a)})
  })

  await check('a forged token in hello: user null, then challenge.create is auth_required and creates nothing', async () => {
    const c = await open('forged')
    const forged = crypto.randomBytes(32).toString('base64url')
    const h = await c.ok('hello', {token: forged})
    assert.strictEqual(h.user, null, `user: ${JSON.stringify(h.user)}`)
    // A real token with one character changed.
    const t = S.ana.token
    const altered = t.slice(0, 5) + (t[5] === 'A' ? 'B' : 'A') + t.slice(6)
    const h2 = await c.ok('hello', {token: altered})
    assert.strictEqual(h2.user, null, `altered token: user ${JSON.stringify(h2.user)}`)
    S.lobby.drop(m => m.type === 'lobby.update')
    expectError(await c.request('challenge.create', {settings: {size: 9}}), 'auth_required', 'challenge.create with a forged token')
    expectError(await c.request('logout'), 'auth_required', 'logout with a forged token')
    await sleep(200)
    const upd = S.lobby.peek(m => m.type === 'lobby.update' && m.challenge)
    assert.deepStrictEqual(upd, [], 'a challenge appeared in the lobby')
  })

  await check('a token replayed after logout: user null', async () => {
    const c = await open('eve')
    const r = await c.ok('register', {name: 'eve', password: 'password-eve'})
    const other = await openAs('eve-2', r.token)
    await c.ok('logout')
    expectError(await c.request('challenge.create', {settings: {size: 9}}), 'auth_required', 'challenge.create after logout')
    const d = await open('eve-replay')
    const h = await d.ok('hello', {token: r.token})
    assert.strictEqual(h.user, null, `replayed token: user ${JSON.stringify(h.user)}`)
    expectError(await d.request('challenge.create', {settings: {size: 9}}), 'auth_required', 'challenge.create with the replayed token')
    // "revoked everywhere": the other connection logged in with it is logged out too.
    expectError(await other.request('challenge.create', {settings: {size: 9}}), 'auth_required', 'challenge.create on another connection of the revoked token')
    // The account itself is still there.
    const l = await d.ok('login', {name: 'eve', password: 'password-eve'})
    assert.strictEqual(l.user.name, 'eve')
    assert.notStrictEqual(l.token, r.token)
  })

  await check('the rate limit: a burst of 200 gets rate_limited errors, the connection survives', async () => {
    const c = await open('burst')
    // `ping` is not in docs/protocol.md; the server answers it (ok or pong) or it is replaced.
    const probe = await c.request('ping')
    const type = probe.type === 'ok' || probe.type === 'pong' ? 'ping' : 'lobby.unsubscribe'
    if (type !== 'ping') console.log(`# ping answered ${JSON.stringify(probe)}; bursting lobby.unsubscribe instead`)
    else if (probe.type !== 'ok') console.log(`# ping is answered ${JSON.stringify(probe)} (not in docs/protocol.md)`)
    await sleep(2100)  // a full bucket
    const got = []
    const listener = data => { try { got.push(JSON.parse(data.toString())) } catch (e) { got.push({type: '!unparsable'}) } }
    c.ws.on('message', listener)
    for (let i = 0; i < 200; i++) c.ws.send(JSON.stringify({type, id: 1000 + i}))
    const deadline = Date.now() + 5000
    while (got.length < 200 && Date.now() < deadline) await sleep(20)
    await sleep(200)
    c.ws.off('message', listener)
    const limited = got.filter(m => m.type === 'error' && m.code === 'rate_limited')
    const served = got.filter(m => m.type === 'ok' || m.type === 'pong')
    const other = got.filter(m => !limited.includes(m) && !served.includes(m))
    S.burst = {got, limited, served}
    assert.ok(!c.closed, `the connection was closed: ${JSON.stringify(c.closed)}`)
    assert.deepStrictEqual(other.slice(0, 3), [], 'answers other than served and rate_limited')
    assert.ok(limited.length >= 100, `only ${limited.length} of 200 rate_limited (${served.length} served, ${got.length} answers)`)
    assert.ok(served.length >= 30 && served.length <= 80, `${served.length} of 200 served; the burst allowance is 40`)
    assert.strictEqual(got.length, 200, `${got.length} answers to 200 requests`)
    await sleep(2100)
    const a = await c.request(type)
    assert.ok(a.type === 'ok' || a.type === 'pong', `after the burst: ${JSON.stringify(a)}`)
  })

  await check('the rate limit: each rate_limited error carries the id of the request it refuses', async () => {
    assert.ok(S.burst, 'no burst')
    const ids = S.burst.limited.map(m => m.id).concat(S.burst.served.map(m => m.id)).filter(id => typeof id === 'number')
    const noId = S.burst.limited.filter(m => m.id === undefined).length
    assert.strictEqual(noId, 0, `${noId} of ${S.burst.limited.length} rate_limited errors carry no id: ${JSON.stringify(S.burst.limited[0])}`)
    assert.strictEqual(new Set(ids).size, 200, `${new Set(ids).size} distinct ids answered of 200`)
  })

  await check('an Origin of another site is refused at the handshake; its own or none is accepted', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${server.port + 1}`, 'https://127.0.0.1.evil.example']) {
      let refused = null
      try {
        const c = await Client.open(server.url, {origin, name: `origin ${origin}`, noWelcome: true})
        c.terminate()
      } catch (e) {
        refused = e
      }
      assert.ok(refused, `Origin ${origin} was accepted`)
      assert.ok(refused.statusCode >= 400 || /refused|closed|hang up|ECONNRESET/i.test(refused.message), `Origin ${origin}: ${refused.message}`)
    }
    const own = await open('own-origin', {origin: `http://127.0.0.1:${server.port}`})
    await own.ok('hello', {})
    const none = await open('no-origin')
    await none.ok('hello', {})
  })

  await check('game.chat: a player\'s line reaches everyone, a spectator\'s only the spectators', async () => {
    await S.ana.c.ok('game.chat', {game: G, text: 'hi from ana'})
    for (const c of [S.bo.c, S.cy.c, S.ana.c]) {
      const m = await c.waitFor(x => x.type === 'game.chat' && x.text === 'hi from ana', 3000, `${c.name}: ana's chat`)
      assert.strictEqual(m.game, G)
      assert.strictEqual(m.channel, 'players')
      assert.strictEqual(m.from, 'ana')
      assert.strictEqual(typeof m.at, 'number')
    }
    await S.cy.c.ok('game.chat', {game: G, text: 'psst from cy'})
    const m = await S.cy.c.waitFor(x => x.type === 'game.chat' && x.text === 'psst from cy', 3000, 'cy\'s own chat')
    assert.strictEqual(m.channel, 'spectators')
    await sleep(300)
    for (const c of [S.ana.c, S.bo.c]) assert.ok(!c.all.some(x => x.type === 'game.chat' && x.text === 'psst from cy'), `${c.name} saw the spectators' chat`)
    expectError(await S.ana.c.request('game.chat', {game: G, text: 'x'.repeat(501)}), 'bad_request', 'a chat line of 501 characters')
    expectError(await S.ana.c.request('game.chat', {game: G, text: ''}), 'bad_request', 'an empty chat line')
  })

  // ---- HTTP API ---------------------------------------------------------------

  await check('GET /api/games lists the live and the finished game; ?state= chooses', async () => {
    const all = await get(server, '/api/games')
    assert.strictEqual(all.status, 200)
    assert.ok(/json/.test(all.headers['content-type'] || ''), `content-type ${all.headers['content-type']}`)
    const ids = all.json.games.map(g => g.id)
    assert.ok(ids.includes(G) && ids.includes(S.G2), `ids ${ids}`)
    const g = all.json.games.find(x => x.id === G)
    for (const f of ['black', 'white', 'size', 'rules', 'komi', 'handicap', 'phase', 'moves', 'result']) assert.ok(f in g, `summary without ${f}: ${JSON.stringify(g)}`)
    assert.strictEqual(g.black, 'ana')
    assert.strictEqual(g.white, 'bo')
    assert.strictEqual(g.size, 9)
    assert.strictEqual(g.phase, 'play')
    assert.strictEqual(g.moves, moves.length)
    assert.strictEqual(g.result, null)
    const g2 = all.json.games.find(x => x.id === S.G2)
    assert.strictEqual(g2.phase, 'over')
    assert.ok(/^B\+R/.test(g2.result), `result ${g2.result}`)
    assert.ok(ids.indexOf(G) < ids.indexOf(S.G2), 'live games come first')
    const live = (await get(server, '/api/games?state=live')).json.games.map(x => x.id)
    assert.ok(live.includes(G) && !live.includes(S.G2), `live: ${live}`)
    const fin = (await get(server, '/api/games?state=finished')).json.games.map(x => x.id)
    assert.ok(!fin.includes(G) && fin.includes(S.G2), `finished: ${fin}`)
  })

  await check('GET /api/games/ID of the finished game', async () => {
    const g = await apiGame(S.G2)
    assert.strictEqual(g.phase, 'over')
    assert.strictEqual(g.reason, 'resign')
    assert.deepStrictEqual(g.moves.map(m => m.move), ['D4'])
  })

  await check('GET /api/games/ID/sgf: the record', async () => {
    const r = await get(server, `/api/games/${G}/sgf`)
    assert.strictEqual(r.status, 200, r.body.slice(0, 200))
    assert.ok(/application\/x-go-sgf/.test(r.headers['content-type'] || ''), `content-type ${r.headers['content-type']}`)
    const s = r.body
    assert.ok(/^\s*\(\s*;/.test(s), `not SGF: ${s.slice(0, 100)}`)
    for (const p of ['SZ[9]', 'PB[ana]', 'PW[bo]', 'KM[6.5]', 'RU[', 'TM[', 'BL[', 'WL[']) assert.ok(s.includes(p), `no ${p} in ${s.slice(0, 400)}`)
    const seq = [...s.matchAll(/;\s*([BW])\[([a-z]*)\]/g)].map(m => `${m[1]}[${m[2]}]`)
    const want = moves.map(m => `${m.color === 'black' ? 'B' : 'W'}[${sgfPoint(m.move, 9)}]`)
    assert.deepStrictEqual(seq, want, 'the SGF moves')
    assert.ok(s.includes('hi from ana'), 'the players\' chat is not in the SGF')
    assert.ok(!s.includes('psst from cy'), 'the spectators\' chat is in the SGF')
    const r2 = await get(server, `/api/games/${S.G2}/sgf`)
    assert.ok(/RE\[B\+R/.test(r2.body), `finished game's RE: ${r2.body.slice(0, 300)}`)
  })

  await check('GET /api/players/NAME', async () => {
    const r = await get(server, '/api/players/ana')
    assert.strictEqual(r.status, 200, r.body.slice(0, 200))
    assert.strictEqual(r.json.player.name, 'ana')
    const ids = r.json.games.map(g => g.id)
    assert.ok(ids.includes(G) && ids.includes(S.G2), `ana's games: ${ids}`)
    const r404 = await get(server, '/api/players/nobody-here')
    assert.strictEqual(r404.status, 404)
  })

  await check('GET an unknown game: 404 with a JSON not_found', async () => {
    for (const p of ['/api/games/987654', '/api/games/987654/sgf']) {
      const r = await get(server, p)
      assert.strictEqual(r.status, 404, `${p}: ${r.status}`)
      assert.ok(r.json && r.json.error === 'not_found', `${p}: ${r.body.slice(0, 200)}`)
    }
    const r = await get(server, '/api/games/abc')
    assert.ok(r.status === 404 || r.status === 400, `/api/games/abc: ${r.status}`)
    assert.ok(r.json && typeof r.json.error === 'string', `/api/games/abc: ${r.body.slice(0, 200)}`)
  })

  // ---- and the game goes on ---------------------------------------------------

  await check('after all the refusals, play goes on: White moves and Black sees it', async () => {
    const n = moves.length + 1
    S.bo.c.drop(m => m.type === 'game.move')
    S.ana.c.drop(m => m.type === 'game.move')
    const a = await S.bo.c.ok('game.move', {game: G, move: 'A1', n})
    assert.strictEqual(a.n, n)
    const m = await waitMove(S.ana.c, G, n)
    assert.strictEqual(m.move, 'A1')
    const g = await apiGame(G)
    assert.strictEqual(g.moves.length, n)
  })
}

const timer = setTimeout(() => {
  console.log(`FAIL protocol.js did not finish within ${TIME_LIMIT_MS / 1000} s`)
  if (server) console.log(server.output.slice(-2000))
  process.exit(1)
}, TIME_LIMIT_MS)

main().then(() => {
  clearTimeout(timer)
  console.log(`# ${results.passed} passed, ${results.failed} failed${results.failures.length ? ': ' + results.failures.join('; ') : ''}`)
  process.exit(results.failed ? 1 : 0)
}, e => {
  clearTimeout(timer)
  console.log(`FAIL ${e.stack || e}`)
  if (server) console.log(`# server output:\n${server.output.slice(-3000)}`)
  process.exit(1)
})
