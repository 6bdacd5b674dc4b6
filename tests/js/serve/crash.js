// crash.js — `tengen serve` killed with SIGKILL in the middle of play loses
// no acknowledged move.  Starts the server (free 127.0.0.1 port, temporary
// database), registers 8 players and starts 4 games (13x13; two timed, two
// untimed), plays random moves (any empty point of the board string; on
// `illegal` another), records every move a client was acknowledged (`ok` to
// `game.move`), kills the server at a random moment, restarts it on the same
// database and checks, for every game:
//   - GET /api/games/ID lists exactly the acknowledged moves, plus at most the
//     unanswered move(s) in flight at the kill (each one a client really sent);
//   - the players' tokens still log them in (hello), game.watch gives the same
//     moves, and a timed game's clock was not reset to the full time (nor set
//     back by more than 2 s from the last clock the clients saw);
//   - play goes on: one more move is acknowledged in every game.
// Twice.  Bounded: fails after 60 s.
// Usage: node crash.js TENGEN_BIN   (or TENGEN_BIN in the environment);
// CRASH_SEED=N repeats a run's random choices, CRASH_KEEP_DB=1 keeps its database.
'use strict'

const assert = require('assert')
const fs = require('fs')
const path = require('path')
const {startServer, killServer, tmpDir, get, Client, vertexOf, makeChecker, sleep, challengeId, safeMove} = require('./lib')

const bin = process.argv[2] || process.env.TENGEN_BIN
if (!bin) {
  console.error('usage: node crash.js TENGEN_BIN')
  process.exit(2)
}

const TIME_LIMIT_MS = 60000
const KILLS = 2
const SIZE = 13
const FULL_MS = 600000
const SETTINGS = [
  {size: SIZE, color: 'black', time: 'absolute:600'},
  {size: SIZE, color: 'black', time: 'byoyomi:600+5x30'},
  {size: SIZE, color: 'black'},
  {size: SIZE, color: 'black', komi: 0.5},
]

// A seeded generator, so that a failure can be rerun (CRASH_SEED=N).
let seed = Number(process.env.CRASH_SEED) || (Date.now() % 1000000)
function random() {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}
const initialSeed = seed

const {check, results} = makeChecker('', () => {
  if (server && server.exited) throw new Error(`the server is dead: ${JSON.stringify(server.exited)}`)
})
let server = null
let dbPath = null
const games = []
let stats = {acked: 0, illegal: 0, rateLimited: 0, notYourTurn: 0, other: 0}

function note(s) { console.log(`# ${s}`) }

// Set by round(): called once, right after the next move is sent, to time
// the kill so that a move is often in flight (read, being written, or
// written and not yet acknowledged).
let killHook = null

// ---- one player -----------------------------------------------------------

class Player {
  constructor(name, colour, game) {
    this.name = name
    this.colour = colour
    this.game = game
    this.password = `password-${name}`
    this.token = null
    this.client = null
    this.n = 0             // moves made in the game, as this player last heard
    this.toMove = 'black'
    this.board = '.'.repeat(SIZE * SIZE)
    this.phase = 'play'
    this.tried = new Set()  // points refused as illegal at this.n
    this.busy = false
    this.first = true
    this.playing = false
  }

  attach(client) {
    this.client = client
    this.busy = false
    client.ws.on('message', data => {
      let m
      try { m = JSON.parse(data.toString()) } catch (e) { return }
      if (m.type === 'game.move' && m.game === this.game.id) this.onMove(m)
      else if (m.type === 'game.state' && m.game && m.game.id === this.game.id) this.onState(m.game)
    })
  }

  onMove(m) {
    this.game.seen[m.n] = {n: m.n, color: m.color, move: m.move}
    if (m.clock) this.game.lastClock = m.clock
    if (m.n > this.n) {
      this.n = m.n
      this.board = m.board
      this.toMove = m.to_move
      this.tried.clear()
    }
    this.schedule()
  }

