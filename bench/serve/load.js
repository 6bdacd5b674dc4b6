#!/usr/bin/env node
// load.js — load generator for `tengen serve` (docs/protocol.md), on
// 127.0.0.1 only.  Opens N WebSocket connections, logs 2*M of them in as
// guests (one `guest` request per connection: the server rate-limits per
// connection), pairs them into M games (challenge with `opponent`, accept,
// watch), lets the other N-2M connections watch the games as spectators,
// then plays random legal moves paced to --rate moves/s in total for
// --seconds, and prints: connections open, moves/s achieved, the latency
// from a move sent to its `ok` and to the opponent's (and the spectators')
// `game.move` (p50/p99/max), the server's CPU per move (utime+stime from
// /proc/PID/stat over the play phase), how long its loop and this client
// waited for a CPU (schedstat) and its RSS.  It stops by itself.  What it
// shares with soak.js is in client.js.
//
// With --nodes K (and --db postgresql://...), K servers share the database:
// each game's two players are on different nodes (black on node p % K,
// white on the next), spectators spread over all, and the CPU, RSS and
// latencies are of the whole (nodes.sh runs 1, 2 and 3 nodes on a
// throwaway PostgreSQL).
//
// Usage (see README.md; the hard fd limit, ulimit -Hn, must allow N+64 files):
//   node load.js --server build/tengen [--connections 2000] [--games 500] [--rate 1000] [--seconds 20]
//   node load.js --server build/tengen --nodes 2 --db postgresql:///tengen?host=/tmp/pg ...
//   node load.js --url ws://127.0.0.1:8080/ws --pid PID ...
'use strict'

const fs = require('fs')
const {performance} = require('perf_hooks')
const {die, sleep, checkLoopback, checkFdLimit, checkServerFdLimit, CLK_TCK, procStat, procMem,
  schedstat, loadAverage, summary, fmt, pool, startServer: startServerAt, Conn} = require('./client')
// the tests' board helpers: vertices, and a move surely legal for a random player
const {vertexOf, safeMove} = require('../../tests/js/serve/board')

// ---- options -----------------------------------------------------------------

const USAGE = `usage: node load.js (--server BIN | --url ws://127.0.0.1:PORT/ws [--pid PID])
  [--connections N (2000)] [--games M (N/4)] [--rate MOVES_PER_S (1000)]
  [--seconds S (20, at most 120)] [--size 19] [--concurrency 100] [--db PATH|URL] [--nodes K (1)]`

function parseArgs(argv) {
  const o = {connections: 2000, games: null, rate: 1000, seconds: 20, size: 19, concurrency: 100,
    url: null, pid: null, server: null, db: null, nodes: 1}
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
    switch (a) {
      case '--url': o.url = val(); break
      case '--connections': case '-c': o.connections = Math.floor(num()); break
      case '--games': case '-g': o.games = Math.floor(num()); break
      case '--rate': case '-r': o.rate = num(); break
      case '--seconds': case '-s': o.seconds = num(); break
      case '--size': o.size = Math.floor(num()); break
      case '--concurrency': o.concurrency = Math.max(1, Math.floor(num())); break
      case '--pid': o.pid = Math.floor(num()); break
      case '--server': o.server = val(); break
      case '--db': o.db = val(); break
      case '--nodes': o.nodes = Math.max(1, Math.floor(num())); break
      case '-h': case '--help': console.log(USAGE); process.exit(0); break
      default: die(`unknown option ${a}\n${USAGE}`)
    }
  }
  if (!o.url && !o.server) die(USAGE)
  if (o.url && o.server) die('--url and --server exclude each other')
  if (o.seconds > 120) { console.log('# --seconds capped at 120'); o.seconds = 120 }
  if (o.seconds <= 0) die('--seconds must be positive')
  if (o.games === null) o.games = Math.max(1, Math.floor(o.connections / 4))
  if (2 * o.games > o.connections) die(`--games ${o.games} needs ${2 * o.games} connections; --connections is ${o.connections}`)
  if (o.size < 2 || o.size > 25) die('--size must be 2..25')
  if (o.nodes > 1 && (!o.server || !/^postgres(ql)?:\/\//.test(o.db || ''))) die('--nodes needs --server and --db postgresql://...')
  return o
}

const opt = parseArgs(process.argv.slice(2))

// ---- the run -------------------------------------------------------------------

const stats = {closed: 0, sent: 0, acked: 0, illegal: 0, errors: {}, behind: 0}
const lat = {ack: [], opp: [], spec: []}
let server = null  // the (first) server load.js started (client.js startServer)
const servers = []  // all of them (--nodes)
let phase = 'setup'

function countError(code) {
  stats.errors[code] = (stats.errors[code] || 0) + 1
}

function cleanup() {
  for (const s of servers) {
    s.kill()
    try { fs.rmSync(s.tmp, {recursive: true, force: true}) } catch (e) { /* left */ }
  }
}
process.on('exit', cleanup)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { console.log(`# ${sig}: stopping`); process.exit(130) })

