#!/usr/bin/env node
// soak.js — a bounded soak of `tengen serve` (docs/protocol.md), on loopback
// only.  For --seconds it keeps --connections connections busy with a mix:
//
//   players      guests (one guest each, kept by its token), paired two by two
//                through challenge.create (with `opponent`) and challenge.accept,
//                playing random legal moves paced at --rate moves/s in total;
//                each game ends after a drawn number of moves, resigned or
//                passed out (stone removal: one player states, the other
//                concedes), and the two look for new opponents.  Between games
//                some reconnect and log in again with their token (`hello`);
//                in some games a player drops mid-game (a clean close or a
//                vanished socket) and comes back by token and game.watch;
//   spectators   sessions of watching: live games for a while, finished ones
//                by id (from /api/games?state=finished and the games the soak
//                saw end), some logged in by a guest token, some subscribed
//                to the lobby, reconnecting between sessions;
//   accounts     a trickle of `register` (Argon2id), then `login` with the
//                password on a new connection, `hello` with the token, and
//                now and then `logout`;
//   the API      GET /api/games/ID and /api/games/ID/sgf of finished games.
//
// Every --sample seconds (10) it reads the server's RSS (/proc/PID/status),
// the database's and its WAL's sizes, GET /metrics (loop lag p99 interpolated
// in the histogram's bucket, and max; commit p99; moves; connections), and
// its own figures (moves acknowledged a second, move->ack p50/p99, errors by
// code), prints a line, and at the end a summary (--json PATH: all of it as
// JSON).  It stops by itself, kills the server it started, refuses anything
// but loopback, and a hard stop ends a run that hangs.
//
// Usage (README.md; the hard fd limit, ulimit -Hn, must allow N+64 files):
//   node soak.js --server build/tengen [--connections 2000] [--rate 1000] [--seconds 600]
//   node soak.js --url ws://127.0.0.1:8080/ws --pid PID --db PATH ...
'use strict'

const fs = require('fs')
const {performance} = require('perf_hooks')
const os = require('os')
const {die, sleep, checkLoopback, checkFdLimit, checkServerFdLimit, CLK_TCK, procStat, procMem,
  schedstat, threadTimes, loadAverage, fileSize, summary, fmt, parseMetrics, bucketsDiff, histogramQuantile, histogramTop, httpGet,
  startServer, Conn} = require('./client')
const {vertexOf, safeMove} = require('../../tests/js/serve/board')

// ---- options -----------------------------------------------------------------

const USAGE = `usage: node soak.js (--server BIN [--db PATH] [--keep] | --url ws://127.0.0.1:PORT/ws [--pid PID] [--db PATH])
  [--seconds S (600, at most 1800)] [--connections N (2000)] [--rate MOVES_PER_S (1000)]
  [--players FRACTION (0.5)] [--accounts K (N/100, at least 2)] [--register-rate PER_S (0.5)]
  [--moves MIN-MAX (40-160)] [--size 19] [--reconnect P (0.3)] [--drop P (0.1)]
  [--api-rate PER_S (2)] [--sample S (10)] [--concurrency 50] [--json PATH] [--same-session]`

function parseArgs(argv) {
  const o = {seconds: 600, connections: 2000, rate: 1000, players: 0.5, accounts: null, registerRate: 0.5,
    movesMin: 40, movesMax: 160, size: 19, reconnect: 0.3, drop: 0.1, apiRate: 2, sample: 10,
    concurrency: 50, json: null, sameSession: false, url: null, pid: null, server: null, db: null, keep: false}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const val = () => {
      if (i + 1 >= argv.length) die(`${a} needs a value\n${USAGE}`)
      return argv[++i]
    }
    const num = () => {
      const v = Number(val())
      if (!Number.isFinite(v) || v < 0) die(`${a}: not a number\n${USAGE}`)
      return v
    }
    const frac = () => { const v = num(); if (v > 1) die(`${a}: a fraction 0..1`); return v }
    switch (a) {
      case '--server': o.server = val(); break
      case '--url': o.url = val(); break
      case '--pid': o.pid = Math.floor(num()); break
      case '--db': o.db = val(); break
      case '--keep': o.keep = true; break
      case '--same-session': o.sameSession = true; break
      case '--seconds': case '-s': o.seconds = num(); break
      case '--connections': case '-c': o.connections = Math.floor(num()); break
      case '--rate': case '-r': o.rate = num(); break
      case '--players': o.players = frac(); break
      case '--accounts': o.accounts = Math.floor(num()); break
      case '--register-rate': o.registerRate = num(); break
      case '--moves': {
        const m = /^(\d+)-(\d+)$/.exec(val())
        if (!m || Number(m[1]) > Number(m[2]) || Number(m[1]) < 2) die('--moves MIN-MAX, 2 <= MIN <= MAX')
        o.movesMin = Number(m[1]); o.movesMax = Number(m[2]); break
      }
      case '--size': o.size = Math.floor(num()); break
      case '--reconnect': o.reconnect = frac(); break
      case '--drop': o.drop = frac(); break
      case '--api-rate': o.apiRate = num(); break
      case '--sample': o.sample = Math.max(1, num()); break
      case '--concurrency': o.concurrency = Math.max(1, Math.floor(num())); break
      case '--json': o.json = val(); break
      case '-h': case '--help': console.log(USAGE); process.exit(0); break
      default: die(`unknown option ${a}\n${USAGE}`)
    }
  }
  if (!o.url && !o.server) die(USAGE)
  if (o.url && o.server) die('--url and --server exclude each other')
  if (o.seconds > 1800) { console.log('# --seconds capped at 1800'); o.seconds = 1800 }
  if (o.seconds <= 0) die('--seconds must be positive')
  if (o.size < 5 || o.size > 25) die('--size must be 5..25')
  if (o.movesMax > o.size * o.size * 0.6) die(`--moves: at most ${Math.floor(o.size * o.size * 0.6)} on ${o.size}x${o.size}`)
  if (o.accounts === null) o.accounts = Math.max(2, Math.floor(o.connections / 100))
  const players = 2 * Math.floor(o.connections * o.players / 2)
  if (players < 2) die('--players leaves no two players')
  if (players + o.accounts > o.connections) die('--players and --accounts leave no connection')
  o.nPlayers = players
  o.nSpectators = o.connections - players - o.accounts
  return o
}