  onState(g) {
    // A move the ruleset voided (counted as a pass with a warning: R6's
    // `void`, the Chinese default) is acknowledged `ok` and then shown in a
    // game.state.  The random players avoid illegal moves, so this is an error.
    for (const a of this.game.acked) {
      const m = g.moves[a.n - 1]
      if (m && m.move !== a.move && !this.game.voided.has(a.n)) {
        this.game.voided.add(a.n)
        this.game.errors.push(`move ${a.n} ${a.color} ${a.move} was acknowledged, then recorded as ${m.move} (voided)`)
        a.move = m.move
      }
    }
    this.n = g.moves.length
    this.board = g.board
    this.toMove = g.to_move
    this.phase = g.phase
    this.tried.clear()
    this.game.lastState = g
    this.schedule()
  }

  schedule() {
    if (!this.playing || this.busy || this.phase !== 'play' || this.toMove !== this.colour) return
    this.busy = true
    // Timed games: the first move of each player takes 300 ms, so that the
    // clocks have visibly run before the first kill.
    const think = this.first && this.game.timed ? 300 : 15 + Math.floor(random() * 40)
    setTimeout(() => this.move(), think)
  }

  async move() {
    if (!this.playing || this.client.closed) { this.busy = false; return }
    const n = this.n + 1
    const empty = []
    for (let j = 0; j < this.board.length; j++) if (!this.tried.has(j) && safeMove(this.board, SIZE, j, this.colour)) empty.push(j)
    const i = empty.length ? empty[Math.floor(random() * empty.length)] : -1
    const move = i < 0 ? 'pass' : vertexOf(i, SIZE)
    const sent = {n, color: this.colour, move, by: this.name}
    this.game.sent.push(sent)
    this.game.inflight = sent
    let a
    try {
      const answer = this.client.request('game.move', {game: this.game.id, move, n}, 10000)
      if (killHook) { const h = killHook; killHook = null; h() }
      a = await answer
    } catch (e) {
      this.busy = false   // closed (the kill) or no answer: the move stays in flight
      return
    }
    this.game.inflight = null
    sent.answer = a.type === 'ok' ? 'ok' : a.code
    if (a.type === 'ok') {
      this.first = false
      stats.acked++
      if (a.n !== n) this.game.errors.push(`ok for ${move} has n ${a.n}, not ${n}`)
      this.game.acked.push({n, color: this.colour, move})
      if (this.n < n) { this.n = n; this.toMove = this.colour === 'black' ? 'white' : 'black' }
      this.busy = false
      return
    }
    if (a.code === 'illegal') { stats.illegal++; this.tried.add(i) }
    else if (a.code === 'rate_limited') { stats.rateLimited++; await sleep(300) }
    else if (a.code === 'not_your_turn') { stats.notYourTurn++; await sleep(50) }
    else if (a.code === 'wrong_phase') { this.phase = 'over'; note(`game ${this.game.id}: ${move} answered wrong_phase; the game has ended`) }
    else { stats.other++; this.game.errors.push(`${this.name} ${move} n=${n}: ${JSON.stringify(a)}`) }
    this.busy = false
    this.schedule()
  }
}

// ---- the test ---------------------------------------------------------------

async function connect(p, round) {
  const c = await Client.open(server.url, {name: `${p.name}@${round}`})
  c.minGapMs = 0   // the players pace themselves (think time), well under the limit
  const h = await c.ok('hello', {token: p.token})
  if (!h.user || h.user.name !== p.name) {
    // Reported as a failure by the caller; log in to go on with the check.
    const l = await c.ok('login', {name: p.name, password: p.password})
    p.token = l.token
    p.attach(c)
    return false
  }
  p.attach(c)
  return true
}

