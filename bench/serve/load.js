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
// /proc/PID/stat over the play phase) and its RSS.  It stops by itself.
//
// Usage (see README.md; the hard fd limit, ulimit -Hn, must allow N+64 files):
//   node load.js --server build/tengen [--connections 2000] [--games 500] [--rate 1000] [--seconds 20]
//   node load.js --url ws://127.0.0.1:8080/ws --pid PID ...
'use strict'

const fs = require('fs')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn, execFileSync} = require('child_process')
const {performance} = require('perf_hooks')
const WebSocket = require('ws')

// ---- options -----------------------------------------------------------------

const USAGE = `usage: node load.js (--server BIN | --url ws://127.0.0.1:PORT/ws [--pid PID])
  [--connections N (2000)] [--games M (N/4)] [--rate MOVES_PER_S (1000)]
  [--seconds S (20, at most 120)] [--size 19] [--concurrency 100] [--db PATH]`

function parseArgs(argv) {
  const o = {connections: 2000, games: null, rate: 1000, seconds: 20, size: 19, concurrency: 100,
    url: null, pid: null, server: null, db: null}
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
  return o
}

function die(msg) {
  console.error(msg)
  process.exit(2)
}

const opt = parseArgs(process.argv.slice(2))

// Every byte of this stays on the machine.
function checkLoopback(url) {
  let u
  try { u = new URL(url) } catch (e) { die(`bad --url ${url}`) }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) die(`--url must be on 127.0.0.1 (loopback only): ${url}`)
  if (!/^wss?:$/.test(u.protocol)) die(`--url must be ws://: ${url}`)
  return u
}

// ---- the process limits and /proc ------------------------------------------

function fdLimit() {
  try {
    const m = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))
    return {soft: m[1] === 'unlimited' ? Infinity : Number(m[1]), hard: m[2] === 'unlimited' ? Infinity : Number(m[2])}
  } catch (e) {
    return {soft: Infinity, hard: Infinity}
  }
}

let CLK_TCK = 100
try { CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100 } catch (e) { /* 100 */ }

function procStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
    // fields after the command: state(3) ... utime(14) stime(15), counted from 1
    return {utime: Number(f[11]), stime: Number(f[12]), threads: Number(f[17])}
  } catch (e) {
    return null
  }
}

function procMem(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = k => { const m = new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s); return m ? Number(m[1]) : null }
    return {rssKb: kb('VmRSS'), hwmKb: kb('VmHWM')}
  } catch (e) {
    return null
  }
}

// ---- helpers -------------------------------------------------------------------

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
// the tests' board helpers: vertices, and a move surely legal for a random player
const {vertexOf, safeMove} = require('../../tests/js/serve/board')

function percentile(sorted, p) {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))]
}

function summary(arr) {
  const s = Float64Array.from(arr).sort()
  return {n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN}
}

const fmt = x => (Number.isFinite(x) ? x.toFixed(2) : '-')

// Runs fn over items, at most `limit` at a time.
async function pool(items, limit, fn) {
  let next = 0
  async function worker() {
    while (next < items.length) {
      const i = next++
      await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker))
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => { const {port} = srv.address(); srv.close(() => resolve(port)) })
  })
}

// ---- a connection -----------------------------------------------------------------

class Conn {
  constructor(url, index) {
    this.url = url
    this.index = index
    this.ws = null
    this.pending = new Map()
    this.nextId = 1
    this.open = false
    this.closedCode = null
    this.onEvent = null
    this.user = null
  }