const opt = parseArgs(process.argv.slice(2))

// ---- figures: a window (reset at each sample) and the whole run ---------------------

const LAT_KEYS = ['ack', 'opp', 'spec', 'connect', 'hello', 'guest', 'register', 'login', 'watch_live', 'watch_finished', 'api', 'challenge']
function newFigures() {
  const f = {counts: {}, errors: {}, lat: {}}
  for (const k of LAT_KEYS) f.lat[k] = []
  return f
}
let win = newFigures()
const all = newFigures()
function inc(key, n = 1) {
  win.counts[key] = (win.counts[key] || 0) + n
  all.counts[key] = (all.counts[key] || 0) + n
}
function err(code) {
  win.errors[code] = (win.errors[code] || 0) + 1
  all.errors[code] = (all.errors[code] || 0) + 1
}
function lat(key, ms) {
  win.lat[key].push(ms)
  all.lat[key].push(ms)
}

const rand = (a, b) => a + Math.random() * (b - a)
const randInt = (a, b) => Math.floor(rand(a, b + 1))
const now = () => performance.now()

// ---- the run's state ----------------------------------------------------------------

let url = null
let pid = null
let dbPath = opt.db
let metricsUrl = null
let apiBase = null
let server = null         // the server soak.js started
let stopping = false      // the soak is over: loops end
let phase = 'setup'
const runTag = Date.now().toString(36).slice(-5)
const slots = []
const waiting = []        // players looking for an opponent
const games = []          // games in play, scheduled round-robin
const gameById = new Map()
const finishedIds = []    // games seen ending (and from the API), for spectators
const liveIds = () => games.filter(g => g.phase === 'play').map(g => g.id)

function cleanup() {
  if (server) {
    server.kill()
    if (!opt.keep) { try { fs.rmSync(server.tmp, {recursive: true, force: true}) } catch (e) { /* left */ } }
  }
}
process.on('exit', cleanup)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { console.log(`# ${sig}: stopping`); process.exit(130) })

// At most opt.concurrency connections being opened at once.
let connecting = 0
const connectQueue = []
async function connectSlot(slot) {
  while (connecting >= opt.concurrency) await new Promise(r => connectQueue.push(r))
  connecting++
  try {
    const c = new Conn(url, slot.index, {onClose: onClose.bind(null, slot)})
    const t = now()
    await c.connect()
    lat('connect', now() - t)
    c.onEvent = m => onEvent(slot, c, m)
    slot.conn = c
    inc('connects')
    return c
  } catch (e) {
    err(`connect:${e.message}`)
    return null
  } finally {
    connecting--
    const next = connectQueue.shift()
    if (next) next()
  }
}

function onClose(slot, conn, code) {
  if (conn.closing || stopping) return
  // the server closed it: say so, and a player in a game comes back
  err(`closed_by_server:${code}`)
  if (slot.game && slot.conn === conn) comeBack(slot, slot.game)
}

// A request whose failure is counted as `what:code`; returns the answer or null.
async function ask(slot, conn, type, fields, key) {
  const t = now()
  const a = await conn.request(type, fields)
  if (a.type === 'ok' || a.type === 'pong') {
    if (key) lat(key, now() - t)
    return a
  }
  if (!(a.code === 'closed' && (conn.closing || stopping))) err(`${type}:${a.code}`)
  return null
}

// Connects and logs in: `hello` with the slot's token, else (if `login`) a new guest.
async function logIn(slot, login) {
  const c = await connectSlot(slot)
  if (!c) return null
  if (slot.token) {
    const a = await ask(slot, c, 'hello', {token: slot.token}, 'hello')
    if (a && a.user && slot.user && a.user.id === slot.user.id) { inc('hello_token_ok'); return c }
    if (a) { err('hello:token_not_recognised'); slot.token = null; slot.user = null }
    if (!a) return c.open ? c : null
  }
  if (login && c.open) {
    const a = await ask(slot, c, 'guest', {}, 'guest')
    if (a && a.user) { slot.token = a.token; slot.user = a.user; inc('guests') }
  }
  return c.open ? c : null
}

// ---- players --------------------------------------------------------------------

function newGame(id, b, w) {
  const g = {id, b, w, n: 0, toMove: 'black', board: '.'.repeat(opt.size * opt.size), phase: 'play',
    busy: false, acked: 0, oppSeen: 0, lastSent: 0, progress: now(), tried: new Set(), sentAt: new Map(),
    target: randInt(opt.movesMin, opt.movesMax), ending: Math.random() < 0.5 ? 'resign' : 'pass',
    dropAt: Math.random() < opt.drop ? randInt(4, opt.movesMin - 2) : -1, dropped: false,
    stateSent: false, over: false, started: now()}
  g.done = new Promise(r => { g.resolve = r })
  return g
}