async function watchAll(round) {
  for (const g of games) {
    for (const p of [g.black, g.white]) {
      p.playing = false
      await p.client.ok('game.watch', {game: g.id})
    }
  }
  // Each player has its game.state (handled by onState) once game.watch is answered and the state came.
  const deadline = Date.now() + 5000
  for (const g of games) {
    for (const p of [g.black, g.white]) {
      while (!p.client.all.some(m => m.type === 'game.state' && m.game && m.game.id === g.id)) {
        if (Date.now() > deadline) throw new Error(`${p.name}: no game.state for game ${g.id} after game.watch (round ${round})`)
        await sleep(20)
      }
    }
  }
}

function startPlay() {
  for (const g of games) for (const p of [g.black, g.white]) { p.playing = true; p.schedule() }
}

function stopPlay() {
  for (const g of games) for (const p of [g.black, g.white]) p.playing = false
}

async function apiMoves(g) {
  const r = await get(server, `/api/games/${g.id}`)
  assert.strictEqual(r.status, 200, `GET /api/games/${g.id}: ${r.status} ${r.body.slice(0, 200)}`)
  const game = r.json.game || r.json
  return game
}

// The moves the server kept must be the acknowledged ones, plus at most the
// unanswered ones in flight, each exactly as sent.
function checkMoves(g, stored) {
  const got = stored.map(m => ({n: m.n, color: m.color, move: m.move}))
  const acked = g.acked.slice().sort((a, b) => a.n - b.n)
  const maxAcked = acked.length ? acked[acked.length - 1].n : 0
  for (const a of acked) {
    const s = got[a.n - 1]
    assert.ok(s, `game ${g.id}: acknowledged move ${a.n} ${a.color} ${a.move} lost (the server kept ${got.length} moves)`)
    assert.deepStrictEqual(s, a, `game ${g.id}: move ${a.n} is ${JSON.stringify(s)}, acknowledged as ${JSON.stringify(a)}; ` +
      `sent at ${a.n}: ${JSON.stringify(g.sent.filter(x => x.n === a.n))}; kept ${JSON.stringify(got.slice(Math.max(0, a.n - 3), a.n + 2))}`)
  }
  // Moves 1..maxAcked not acknowledged to their sender (the ok was lost) must be what was sent.
  const sentAt = n => g.sent.filter(s => s.n === n && s.answer !== 'illegal' && s.answer !== 'rate_limited' && s.answer !== 'not_your_turn' && s.answer !== 'wrong_phase')
  for (let n = 1; n <= got.length; n++) {
    const cands = sentAt(n).map(s => JSON.stringify({n: s.n, color: s.color, move: s.move}))
    assert.ok(cands.includes(JSON.stringify(got[n - 1])), `game ${g.id}: stored move ${JSON.stringify(got[n - 1])} was never sent unrefused by a client (sent at ${n}: ${cands.join(' ') || 'nothing'})`)
  }
  const extra = got.length - maxAcked
  assert.ok(extra >= 0, `game ${g.id}: ${-extra} acknowledged moves lost`)
  const unanswered = got.slice(maxAcked).filter(m => !g.acked.some(a => a.n === m.n))
  assert.strictEqual(unanswered.length, extra)
  // One move in flight at a time per game; two only when the first's ok was
  // lost after the opponent had already seen it and answered.
  const limit = extra === 2 && g.seen[maxAcked + 1] ? 2 : 1
  assert.ok(extra <= limit, `game ${g.id}: ${extra} moves beyond the last acknowledged one (${maxAcked}): ${JSON.stringify(got.slice(maxAcked))}`)
  return {kept: got.length, acked: acked.length, extra}
}