  connect(timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      // each connection from an address of its own in 127/8, as players come from
      // their own machines: the server's limits are per address
      const localAddress = `127.1.${(this.index >> 8) & 255}.${(this.index & 255) || 1}`
      const ws = new WebSocket(this.url, {perMessageDeflate: false, handshakeTimeout: timeoutMs, localAddress})
      this.ws = ws
      let done = false
      const timer = setTimeout(() => { if (!done) { done = true; ws.terminate(); reject(new Error('no welcome')) } }, timeoutMs)
      ws.on('message', data => {
        let m
        try { m = JSON.parse(data.toString()) } catch (e) { return }
        if (!done && m.type === 'welcome') { done = true; clearTimeout(timer); this.open = true; resolve(this); return }
        if ((m.type === 'ok' || m.type === 'error') && this.pending.has(m.id)) {
          const p = this.pending.get(m.id)
          this.pending.delete(m.id)
          p(m)
          return
        }
        if (this.onEvent) this.onEvent(m)
      })
      ws.on('close', code => {
        this.open = false
        this.closedCode = code
        stats.closed++
        for (const [, p] of this.pending) p({type: 'error', code: 'closed'})
        this.pending.clear()
        if (!done) { done = true; clearTimeout(timer); reject(new Error(`closed ${code}`)) }
      })
      ws.on('error', e => { if (!done) { done = true; clearTimeout(timer); reject(e) } })
      ws.on('unexpected-response', (req, res) => { res.resume(); if (!done) { done = true; clearTimeout(timer); reject(new Error(`HTTP ${res.statusCode}`)) } })
    })
  }

  request(type, fields = {}, timeoutMs = 15000) {
    const id = this.nextId++
    return new Promise(resolve => {
      if (!this.open) { resolve({type: 'error', code: 'closed'}); return }
      const timer = setTimeout(() => { this.pending.delete(id); resolve({type: 'error', code: 'timeout'}) }, timeoutMs)
      this.pending.set(id, m => { clearTimeout(timer); resolve(m) })
      this.ws.send(JSON.stringify(Object.assign({type, id}, fields)))
    })
  }

  // A request for the play phase: the callback gets the answer (no timer).
  send(type, fields, cb) {
    const id = this.nextId++
    this.pending.set(id, cb)
    this.ws.send(JSON.stringify(Object.assign({type, id}, fields)))
  }
}

// ---- the run -------------------------------------------------------------------

const stats = {closed: 0, sent: 0, acked: 0, illegal: 0, errors: {}, behind: 0}
const lat = {ack: [], opp: [], spec: []}
let serverChild = null
let tmp = null
let phase = 'setup'

function countError(code) {
  stats.errors[code] = (stats.errors[code] || 0) + 1
}

function cleanup() {
  if (serverChild && serverChild.exitCode === null) { try { process.kill(serverChild.pid, 'SIGKILL') } catch (e) { /* gone */ } }
  if (tmp) { try { fs.rmSync(tmp, {recursive: true, force: true}) } catch (e) { /* left */ } }
}
process.on('exit', cleanup)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { console.log(`# ${sig}: stopping`); process.exit(130) })

async function startServer() {
  const port = await freePort()
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-load-'))
  const db = opt.db || path.join(tmp, 'load.db')
  const want = opt.connections + 1000
  // Raise the server's own fd limit as far as the hard limit allows.
  serverChild = spawn('sh', ['-c', `ulimit -n ${want} 2>/dev/null || ulimit -n hard 2>/dev/null; exec "$0" "$@"`,
    opt.server, 'serve', '--listen', `127.0.0.1:${port}`, '--db', db], {stdio: ['ignore', 'pipe', 'pipe']})
  let out = ''
  const onData = d => { out += d.toString(); if (out.length > 100000) out = out.slice(-50000) }
  serverChild.stdout.on('data', onData)
  serverChild.stderr.on('data', onData)
  const deadline = Date.now() + 15000
  while (Date.now() < deadline) {
    if (serverChild.exitCode !== null || serverChild.signalCode) die(`the server exited: ${out.slice(-2000)}`)
    if (out.includes(`127.0.0.1:${port}`)) {
      const ok = await new Promise(resolve => {
        const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true) })
        s.on('error', () => resolve(false))
      })
      if (ok) break
    }
    await sleep(50)
  }
  if (Date.now() >= deadline) die(`the server did not start: ${out.slice(-2000)}`)
  serverChild.output = () => out
  return {url: `ws://127.0.0.1:${port}/ws`, pid: serverChild.pid}
}