function colourOf(g, slot) { return g.b === slot ? 'black' : 'white' }

// A game's next move waits for the last one's `ok`, its game.move, and the
// opponent's seeing it (unless the opponent is away).
function maybeRelease(g) {
  g.progress = now()
  const next = g.toMove === 'black' ? g.b : g.w
  if (g.n >= g.lastSent && g.acked >= g.lastSent && (g.oppSeen >= g.lastSent || !next.ready)) g.busy = false
}

function finishGame(g, how) {
  if (g.over) return
  g.over = true
  g.phase = 'over'
  const i = games.indexOf(g)
  if (i >= 0) games.splice(i, 1)
  gameById.delete(g.id)
  inc(`games_over_${how}`)
  finishedIds.push(g.id)
  if (finishedIds.length > 2000) finishedIds.splice(0, finishedIds.length - 2000)
  for (const s of [g.b, g.w]) {
    if (s.game === g) {
      s.game = null
      if (s.conn && s.conn.open) s.conn.send('game.unwatch', {game: g.id}, a => { if (a.type !== 'ok' && a.code !== 'closed') err(`game.unwatch:${a.code}`) })
    }
  }
  g.resolve()
}

function onPlayerEvent(slot, m) {
  const g = slot.game
  if (!g) return
  const colour = colourOf(g, slot)
  if (m.type === 'game.state' && m.game && m.game.id === g.id) {
    const st = m.game
    g.progress = now()
    if (st.moves.length >= g.n) {
      g.n = st.moves.length
      g.board = st.board
      g.toMove = st.to_move
      g.oppSeen = Math.max(g.oppSeen, g.n)
      g.acked = Math.max(g.acked, g.n)
      g.tried.clear()
    }
    if (st.phase === 'over') {
      finishGame(g, st.reason || 'over')
      return
    }
    if (st.phase === 'removal') {
      g.phase = 'removal'
      const me = st.removal && st.removal[colour]
      const them = st.removal && st.removal[colour === 'black' ? 'white' : 'black']
      // Black states once the estimate's proposal came (the next game.state,
      // or 3 s), again while the server answers `unavailable` (still
      // estimating); White concedes to it.
      if (colour === 'black' && me && !me.stated && !g.stateSent) {
        g.removalStates = (g.removalStates || 0) + 1
        const accept = tries => {
          if (g.over || g.phase !== 'removal' || !slot.conn || !slot.conn.open) return
          slot.conn.send('game.accept', {game: g.id}, a => {
            if (a.type === 'ok' || a.code === 'closed') return
            err(`game.accept:${a.code}`)
            if (a.code === 'unavailable' && tries < 30) setTimeout(() => accept(tries + 1), 500)
          })
        }
        if (g.removalStates >= 2) { g.stateSent = true; clearTimeout(g.acceptTimer); accept(0) }
        else g.acceptTimer = setTimeout(() => { if (!g.stateSent) { g.stateSent = true; accept(0) } }, 3000)
      }
      if (colour === 'white' && them && them.stated && me && !me.stated && !g.conceded) {
        g.conceded = true
        slot.conn.send('game.concede', {game: g.id}, a => { if (a.type !== 'ok' && a.code !== 'closed') err(`game.concede:${a.code}`) })
      }
      return
    }
    if (st.phase === 'play' && g.phase === 'removal') {
      // a dispute resumed play: end it by resignation
      inc('removal_disputes')
      g.ending = 'resign'
      g.target = 0
    }
    g.phase = st.phase
    maybeRelease(g)
    return
  }
  if (m.type === 'game.move' && m.game === g.id) {
    if (m.n < g.n) return
    if (m.color !== colour) {
      const t = g.sentAt.get(m.n)
      if (t !== undefined) lat('opp', now() - t)
      g.oppSeen = m.n
    }
    g.board = m.board
    g.n = m.n
    g.toMove = m.to_move
    g.tried.clear()
    maybeRelease(g)
  }
}

// Pairs this player with one waiting, or waits (at most 20 s) to be paired.
function pairMe(slot) {
  while (waiting.length) {
    const other = waiting.shift()
    if (other.conn && other.conn.open && other.ready && !other.game) return startGame(other, slot)
    other.pairResolve(null)
  }
  return new Promise(resolve => {
    const timer = setTimeout(() => { const i = waiting.indexOf(slot); if (i >= 0) waiting.splice(i, 1); resolve(null) }, 20000)
    slot.pairResolve = g => { clearTimeout(timer); resolve(g) }
    waiting.push(slot)
  })
}