async function round(k) {
  // Play for a random while, then SIGKILL.
  startPlay()
  const before = stats.acked
  const wait = 700 + Math.floor(random() * 1800)
  await sleep(wait)
  // Kill 0-3 ms after the next move is sent (or now, if none comes in 1 s).
  const lag = Math.floor(random() * 4)
  await new Promise(resolve => {
    const t = setTimeout(() => { killHook = null; resolve() }, 1000)
    killHook = () => { clearTimeout(t); setTimeout(resolve, lag) }
  })
  const pid = server.child.pid
  const inflight = games.filter(g => g.inflight).length
  if (server.exited) throw new Error(`the server died by itself: ${JSON.stringify(server.exited)}\n${server.output.slice(-3000)}`)
  const ex = await killServer(server, 'SIGKILL')
  stopPlay()
  note(`kill ${k}: SIGKILL pid ${pid} after ${wait} ms and a move sent ${lag} ms before, ${stats.acked - before} moves acknowledged this round, ${inflight} games with a move in flight; exit ${JSON.stringify(ex)}`)
  await Promise.all(games.flatMap(g => [g.black.client, g.white.client]).map(c => Promise.race([c.closedPromise, sleep(3000)])))
  for (const g of games) for (const p of [g.black, g.white]) p.client.terminate()
  await sleep(50)

  server = await startServer(bin, {db: dbPath})
  note(`restarted on the same db: ${server.http} (pid ${server.child.pid})`)

  await check(`kill ${k}: every acknowledged move is kept, nothing unsent is added`, async () => {
    for (const g of games) {
      const stored = await apiMoves(g)
      const r = checkMoves(g, stored.moves)
      note(`  game ${g.id}: ${r.kept} moves kept, ${r.acked} acknowledged, ${r.extra} in flight and kept`)
      // Later rounds count from the stored record: a kept in-flight move counts as made.
      g.acked = stored.moves.map(m => ({n: m.n, color: m.color, move: m.move}))
      g.inflight = null
      g.sent = g.sent.filter(s => s.n <= stored.moves.length)
    }
  })

  await check(`kill ${k}: the tokens still log the players in`, async () => {
    const bad = []
    for (const g of games) for (const p of [g.black, g.white]) if (!await connect(p, k)) bad.push(p.name)
    assert.deepStrictEqual(bad, [], `hello with the token gave user null for ${bad.join(', ')} after the restart`)
  })
  for (const g of games) for (const p of [g.black, g.white]) if (!p.client || p.client.closed) await connect(p, k)

  await watchAll(k)
  await check(`kill ${k}: game.state after the restart agrees, and the clocks resumed`, async () => {
    for (const g of games) {
      const st = g.black.client.all.filter(m => m.type === 'game.state' && m.game.id === g.id).pop().game
      assert.deepStrictEqual(st.moves.map(m => ({n: m.n, color: m.color, move: m.move})), g.acked, `game ${g.id}: game.state moves`)
      assert.strictEqual(st.phase, 'play', `game ${g.id}: phase ${st.phase}`)
      if (!g.timed) continue
      const c = st.clock
      assert.ok(c && c.black && c.white, `game ${g.id}: clock ${JSON.stringify(c)}`)
      for (const colour of ['black', 'white']) {
        const ms = c[colour].main_ms
        assert.ok(typeof ms === 'number', `game ${g.id}: ${colour} main_ms ${ms}`)
        assert.ok(ms < FULL_MS, `game ${g.id}: ${colour}'s clock reset to the full time (${ms} ms) after the restart`)
        const last = g.lastClock && g.lastClock[colour] && g.lastClock[colour].main_ms
        if (typeof last === 'number') assert.ok(ms <= last + 2000, `game ${g.id}: ${colour}'s clock went back from ${last} to ${ms} ms`)
      }
      assert.ok(c.running === st.to_move || c.running === null, `game ${g.id}: the running clock is ${c.running}, ${st.to_move} to move`)
      note(`  game ${g.id} clock after the restart: black ${c.black.main_ms} ms, white ${c.white.main_ms} ms (last seen ${g.lastClock ? `${g.lastClock.black.main_ms} / ${g.lastClock.white.main_ms}` : '-'}), running ${c.running}`)
    }
  })

  await check(`kill ${k}: play goes on (one more move acknowledged in every game)`, async () => {
    const counts = games.map(g => g.acked.length)
    startPlay()
    const deadline = Date.now() + 5000
    while (games.some((g, i) => g.acked.length <= counts[i] && g.black.phase === 'play') && Date.now() < deadline) await sleep(20)
    const stuck = games.filter((g, i) => g.acked.length <= counts[i])
    assert.deepStrictEqual(stuck.map(g => g.id), [], `no move acknowledged within 5 s in games ${stuck.map(g => `${g.id} (${g.black.phase}, errors ${g.errors.slice(-2).join('; ')})`)}`)
  })
}