async function main() {
  const started = performance.now()
  const lim = fdLimit()
  if (lim.soft < opt.connections + 64) {
    const want = Math.max(65536, opt.connections + 1024)
    die(`this process may open ${lim.soft} files; ${opt.connections} connections need more.\n` +
      (lim.hard >= opt.connections + 64
        ? `Raise the limit first: ulimit -n ${Math.min(lim.hard, want)}`
        : `The hard limit is ${lim.hard}: raise it as root (ulimit -Hn ${want}, or limits.conf), or use at most --connections ${Math.max(0, lim.hard - 64)}`))
  }
  let url = opt.url
  let pid = opt.pid
  if (opt.server) {
    const s = await startServer()
    url = s.url
    pid = s.pid
    console.log(`# started ${opt.server} serve on ${url} (pid ${pid})`)
  }
  checkLoopback(url)
  if (pid) {
    const l = (() => { try { return /Max open files\s+(\d+|unlimited)/.exec(fs.readFileSync(`/proc/${pid}/limits`, 'utf8'))[1] } catch (e) { return '?' } })()
    if (l !== '?' && l !== 'unlimited' && Number(l) < opt.connections + 64) console.log(`# warning: the server (pid ${pid}) may open only ${l} files; start it under ulimit -n ${opt.connections + 1024}`)
  }
  const perPlayer = opt.rate / (2 * opt.games)
  if (perPlayer > 15) console.log(`# warning: ${perPlayer.toFixed(1)} moves/s per player; the server allows 20 messages/s per connection; use more --games`)
  console.log(`# ${opt.connections} connections, ${opt.games} games (${2 * opt.games} players, ${opt.connections - 2 * opt.games} spectators), ${opt.size}x${opt.size}, ${opt.rate} moves/s for ${opt.seconds} s`)

  // Hard stop, whatever happens.
  const hardStop = setTimeout(() => {
    console.log(`# hard stop after ${((performance.now() - started) / 1000).toFixed(0)} s in phase ${phase}`)
    report(pid, null, null)
    process.exit(1)
  }, (180 + opt.seconds + 30) * 1000)
  hardStop.unref()

  // 1. Connections, in batches.
  phase = 'connect'
  const conns = Array.from({length: opt.connections}, (_, i) => new Conn(url, i))
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
    const ac = await w.request('challenge.accept', {challenge: typeof ch.challenge === 'object' && ch.challenge ? ch.challenge.id : ch.challenge})
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
  const cpu0 = pid ? procStat(pid) : null
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
  const cpu1 = pid ? procStat(pid) : null

  report(pid, {cpu0, cpu1, playMs, ackedInPlay, openAtStart: openConns.length, connectMs, games: games.length}, conns)
  for (const c of conns) if (c.ws) c.ws.terminate()
  clearTimeout(hardStop)
  if (serverChild) {
    const alive = serverChild.exitCode === null && !serverChild.signalCode
    if (!alive) console.log(`# the server died during the run: ${serverChild.output().slice(-2000)}`)
    try { process.kill(serverChild.pid, 'SIGTERM') } catch (e) { /* gone */ }
    await Promise.race([new Promise(r => serverChild.on('exit', r)), sleep(3000)])
  }
  process.exit(0)
}

function report(pid, r, conns) {
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
  if (pid) {
    const m = procMem(pid)
    if (m) console.log(`server RSS:           ${(m.rssKb / 1024).toFixed(1)} MB (peak ${(m.hwmKb / 1024).toFixed(1)} MB)`)
  }
}

main().catch(e => {
  console.error(`load.js: ${e.stack || e}`)
  process.exit(1)
})