async function startGame(b, w) {
  const settle = g => { b.pairResolve(g); return g }
  const ch = await ask(b, b.conn, 'challenge.create', {settings: {size: opt.size, color: 'black'}, opponent: w.user.name}, 'challenge')
  if (!ch) return settle(null)
  const chId = typeof ch.challenge === 'object' && ch.challenge ? ch.challenge.id : ch.challenge
  const ac = await ask(w, w.conn, 'challenge.accept', {challenge: chId}, 'challenge')
  if (!ac) {
    if (b.conn.open) b.conn.send('challenge.cancel', {challenge: chId}, () => {})
    return settle(null)
  }
  const g = newGame(ac.game, b, w)
  b.game = g
  w.game = g
  inc('games_started')
  const [rb, rw] = await Promise.all([ask(b, b.conn, 'game.watch', {game: g.id}, 'watch_live'), ask(w, w.conn, 'game.watch', {game: g.id}, 'watch_live')])
  if (!rb || !rw) {
    // one of them is gone: whoever is left resigns, so that the game ends
    const s = rb ? b : rw ? w : null
    if (s) s.conn.send('game.resign', {game: g.id}, () => {})
    finishGame(g, 'setup_failed')
    return settle(null)
  }
  games.push(g)
  gameById.set(g.id, g)
  return settle(g)
}

// A player dropped (by us or by the server) in a game comes back by token and watches it again.
async function comeBack(slot, g) {
  if (slot.returning) return
  slot.returning = true
  slot.ready = false
  await sleep(rand(500, 4000))
  let c = null
  for (let tries = 0; tries < 5 && !c && !stopping && !g.over; tries++) {
    c = await logIn(slot, false)
    if (!c) await sleep(1000)
  }
  if (c && slot.user && !g.over && !stopping) {
    const a = await ask(slot, c, 'game.watch', {game: g.id}, 'watch_live')
    if (a) inc('rejoined_games')
  }
  slot.returning = false
  slot.ready = !!(c && c.open)
  g.lastSent = Math.min(g.lastSent, g.n)
  g.busy = false
}

async function playerLoop(slot) {
  await sleep(rand(0, 3000))
  while (!stopping) {
    if (!slot.conn || !slot.conn.open) {
      slot.ready = false
      const c = await logIn(slot, true)
      if (!c || !slot.user) { await sleep(1000); continue }
      slot.ready = true
    }
    const g = await pairMe(slot)
    if (!g) { await sleep(rand(100, 1000)); continue }
    await Promise.race([g.done, new Promise(r => { slot.wakeOnStop = r })])
    while (slot.returning && !stopping) await sleep(100)
    if (stopping) break
    if (Math.random() < opt.reconnect) {
      slot.ready = false
      slot.conn.close(Math.random() < 0.3)
      inc('reconnects_between_games')
      await sleep(rand(200, 2000))
    } else {
      await sleep(rand(100, 1500))
    }
  }
}

// The move (or the game's end) of the player to move in g; false when nothing was sent.
function sendMove(g) {
  const mover = g.toMove === 'black' ? g.b : g.w
  if (g.phase !== 'play' || !mover.ready || !mover.conn || !mover.conn.open) return false
  if (g.dropAt >= 0 && !g.dropped && g.n >= g.dropAt) {
    // this player vanishes for a moment
    g.dropped = true
    inc('drops_in_game')
    mover.conn.close(Math.random() < 0.5)
    comeBack(mover, g)
    return false
  }
  let move
  let i = -1
  if (g.n >= g.target) {
    if (g.ending === 'resign') {
      g.busy = true
      g.phase = 'resigning'
      mover.conn.send('game.resign', {game: g.id}, a => {
        if (a.type !== 'ok') { if (a.code !== 'closed') err(`game.resign:${a.code}`); g.phase = 'play'; g.busy = false }
      })
      return true
    }
    move = 'pass'
  } else {
    for (let k = 0; k < 20 && i < 0; k++) {
      const j = Math.floor(Math.random() * g.board.length)
      if (!g.tried.has(j) && safeMove(g.board, opt.size, j, g.toMove)) i = j
    }
    if (i < 0) {
      const ok = []
      for (let j = 0; j < g.board.length; j++) if (!g.tried.has(j) && safeMove(g.board, opt.size, j, g.toMove)) ok.push(j)
      if (ok.length) i = ok[Math.floor(Math.random() * ok.length)]
    }
    move = i < 0 ? 'pass' : vertexOf(i, opt.size)
  }
  const n = g.n + 1
  const t = now()
  g.busy = true
  g.lastSent = n
  g.sentAt.set(n, t)
  g.sentAt.delete(n - 4)
  inc('moves_sent')
  mover.conn.send('game.move', {game: g.id, move, n}, a => {
    if (a.type === 'ok') {
      lat('ack', now() - t)
      inc('moves_acked')
      g.acked = Math.max(g.acked, n)
      maybeRelease(g)
      return
    }
    g.sentAt.delete(n)
    g.lastSent = Math.min(g.lastSent, g.n)
    if (a.code === 'closed') { g.busy = false; return }
    if (a.code === 'illegal') { err('game.move:illegal'); g.tried.add(i); g.busy = false; return }
    err(`game.move:${a.code}`)
    if (a.code === 'rate_limited' || a.code === 'busy' || a.code === 'internal') { setTimeout(() => { g.busy = false }, 200); return }
    if (a.code === 'wrong_phase' || a.code === 'not_found' || a.code === 'forbidden') { finishGame(g, 'refused'); return }
    g.busy = false
  })
  return true
}

// The moves, paced to opt.rate in total over the games in play.
let issued = 0
let cursor = 0
let playStart = 0
function schedule() {
  if (stopping) return
  const elapsed = (now() - playStart) / 1000
  const due = Math.floor(opt.rate * elapsed) - issued
  let scanned = 0
  let sent = 0
  while (sent < due && scanned < games.length) {
    cursor = cursor % games.length
    const g = games[cursor]
    cursor++
    scanned++
    if (g.busy || g.over) continue
    if (sendMove(g)) { sent++; issued++ }
  }
  // not caught up later: the rate is an upper bound
  if (sent < due) { inc('moves_not_sent_no_game_free', due - sent); issued += due - sent }
}