async function main() {
  const dir = tmpDir('tengen-serve-crash-')
  // TENGEN_TEST_DB: another database (serve_crash_abuse_pg.sh: a postgresql:// URI)
  dbPath = process.env.TENGEN_TEST_DB || path.join(dir, 't.db')
  try {
    server = await startServer(bin, {db: dbPath})
    note(`server on ${server.http} (pid ${server.child.pid}); seed ${initialSeed}`)

    // Accounts and games.
    const lobby = await Client.open(server.url, {name: 'setup'})
    for (let i = 0; i < SETTINGS.length; i++) {
      const g = {id: null, settings: SETTINGS[i], timed: !!SETTINGS[i].time, acked: [], sent: [], seen: {}, inflight: null, errors: [], lastClock: null, voided: new Set()}
      g.black = new Player(`p${2 * i}`, 'black', g)
      g.white = new Player(`p${2 * i + 1}`, 'white', g)
      for (const p of [g.black, g.white]) {
        const c = await Client.open(server.url, {name: p.name})
        const a = await c.ok('register', {name: p.name, password: p.password})
        p.token = a.token
        p.attach(c)
      }
      const ch = await g.black.client.ok('challenge.create', {settings: g.settings, opponent: g.white.name})
      const acc = await g.white.client.ok('challenge.accept', {challenge: challengeId(ch)})
      g.id = acc.game
      games.push(g)
    }
    lobby.terminate()
    await watchAll(0)
    note(`games ${games.map(g => g.id).join(', ')} started`)

    for (let k = 1; k <= KILLS; k++) await round(k)

    await check('at the end, the API lists every acknowledged move', async () => {
      stopPlay()
      await sleep(300)
      for (const g of games) {
        const stored = await apiMoves(g)
        checkMoves(g, stored.moves)
        assert.deepStrictEqual(g.errors, [], `game ${g.id}: unexpected answers`)
      }
    })
    note(`moves acknowledged ${stats.acked}, illegal ${stats.illegal}, rate_limited ${stats.rateLimited}, not_your_turn ${stats.notYourTurn}, other errors ${stats.other}`)
  } finally {
    stopPlay()
    for (const g of games) for (const p of [g.black, g.white]) if (p.client) p.client.terminate()
    if (server) {
      const alive = !server.exited
      await killServer(server)
      if (!alive) { results.failed++; console.log(`FAIL the server died by itself: ${JSON.stringify(server.exited)}\n${server.output.slice(-3000)}`) }
    }
    if (process.env.CRASH_KEEP_DB) note(`database kept: ${dbPath}`)
    else fs.rmSync(dir, {recursive: true, force: true})
  }
}

const timer = setTimeout(() => {
  console.log(`FAIL crash.js did not finish within ${TIME_LIMIT_MS / 1000} s (seed ${initialSeed})`)
  if (server) console.log(server.output.slice(-2000))
  process.exit(1)
}, TIME_LIMIT_MS)

main().then(() => {
  clearTimeout(timer)
  console.log(`# ${results.passed} passed, ${results.failed} failed (seed ${initialSeed})${results.failures.length ? ': ' + results.failures.join('; ') : ''}`)
  process.exit(results.failed ? 1 : 0)
}, e => {
  clearTimeout(timer)
  console.log(`FAIL ${e.stack || e} (seed ${initialSeed})`)
  if (server) console.log(`# server output:\n${server.output.slice(-3000)}`)
  process.exit(1)
})