async function main() {
  const started = performance.now()
  checkFdLimit(opt.connections)
  let url = opt.url
  let pid = opt.pid
  if (opt.server) {
    for (let k = 0; k < opt.nodes; k++) {
      const s = await startServerAt({server: opt.server, db: opt.db, connections: opt.connections, prefix: 'tengen-load-'})
      servers.push(s)
      console.log(`# started ${opt.server} serve on ${s.url} (pid ${s.pid})${opt.nodes > 1 ? `, node ${k + 1} of ${opt.nodes}` : ''}`)
    }
    server = servers[0]
    url = server.url
    pid = server.pid
  }
  const pids = servers.length ? servers.map(s => s.pid) : pid ? [pid] : []
  // the node a connection uses: a game's players on different nodes
  const urlOf = i => {
    if (servers.length < 2) return url
    const players = 2 * opt.games
    const k = i < players ? (Math.floor(i / 2) + (i % 2)) % servers.length : i % servers.length
    return servers[k].url
  }
  checkLoopback(url)
  if (pid) checkServerFdLimit(pid, opt.connections)
  const perPlayer = opt.rate / (2 * opt.games)
  if (perPlayer > 15) console.log(`# warning: ${perPlayer.toFixed(1)} moves/s per player; the server allows 20 messages/s per connection; use more --games`)
  console.log(`# ${opt.connections} connections, ${opt.games} games (${2 * opt.games} players, ${opt.connections - 2 * opt.games} spectators), ${opt.size}x${opt.size}, ${opt.rate} moves/s for ${opt.seconds} s`)

  // Hard stop, whatever happens.
  const hardStop = setTimeout(() => {
    console.log(`# hard stop after ${((performance.now() - started) / 1000).toFixed(0)} s in phase ${phase}`)
    report(pid ? [pid] : [], null, null)
    process.exit(1)
  }, (180 + opt.seconds + 30) * 1000)
  hardStop.unref()

  // 1. Connections, in batches.
  phase = 'connect'
  const conns = Array.from({length: opt.connections}, (_, i) => new Conn(urlOf(i), i, {onClose: () => { stats.closed++ }}))
  let t0 = performance.now()
  let failedOpen = 0
  const openErrors = {}
  await pool(conns, opt.concurrency, async c => {
    try { await c.connect() } catch (e) { failedOpen++; openErrors[e.message] = (openErrors[e.message] || 0) + 1 }
  })
  const connectMs = performance.now() - t0
  const openConns = conns.filter(c => c.open)
  console.log(`# connections open: ${openConns.length} of ${opt.connections} in ${connectMs.toFixed(0)} ms${failedOpen ? ` (failed: ${JSON.stringify(openErrors)})` : ''}`)

  // 2. Guests: one `guest` per player connection.
  phase = 'guests'
  t0 = performance.now()
  const players = openConns.slice(0, 2 * opt.games)
  let guestFail = 0
  await pool(players, opt.concurrency, async c => {
    const a = await c.request('guest')
    if (a.type === 'ok' && a.user) c.user = a.user
    else { guestFail++; countError(`guest:${a.code}`) }
  })
  console.log(`# guests: ${players.length - guestFail} in ${(performance.now() - t0).toFixed(0)} ms${guestFail ? ` (${guestFail} failed)` : ''}`)

  // 3. Games: challenge with opponent, accept, both watch.
  phase = 'games'
  t0 = performance.now()
  const games = []
  const pairs = []
  for (let i = 0; i + 1 < players.length; i += 2) if (players[i].user && players[i + 1].user) pairs.push([players[i], players[i + 1]])
  await pool(pairs, Math.max(1, Math.floor(opt.concurrency / 2)), async ([b, w]) => {
    const ch = await b.request('challenge.create', {settings: {size: opt.size, color: 'black'}, opponent: w.user.name})
    if (ch.type !== 'ok') { countError(`challenge.create:${ch.code}`); return }
    let ac
    for (let k = 0; k < 20; k++) { // on another node, the challenge arrives a moment after its ok
      ac = await w.request('challenge.accept', {challenge: typeof ch.challenge === 'object' && ch.challenge ? ch.challenge.id : ch.challenge})
      if (ac.type === 'ok' || ac.code !== 'not_found') break
      await sleep(25)
    }
    if (ac.type !== 'ok') { countError(`challenge.accept:${ac.code}`); return }
    const g = {id: ac.game, black: b, white: w, n: 0, toMove: 'black', board: '.'.repeat(opt.size * opt.size),
      busy: false, tried: new Set(), sentAt: new Map(), done: false, spectators: 0}
    for (const c of [b, w]) {
      const r = await c.request('game.watch', {game: g.id})
      if (r.type !== 'ok') countError(`game.watch:${r.code}`)
    }
    games.push(g)
  })
  const byId = new Map(games.map(g => [g.id, g]))
  console.log(`# games: ${games.length} in ${(performance.now() - t0).toFixed(0)} ms`)

  // 4. Spectators.
  phase = 'spectators'
  const spectators = openConns.slice(2 * opt.games)
  if (games.length) {
    await pool(spectators, opt.concurrency, async (c, i) => {
      const g = games[i % games.length]
      const r = await c.request('game.watch', {game: g.id})
      if (r.type !== 'ok') countError(`spectator game.watch:${r.code}`)
      else g.spectators++
    })
  }

  // Events during play.
  for (const g of games) {
    for (const [c, colour] of [[g.black, 'black'], [g.white, 'white']]) {
      c.onEvent = m => {
        if (m.type === 'game.state' && m.game && m.game.id === g.id) {
          // After a voided move, a pause, the end...: take the whole state.
          if (m.game.phase !== 'play') g.done = true
          if (m.game.moves.length >= g.n) {
            g.n = m.game.moves.length
            g.board = m.game.board
            g.toMove = m.game.to_move
            g.oppSeen = g.n
            g.acked = Math.max(g.acked || 0, g.n)
            g.tried.clear()
            if (phase === 'play' || phase === 'drain') stats.states = (stats.states || 0) + 1
            maybeRelease(g)
          }
          return
        }
        if (m.type !== 'game.move' || m.game !== g.id) return
        if (m.color !== colour) {
          const t = g.sentAt.get(m.n)
          if (t !== undefined && phase === 'play') lat.opp.push(performance.now() - t)
          g.oppSeen = m.n
          g.board = m.board
          g.n = m.n
          g.toMove = m.to_move
          g.tried.clear()
          maybeRelease(g)
        }
      }
    }
  }
  for (const c of spectators) {
    c.onEvent = m => {
      if (m.type !== 'game.move' || phase !== 'play') return
      const g = byId.get(m.game)
      const t = g && g.sentAt.get(m.n)
      if (t !== undefined) lat.spec.push(performance.now() - t)
    }
  }
  // A game takes its next move once its last one was acknowledged and seen by the opponent.
  function maybeRelease(g) {
    if (g.acked === g.n && g.oppSeen === g.n) g.busy = false
  }

  // 5. Play, paced.
  const cpuOf = () => {
    const all = pids.map(procStat)
    if (!all.length || all.some(x => !x)) return null
    return {utime: all.reduce((a, x) => a + x.utime, 0), stime: all.reduce((a, x) => a + x.stime, 0),
      threads: all.reduce((a, x) => a + x.threads, 0)}
  }
  const cpu0 = cpuOf()
  const sched0 = {server: pid ? schedstat(pid) : null, client: schedstat(process.pid)}
  const playStart = performance.now()
  phase = 'play'
  let issued = 0
  let cursor = 0
  const maxMoves = Math.floor(opt.size * opt.size * 0.8)

  function sendMove(g) {
    const c = g.toMove === 'black' ? g.black : g.white
    if (!c.open) { g.done = true; return false }
    if (g.n >= maxMoves) { g.done = true; return false }
    // A random point that is surely legal: a few random tries, then a scan.
    let i = -1
    for (let k = 0; k < 20 && i < 0; k++) {
      const j = Math.floor(Math.random() * g.board.length)
      if (!g.tried.has(j) && safeMove(g.board, opt.size, j, g.toMove)) i = j
    }
    if (i < 0) {
      const ok = []
      for (let j = 0; j < g.board.length; j++) if (!g.tried.has(j) && safeMove(g.board, opt.size, j, g.toMove)) ok.push(j)
      if (!ok.length) { g.done = true; return false }
      i = ok[Math.floor(Math.random() * ok.length)]
    }
    const n = g.n + 1
    const t = performance.now()
    g.busy = true
    g.sentAt.set(n, t)
    g.sentAt.delete(n - 4)
    stats.sent++
    c.send('game.move', {game: g.id, move: vertexOf(i, opt.size), n}, a => {
      if (a.type === 'ok') {
        if (phase === 'play' || phase === 'drain') lat.ack.push(performance.now() - t)
        stats.acked++
        g.acked = n
        maybeRelease(g)
        return
      }
      g.sentAt.delete(n)
      if (a.code === 'illegal') { stats.illegal++; g.tried.add(i); g.busy = false; return }
      countError(a.code)
      if (a.code === 'rate_limited' || a.code === 'busy') { setTimeout(() => { g.busy = false }, 200); return }
      if (a.code === 'closed' || a.code === 'wrong_phase' || a.code === 'not_found' || a.code === 'forbidden') { g.done = true; return }
      g.busy = false
    })
    return true
  }

  await new Promise(resolve => {
    const tick = setInterval(() => {
      const elapsed = (performance.now() - playStart) / 1000
      if (elapsed >= opt.seconds) { clearInterval(tick); resolve(); return }
      const due = Math.floor(opt.rate * elapsed) - issued
      let scanned = 0
      let sent = 0
      while (sent < due && scanned < games.length) {
        const g = games[cursor]
        cursor = (cursor + 1) % games.length
        scanned++
        if (g.busy || g.done) continue
        if (sendMove(g)) { sent++; issued++ }
      }
      if (sent < due) { stats.behind += due - sent; issued += due - sent }  // not caught up later: the rate is an upper bound
    }, 5)
  })
  const playMs = performance.now() - playStart
  const ackedInPlay = stats.acked
  phase = 'drain'
  const drainEnd = performance.now() + 3000
  while (games.some(g => g.busy && !g.done) && performance.now() < drainEnd) await sleep(20)
  phase = 'done'
  const cpu1 = cpuOf()
  const sched1 = {server: pid ? schedstat(pid) : null, client: schedstat(process.pid)}

  report(pids, {cpu0, cpu1, sched0, sched1, playMs, ackedInPlay, openAtStart: openConns.length, connectMs, games: games.length}, conns)
  for (const c of conns) if (c.ws) c.ws.terminate()
  clearTimeout(hardStop)
  for (const s of servers) {
    if (!s.alive()) console.log(`# a server died during the run: ${s.output().slice(-2000)}`)
    await s.stop(3000)
  }
  process.exit(0)
}