// A game with nothing happening for a minute (a lost message, a player who
// could not come back) is resigned by whoever can, and counted.
function unstick() {
  for (const g of [...games]) {
    if (now() - g.progress < 60000) continue
    err('game_stuck_60s')
    for (const s of [g.b, g.w]) if (s.conn && s.conn.open) s.conn.send('game.resign', {game: g.id}, () => {})
    finishGame(g, 'stuck')
  }
}

// ---- spectators ------------------------------------------------------------------

function onSpectatorEvent(slot, m) {
  if (m.type !== 'game.move') return
  const g = gameById.get(m.game)
  const t = g && g.sentAt.get(m.n)
  if (t !== undefined) lat('spec', now() - t)
}

async function spectatorLoop(slot) {
  await sleep(rand(0, 5000))
  slot.wantsLogin = Math.random() < 0.3
  while (!stopping) {
    const c = await logIn(slot, slot.wantsLogin)
    if (!c) { await sleep(1000); continue }
    if (!slot.wantsLogin) await ask(slot, c, 'hello', {}, null)
    if (Math.random() < 0.05) await ask(slot, c, 'lobby.subscribe', {}, null)
    const sessionEnd = now() + rand(20000, 90000)
    while (!stopping && c.open && now() < sessionEnd) {
      const live = liveIds()
      if (Math.random() < 0.5 && finishedIds.length) {
        const id = finishedIds[Math.floor(Math.random() * finishedIds.length)]
        const a = await ask(slot, c, 'game.watch', {game: id}, 'watch_finished')
        if (a) {
          inc('watches_finished')
          await ask(slot, c, 'game.unwatch', {game: id}, null)
        }
        await sleep(rand(2000, 6000))
      } else if (live.length) {
        const id = live[Math.floor(Math.random() * live.length)]
        const a = await ask(slot, c, 'game.watch', {game: id}, 'watch_live')
        if (a) inc('watches_live')
        await sleep(rand(5000, 20000))
        if (c.open) await ask(slot, c, 'game.unwatch', {game: id}, null)
      } else {
        await sleep(1000)
      }
    }
    if (stopping) break
    c.close(Math.random() < 0.3)
    inc('reconnects_spectators')
    await sleep(rand(500, 3000))
  }
}

// ---- accounts -------------------------------------------------------------------

let nextRegisterAt = 0
let accountSerial = 0
async function accountLoop(slot) {
  while (!stopping) {
    // the trickle: the slots take turns of 1/registerRate seconds
    const at = Math.max(nextRegisterAt, now())
    nextRegisterAt = at + 1000 / opt.registerRate
    await sleep(at - now())
    if (stopping) break
    const name = `soak${runTag}_${++accountSerial}`
    const password = `pw-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`
    slot.token = null
    slot.user = null
    let c = await logIn(slot, false)
    if (!c) continue
    const r = await ask(slot, c, 'register', {name, password}, 'register')
    c.close()
    if (!r) continue
    inc('registers')
    c = await logIn(slot, false)
    if (!c) continue
    const l = await ask(slot, c, 'login', {name, password}, 'login')
    if (l) {
      inc('logins')
      slot.token = l.token
      slot.user = l.user
      await ask(slot, c, 'lobby.subscribe', {}, null)
      await ask(slot, c, 'ping', {}, null)
    }
    c.close()
    if (!l) continue
    c = await logIn(slot, false)   // hello with the login's token
    if (!c) continue
    if (Math.random() < 0.2) {
      if (await ask(slot, c, 'logout', {}, null)) {
        inc('logouts')
        const h = await ask(slot, c, 'hello', {token: l.token}, null)
        if (h && h.user) err('hello:token_alive_after_logout')
      }
    }
    c.close()
  }
}

// ---- the API ------------------------------------------------------------------------

async function apiLoop() {
  let k = 0
  let lastList = 0
  while (!stopping) {
    if (now() - lastList > 5000) {
      lastList = now()
      const t = now()
      const r = await httpGet(`${apiBase}/api/games?state=finished`)
      if (r.status === 200) {
        lat('api', now() - t)
        inc('api_reads')
        try {
          for (const s of JSON.parse(r.body).games) if (!finishedIds.includes(s.id)) finishedIds.push(s.id)
        } catch (e) { err('api:bad_json') }
      } else err(`api:${r.status || r.error}`)
    }
    if (opt.apiRate > 0 && finishedIds.length) {
      const id = finishedIds[Math.floor(Math.random() * finishedIds.length)]
      const t = now()
      const r = await httpGet(`${apiBase}/api/games/${id}${k++ % 2 ? '/sgf' : ''}`)
      if (r.status === 200) { lat('api', now() - t); inc('api_reads') } else err(`api:${r.status || r.error}`)
      await sleep(1000 / opt.apiRate)
    } else {
      await sleep(1000)
    }
  }
}

// ---- events ---------------------------------------------------------------------------

function onEvent(slot, conn, m) {
  if (conn !== slot.conn) return
  if (m.type === 'server') err(`server_says:${m.store || m.type}`)
  if (slot.role === 'player') onPlayerEvent(slot, m)
  else if (slot.role === 'spectator') onSpectatorEvent(slot, m)
}

// ---- sampling --------------------------------------------------------------------------

const samples = []
let lastMetrics = null
let lastSampleAt = 0
let lastCpu = null
let lastClientCpu = null
let lastLoopSched = null
let threads0 = null
let lastClientSched = null

async function sample(label) {
  const t = now()
  const dt = (t - lastSampleAt) / 1000
  const r = await httpGet(metricsUrl, 5000)
  let m = null
  if (r.status === 200) m = parseMetrics(r.body)
  else err(`metrics:${r.status || r.error}`)
  const mem = pid ? procMem(pid) : null
  const cpu = pid ? procStat(pid) : null
  const clientCpu = process.cpuUsage()
  // the server's loop (its main thread) and ours: CPU time, and time waiting for a CPU
  const loopSched = pid ? schedstat(pid) : null
  const clientSched = schedstat(process.pid)
  const perS = (a, b, k) => (a && b ? (a[k] - b[k]) / 1e6 / dt : null)
  const lagDiff = m ? bucketsDiff(m.buckets.tengen_loop_lag_seconds, lastMetrics && lastMetrics.buckets.tengen_loop_lag_seconds) : null
  const commitDiff = m ? bucketsDiff(m.buckets.tengen_commit_seconds, lastMetrics && lastMetrics.buckets.tengen_commit_seconds) : null
  const v = m ? m.values : {}
  const lv = lastMetrics ? lastMetrics.values : {}
  const ack = summary(win.lat.ack)
  const s = {
    label,
    t: Math.round((t - playStart) / 1000),
    rssMb: mem ? mem.rssKb / 1024 : null,
    hwmMb: mem ? mem.hwmKb / 1024 : null,
    walMb: dbPath ? (fileSize(`${dbPath}-wal`) || 0) / 1048576 : null,
    dbMb: dbPath ? (fileSize(dbPath) || 0) / 1048576 : null,
    connections: v.tengen_connections,
    accounts: v.tengen_accounts_online,
    gamesLive: v.tengen_games_live,
    challenges: v.tengen_challenges_open,
    lagP99Ms: lagDiff ? 1000 * histogramQuantile(lagDiff, 0.99) : null,
    lagTopMs: lagDiff ? 1000 * histogramTop(lagDiff) : null,   // the window's max lies at or under this bucket bound
    lagMaxMs: v.tengen_loop_lag_max_seconds !== undefined ? 1000 * v.tengen_loop_lag_max_seconds : null,  // since the start
    lagSamples: lagDiff ? lagDiff[lagDiff.length - 1].count : null,
    commitP99Ms: commitDiff ? 1000 * histogramQuantile(commitDiff, 0.99) : null,
    commits: commitDiff ? commitDiff[commitDiff.length - 1].count : null,
    commitFailures: v.tengen_commit_failures_total,
    movesPerS: lastMetrics && v.tengen_moves_total !== undefined ? (v.tengen_moves_total - lv.tengen_moves_total) / dt : null,
    ackedPerS: (win.counts.moves_acked || 0) / dt,
    ackP50Ms: ack.p50,
    ackP99Ms: ack.p99,
    ackMaxMs: ack.max,
    serverCpuPct: cpu && lastCpu ? 100 * ((cpu.utime + cpu.stime) - (lastCpu.utime + lastCpu.stime)) / CLK_TCK / dt : null,
    clientCpuPct: lastClientCpu ? 100 * ((clientCpu.user + clientCpu.system) - (lastClientCpu.user + lastClientCpu.system)) / 1e6 / dt : null,
    threads: cpu ? cpu.threads : null,
    loopRunMsPerS: perS(loopSched, lastLoopSched, 'runNs'),
    loopWaitMsPerS: perS(loopSched, lastLoopSched, 'waitNs'),
    clientWaitMsPerS: perS(clientSched, lastClientSched, 'waitNs'),
    load1: loadAverage(),
    counts: win.counts,
    errors: win.errors,
    gamesInPlay: games.length,
    waiting: waiting.length,
  }
  if (m) lastMetrics = m
  lastCpu = cpu
  lastClientCpu = clientCpu
  lastLoopSched = loopSched
  lastClientSched = clientSched
  lastSampleAt = t
  win = newFigures()
  samples.push(s)
  printSample(s)
  if (label === 'play' && s.counts.moves_acked === undefined && games.length) console.log('# warning: no move acknowledged in this window')
  return s
}

const col = (x, w, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d)).padStart(w)
function printSampleHeader() {
  console.log('#    t  conns  games    RSS MB   WAL MB    DB MB  lag p99  lag max  commit p99  moves/s  acked/s  ack p50  ack p99  srv CPU%  cli CPU%  loop wait  load  errors')
}
function printSample(s) {
  const errs = Object.entries(s.errors).map(([k, n]) => `${k}=${n}`).join(' ')
  console.log(`${col(s.t, 6, 0)} ${col(s.connections, 6, 0)} ${col(s.gamesLive, 6, 0)} ${col(s.rssMb, 9)} ${col(s.walMb, 8, 2)} ${col(s.dbMb, 8, 2)} ` +
    `${col(s.lagP99Ms, 8, 2)} ${col(s.lagMaxMs, 8, 1)} ${col(s.commitP99Ms, 11, 2)} ${col(s.movesPerS, 8, 0)} ${col(s.ackedPerS, 8, 0)} ` +
    `${col(s.ackP50Ms, 8, 2)} ${col(s.ackP99Ms, 8, 2)} ${col(s.serverCpuPct, 9, 0)} ${col(s.clientCpuPct, 9, 0)} ${col(s.loopWaitMsPerS, 10, 0)} ${col(s.load1, 5, 1)}  ${errs || '-'}`)
}