function report(pids, r, conns) {
  const pid = pids[0]
  const ack = summary(lat.ack)
  const opp = summary(lat.opp)
  const spec = summary(lat.spec)
  const openNow = conns ? conns.filter(c => c.open).length : '?'
  console.log('')
  if (r) {
    console.log(`connections open:     ${openNow} (of ${opt.connections}; ${r.openAtStart} opened in ${r.connectMs.toFixed(0)} ms; ${stats.closed} closed)`)
    console.log(`games:                ${r.games}`)
    console.log(`moves acknowledged:   ${r.ackedInPlay} in ${(r.playMs / 1000).toFixed(1)} s = ${(r.ackedInPlay / (r.playMs / 1000)).toFixed(0)} moves/s (asked ${opt.rate}; ${stats.sent} sent, ${stats.illegal} illegal, ${stats.behind} not sent on time: no game free)`)
  }
  console.log(`move -> ok            p50 ${fmt(ack.p50)} ms  p99 ${fmt(ack.p99)} ms  max ${fmt(ack.max)} ms  (${ack.n})`)
  console.log(`move -> opponent      p50 ${fmt(opp.p50)} ms  p99 ${fmt(opp.p99)} ms  max ${fmt(opp.max)} ms  (${opp.n})`)
  console.log(`move -> spectators    p50 ${fmt(spec.p50)} ms  p99 ${fmt(spec.p99)} ms  max ${fmt(spec.max)} ms  (${spec.n})`)
  if (stats.states) console.log(`game.state during play: ${stats.states} (voided moves or ended games)`)
  if (Object.keys(stats.errors).length) console.log(`errors:               ${JSON.stringify(stats.errors)}`)
  if (r && r.cpu0 && r.cpu1) {
    const ticks = (r.cpu1.utime + r.cpu1.stime) - (r.cpu0.utime + r.cpu0.stime)
    const us = ticks * 1e6 / CLK_TCK
    const moves = Math.max(1, stats.acked)
    console.log(`server CPU:           ${(us / 1000).toFixed(0)} ms over the play phase = ${(us / moves).toFixed(1)} us/move (${(100 * us / 1000 / r.playMs).toFixed(1)}% of a core; ${CLK_TCK} ticks/s), ${r.cpu1.threads} threads`)
  } else if (!pid) {
    console.log('server CPU:           - (give --pid or --server)')
  }
  if (r && r.sched0 && r.sched1) {
    // on a shared machine: how long the server's main thread (its loop) and this client waited for a CPU
    const wait = k => (r.sched0[k] && r.sched1[k] ? `${((r.sched1[k].waitNs - r.sched0[k].waitNs) / 1e6 / (r.playMs / 1000)).toFixed(0)} ms/s` : '-')
    console.log(`waiting for a CPU:    the server's loop ${wait('server')}, this client ${wait('client')} (load average ${loadAverage()})`)
  }
  for (const p of pids) {
    const m = procMem(p)
    if (m) console.log(`server RSS:           ${(m.rssKb / 1024).toFixed(1)} MB (peak ${(m.hwmKb / 1024).toFixed(1)} MB)${pids.length > 1 ? ` pid ${p}` : ''}`)
  }
}

main().catch(e => {
  console.error(`load.js: ${e.stack || e}`)
  process.exit(1)
})