// ---- the summary ------------------------------------------------------------------------

function report(final) {
  const play = samples.filter(s => s.label === 'play')
  const pick = list => list.length ? [list[0], list[Math.floor((list.length - 1) / 2)], list[list.length - 1]] : []
  const [first, middle, last] = pick(play)
  const range = k => {
    const xs = play.map(s => s[k]).filter(Number.isFinite)
    return xs.length ? {min: Math.min(...xs), max: Math.max(...xs)} : {min: NaN, max: NaN}
  }
  const lagAll = lastMetrics ? lastMetrics.buckets.tengen_loop_lag_seconds : null
  const commitAll = lastMetrics ? lastMetrics.buckets.tengen_commit_seconds : null
  console.log('')
  console.log(`soak: ${opt.connections} connections (${opt.nPlayers} players, ${opt.nSpectators} spectators, ${opt.accounts} accounts), ${opt.rate} moves/s asked, ${opt.size}x${opt.size}, ${((last ? last.t : 0))} s of ${opt.seconds}`)
  console.log('')
  console.log('|                         | start | middle | end | min..max over the run |')
  console.log('|---|---|---|---|---|')
  const rows = [
    ['t (s)', 't', 0], ['server RSS (MB)', 'rssMb', 1], ['WAL (MB)', 'walMb', 2], ['database (MB)', 'dbMb', 2],
    ['connections (server)', 'connections', 0], ['games in play (server)', 'gamesLive', 0],
    ['loop lag p99 (ms)', 'lagP99Ms', 2], ['loop lag max since start (ms)', 'lagMaxMs', 1],
    ['commit p99 (ms)', 'commitP99Ms', 2], ['moves/s (server)', 'movesPerS', 0], ['moves acked/s (client)', 'ackedPerS', 0],
    ['move->ack p50 (ms)', 'ackP50Ms', 2], ['move->ack p99 (ms)', 'ackP99Ms', 2], ['server CPU (% of a core)', 'serverCpuPct', 0],
    ['client CPU (% of a core)', 'clientCpuPct', 0],
    ['server loop waiting for a CPU (ms/s)', 'loopWaitMsPerS', 0], ['client waiting for a CPU (ms/s)', 'clientWaitMsPerS', 0],
    ['load average (1 min)', 'load1', 1],
  ]
  for (const [name, k, d] of rows) {
    const r = range(k)
    const f = s => (s && Number.isFinite(s[k]) ? s[k].toFixed(d) : '-')
    console.log(`| ${name} | ${f(first)} | ${f(middle)} | ${f(last)} | ${Number.isFinite(r.min) ? `${r.min.toFixed(d)}..${r.max.toFixed(d)}` : '-'} |`)
  }
  console.log('')
  if (lagAll) console.log(`loop lag over the run:  p99 ${fmt(1000 * histogramQuantile(lagAll, 0.99))} ms, p99.9 ${fmt(1000 * histogramQuantile(lagAll, 0.999))} ms, max ${fmt(lastMetrics.values.tengen_loop_lag_max_seconds * 1000)} ms (${lagAll[lagAll.length - 1].count} timer runs; over 20 ms: ${lagAll[lagAll.length - 1].count - (lagAll.find(b => b.le === 0.02) || {count: NaN}).count})`)
  if (commitAll) console.log(`commit over the run:    p50 ${fmt(1000 * histogramQuantile(commitAll, 0.5))} ms, p99 ${fmt(1000 * histogramQuantile(commitAll, 0.99))} ms (${commitAll[commitAll.length - 1].count} commits; ${lastMetrics.values.tengen_commit_failures_total} failed)`)
  for (const k of LAT_KEYS) {
    const s = summary(all.lat[k])
    if (s.n) console.log(`${(k + ':').padEnd(16)} p50 ${fmt(s.p50)} ms  p99 ${fmt(s.p99)} ms  max ${fmt(s.max)} ms  (${s.n})`)
  }
  console.log(`counts:          ${JSON.stringify(all.counts)}`)
  console.log(`errors:          ${Object.keys(all.errors).length ? JSON.stringify(all.errors) : 'none'}`)
  if (final && final.threads) console.log(`server threads:  ${final.threads}`)
  if (final && final.after) console.log(`after the stop:  ${final.after}`)
  if (opt.json) {
    try {
      fs.writeFileSync(opt.json, JSON.stringify({options: opt, samples, counts: all.counts, errors: all.errors,
        latency: Object.fromEntries(LAT_KEYS.map(k => [k, summary(all.lat[k])])),
        loopLag: lagAll, commit: commitAll, after: final ? final.after : null}, null, 1))
      console.log(`# JSON: ${opt.json}`)
    } catch (e) { console.log(`# cannot write ${opt.json}: ${e.message}`) }
  }
}

// ---- main -----------------------------------------------------------------------------

async function main() {
  const started = now()
  checkFdLimit(opt.connections)
  url = opt.url
  pid = opt.pid
  if (opt.server) {
    server = await startServer({server: opt.server, db: opt.db, connections: opt.connections, prefix: 'tengen-soak-', session: !opt.sameSession})
    url = server.url
    pid = server.pid
    dbPath = server.db
    console.log(`# started ${opt.server} serve on ${url} (pid ${pid}, database ${dbPath})`)
  }
  const u = checkLoopback(url)
  apiBase = `http://${u.host}`
  metricsUrl = `${apiBase}/metrics`
  if (pid) checkServerFdLimit(pid, opt.connections)
  if (!pid) console.log('# no --pid: no RSS or CPU figures')
  if (!dbPath) console.log('# no --db: no WAL or database sizes')
  console.log(`# ${opt.connections} connections: ${opt.nPlayers} players, ${opt.nSpectators} spectators, ${opt.accounts} accounts ` +
    `(${opt.registerRate} registrations/s); ${opt.rate} moves/s; games of ${opt.movesMin}-${opt.movesMax} moves on ${opt.size}x${opt.size}; ` +
    `${opt.seconds} s, a sample every ${opt.sample} s`)

  // Hard stop, whatever happens: the summary so far, the server killed.
  const hardStop = setTimeout(() => {
    console.log(`# hard stop after ${((now() - started) / 1000).toFixed(0)} s in phase ${phase}`)
    try { report(null) } catch (e) { /* as far as it goes */ }
    process.exit(1)
  }, (opt.seconds + 120) * 1000)
  hardStop.unref()

  playStart = now()
  lastSampleAt = playStart
  const first = await httpGet(metricsUrl, 5000)
  if (first.status === 200) lastMetrics = parseMetrics(first.body)
  else console.log(`# GET /metrics: ${first.status || first.error}`)
  lastCpu = pid ? procStat(pid) : null
  lastClientCpu = process.cpuUsage()
  lastLoopSched = pid ? schedstat(pid) : null
  lastClientSched = schedstat(process.pid)
  threads0 = pid ? threadTimes(pid) : null
  console.log(`# this machine: ${os.cpus().length} CPUs, load average ${loadAverage()} now`)

  phase = 'play'
  for (let i = 0; i < opt.connections; i++) {
    const role = i < opt.nPlayers ? 'player' : i < opt.nPlayers + opt.accounts ? 'account' : 'spectator'
    slots.push({index: i, role, conn: null, token: null, user: null, game: null, ready: false})
  }
  const loops = slots.map(s => (s.role === 'player' ? playerLoop(s) : s.role === 'account' ? accountLoop(s) : spectatorLoop(s))
    .catch(e => { err(`loop:${e.message}`); console.log(`# ${s.role} ${s.index}: ${e.stack}`) }))
  const api = apiLoop().catch(e => console.log(`# api: ${e.stack}`))
  const tick = setInterval(schedule, 5)
  const unstickTick = setInterval(unstick, 5000)
  printSampleHeader()
  const sampler = setInterval(() => { sample('play').catch(e => console.log(`# sample: ${e.stack}`)) }, opt.sample * 1000)
  let serverGone = false
  while (now() - playStart < opt.seconds * 1000) {
    await sleep(200)
    if (server && !server.alive()) { serverGone = true; break }
  }
  clearInterval(sampler)
  clearInterval(tick)
  clearInterval(unstickTick)
  phase = 'stop'
  if (serverGone) console.log(`# the server died during the run: ${server.output().slice(-3000)}`)
  stopping = true
  // the last window, with everyone still connected
  if (!serverGone && now() - lastSampleAt > opt.sample * 500) await sample('play')
  for (const s of slots) {
    if (s.pairResolve) s.pairResolve(null)
    if (s.wakeOnStop) s.wakeOnStop()
  }
  phase = 'close'
  for (const s of slots) if (s.conn) s.conn.close()
  await Promise.race([Promise.all(loops), sleep(10000)])
  await Promise.race([api, sleep(5000)])
  await sleep(3000)
  const final = {}
  if (pid && threads0) {
    const t1 = threadTimes(pid)
    // the loop is the main thread; the others (store writer, reader, worker...) are not named
    const used = Object.entries(t1).map(([tid, t]) => ({loop: Number(tid) === pid, s: (t.ticks - (threads0[tid] ? threads0[tid].ticks : 0)) / CLK_TCK}))
    const loop = used.find(u => u.loop)
    const others = used.filter(u => !u.loop).map(u => u.s).sort((a, b) => b - a)
    final.threads = `CPU over the run: the loop ${loop ? loop.s.toFixed(1) : '-'} s, the other threads ${others.map(x => x.toFixed(1)).join(', ')} s`
  }
  if (!serverGone) {
    await sample('closed')   // everyone gone: what memory stays
    const log = server ? server.output() : ''
    const bad = log.split('\n').filter(l => /error|cannot|fail|assert|abort/i.test(l))
    if (bad.length) console.log(`# the server's log: ${bad.length} lines of errors, the last: ${bad.slice(-5).join(' | ')}`)
    if (server) {
      await server.stop(10000)
      const wal = fileSize(`${dbPath}-wal`)
      final.after = `database ${((fileSize(dbPath) || 0) / 1048576).toFixed(2)} MB, WAL ${wal === null ? 'gone' : `${(wal / 1048576).toFixed(2)} MB`} after the server stopped (exit ${server.child.exitCode ?? server.child.signalCode})`
    }
  }
  clearTimeout(hardStop)
  report(final)
  if (server && opt.keep) console.log(`# kept ${server.tmp}`)
  process.exit(serverGone ? 1 : 0)
}

main().catch(e => {
  console.error(`soak.js: ${e.stack || e}`)
  process.exit(1)
})
