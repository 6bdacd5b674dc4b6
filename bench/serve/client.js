// client.js — what load.js and soak.js share: a WebSocket connection to
// `tengen serve` (docs/protocol.md) from a loopback address of its own,
// starting a server on a free port with a temporary database, the loopback
// and file-descriptor checks, /proc readings, GET over HTTP (/metrics, the
// API), Prometheus text and percentiles.  Everything stays on 127.0.0.0/8.
'use strict'

const fs = require('fs')
const http = require('http')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn, execFileSync} = require('child_process')
const WebSocket = require('ws')

function die(msg) {
  console.error(msg)
  process.exit(2)
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// Every byte of a run stays on the machine: the URL must name loopback.
function checkLoopback(url) {
  let u
  try { u = new URL(url) } catch (e) { die(`bad --url ${url}`) }
  const h = u.hostname
  if (!(h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h))) die(`--url must be on 127.0.0.1 (loopback only): ${url}`)
  if (!/^wss?:$/.test(u.protocol)) die(`--url must be ws://: ${url}`)
  return u
}

// The address connection `index` comes from: each its own in 127/8, as
// players come from their own machines, since the server's limits are per
// address.  254 a /24 (no .0, no .255), from 127.1.0.1 on.
function localAddress(index) {
  const host = 1 + (index % 254)
  const net24 = Math.floor(index / 254)
  return `127.${1 + Math.floor(net24 / 256)}.${net24 % 256}.${host}`
}

// ---- the process limits and /proc ------------------------------------------

function fdLimit(pid = 'self') {
  try {
    const m = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(fs.readFileSync(`/proc/${pid}/limits`, 'utf8'))
    return {soft: m[1] === 'unlimited' ? Infinity : Number(m[1]), hard: m[2] === 'unlimited' ? Infinity : Number(m[2])}
  } catch (e) {
    return {soft: Infinity, hard: Infinity}
  }
}

// Each connection is a file descriptor on both sides: refuse to start below
// N+64, saying how to raise the limit.
function checkFdLimit(connections) {
  const lim = fdLimit()
  if (lim.soft < connections + 64) {
    const want = Math.max(65536, connections + 1024)
    die(`this process may open ${lim.soft} files; ${connections} connections need more.\n` +
      (lim.hard >= connections + 64
        ? `Raise the limit first: ulimit -n ${Math.min(lim.hard, want)}`
        : `The hard limit is ${lim.hard}: raise it as root (ulimit -Hn ${want}, or limits.conf), or use at most --connections ${Math.max(0, lim.hard - 64)}`))
  }
}

// A warning when the server's own limit is too low for the run.
function checkServerFdLimit(pid, connections) {
  const l = fdLimit(pid).soft
  if (Number.isFinite(l) && l < connections + 64) console.log(`# warning: the server (pid ${pid}) may open only ${l} files; start it under ulimit -n ${connections + 1024}`)
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

// A thread's time on a CPU and waiting for one (ns), from /proc/PID/task/TID/schedstat:
// the wait says how much a busy machine held it back.
function schedstat(pid, tid = pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number)
    return {runNs: f[0], waitNs: f[1]}
  } catch (e) {
    return null
  }
}

// Each thread's name and CPU time (ticks): {tid: {name, ticks}}.
function threadTimes(pid) {
  const out = {}
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        const s = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        const name = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'))
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
        out[tid] = {name, ticks: Number(f[11]) + Number(f[12])}
      } catch (e) { /* gone */ }
    }
  } catch (e) { /* gone */ }
  return out
}

// The machine's load average over a minute, and its CPUs.
function loadAverage() {
  try { return Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]) } catch (e) { return NaN }
}

function fileSize(p) {
  try { return fs.statSync(p).size } catch (e) { return null }
}

// ---- figures ------------------------------------------------------------------

function percentile(sorted, p) {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))]
}

function summary(arr) {
  const s = Float64Array.from(arr).sort()
  return {n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN}
}

const fmt = x => (Number.isFinite(x) ? x.toFixed(2) : '-')

// Prometheus' text format -> {name: value} for plain samples and
// {name: [{le, count}...]} for the _bucket series, plus _sum/_count.
function parseMetrics(text) {
  const out = {values: {}, buckets: {}}
  for (const line of text.split('\n')) {
    if (!line || line[0] === '#') continue
    let m = /^([a-zA-Z_:][\w:]*)_bucket\{le="([^"]+)"\}\s+(\S+)$/.exec(line)
    if (m) {
      const le = m[2] === '+Inf' ? Infinity : Number(m[2])
      ;(out.buckets[m[1]] = out.buckets[m[1]] || []).push({le, count: Number(m[3])})
      continue
    }
    m = /^([a-zA-Z_:][\w:]*)(?:\{[^}]*\})?\s+(\S+)$/.exec(line)
    if (m) out.values[m[1]] = Number(m[2])
  }
  for (const k of Object.keys(out.buckets)) out.buckets[k].sort((a, b) => a.le - b.le)
  return out
}

// The difference of two cumulative histograms (a later minus an earlier).
function bucketsDiff(later, earlier) {
  if (!later) return null
  return later.map((b, i) => ({le: b.le, count: b.count - (earlier && earlier[i] ? earlier[i].count : 0)}))
}

// A quantile of a cumulative histogram, interpolated linearly inside its
// bucket (as Prometheus' histogram_quantile); in the +Inf bucket, the last
// finite bound (the figure is "at least").
function histogramQuantile(buckets, q) {
  if (!buckets || !buckets.length) return NaN
  const total = buckets[buckets.length - 1].count
  if (!(total > 0)) return NaN
  const rank = q * total
  let prevLe = 0
  let prevCount = 0
  for (const b of buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return prevLe
      const inBucket = b.count - prevCount
      return inBucket > 0 ? prevLe + (b.le - prevLe) * (rank - prevCount) / inBucket : b.le
    }
    prevLe = b.le
    prevCount = b.count
  }
  return prevLe
}

// The upper bound of the highest bucket holding a sample (Infinity: over the last bound).
function histogramTop(buckets) {
  if (!buckets || !buckets.length) return NaN
  let prev = 0
  let top = NaN
  for (const b of buckets) {
    if (b.count > prev) top = b.le
    prev = b.count
  }
  return top
}

// ---- running things --------------------------------------------------------------

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

// GET on loopback: {status, body}, or {status: 0, error} (never throws).
function httpGet(url, timeoutMs = 10000) {
  return new Promise(resolve => {
    const req = http.get(url, {agent: false, timeout: timeoutMs}, res => {
      const chunks = []
      res.on('data', d => chunks.push(d))
      res.on('end', () => resolve({status: res.statusCode, body: Buffer.concat(chunks).toString()}))
      res.on('error', e => resolve({status: 0, error: e.message}))
    })
    req.on('timeout', () => { req.destroy(new Error('timeout')) })
    req.on('error', e => resolve({status: 0, error: e.message}))
  })
}

// Starts `BIN serve` on a free loopback port with a database in a new
// temporary directory (or `db`), its fd limit raised for `connections`.
// Returns {url, pid, child, db, tmp, output(), stop()}; the caller removes tmp.
async function startServer({server, db = null, connections = 2000, prefix = 'tengen-load-', args = [], session = false}) {
  const port = await freePort()
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  const dbPath = db || path.join(tmp, 'serve.db')
  const want = connections + 1000
  // Raise the server's own fd limit as far as the hard limit allows.
  const child = spawn('sh', ['-c', `ulimit -n ${want} 2>/dev/null || ulimit -n hard 2>/dev/null; exec "$0" "$@"`,
    server, 'serve', '--listen', `127.0.0.1:${port}`, '--db', dbPath, ...args], {stdio: ['ignore', 'pipe', 'pipe'], detached: session})
  let out = ''
  const onData = d => { out += d.toString(); if (out.length > 200000) out = out.slice(-100000) }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const deadline = Date.now() + 15000
  let up = false
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode) die(`the server exited: ${out.slice(-2000)}`)
    if (out.includes(`127.0.0.1:${port}`)) {
      up = await new Promise(resolve => {
        const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true) })
        s.on('error', () => resolve(false))
      })
      if (up) break
    }
    await sleep(50)
  }
  if (!up) {
    try { process.kill(child.pid, 'SIGKILL') } catch (e) { /* gone */ }
    die(`the server did not start: ${out.slice(-2000)}`)
  }
  const alive = () => child.exitCode === null && !child.signalCode
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    pid: child.pid,
    child,
    db: dbPath,
    tmp,
    alive,
    output: () => out,
    // SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone
    async stop(graceMs = 5000) {
      if (!alive()) return
      const gone = new Promise(r => child.once('exit', r))
      try { process.kill(child.pid, 'SIGTERM') } catch (e) { return }
      if (await Promise.race([gone.then(() => true), sleep(graceMs).then(() => false)])) return
      try { process.kill(child.pid, 'SIGKILL') } catch (e) { return }
      await Promise.race([gone, sleep(2000)])
    },
    kill() { if (alive()) { try { process.kill(child.pid, 'SIGKILL') } catch (e) { /* gone */ } } },
  }
}

// ---- a connection -----------------------------------------------------------------

// One WebSocket from localAddress(index).  `opts.onClose(conn, code)` hears
// every close; `conn.onEvent(message)` every message that is not an answer.
class Conn {
  constructor(url, index, opts = {}) {
    this.url = url
    this.index = index
    this.opts = opts
    this.ws = null
    this.pending = new Map()
    this.nextId = 1
    this.open = false
    this.closedCode = null
    this.closing = false   // closed by us
    this.onEvent = null
    this.user = null
  }

  connect(timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, {perMessageDeflate: false, handshakeTimeout: timeoutMs, localAddress: localAddress(this.index)})
      this.ws = ws
      let done = false
      const timer = setTimeout(() => { if (!done) { done = true; ws.terminate(); reject(new Error('no welcome')) } }, timeoutMs)
      ws.on('message', data => {
        let m
        try { m = JSON.parse(data.toString()) } catch (e) { return }
        if (!done && m.type === 'welcome') { done = true; clearTimeout(timer); this.open = true; resolve(this); return }
        if ((m.type === 'ok' || m.type === 'error' || m.type === 'pong') && this.pending.has(m.id)) {
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
        if (this.opts.onClose) this.opts.onClose(this, code)
        const pending = [...this.pending.values()]
        this.pending.clear()
        for (const p of pending) p({type: 'error', code: 'closed'})
        if (!done) { done = true; clearTimeout(timer); reject(new Error(`closed ${code}`)) }
      })
      ws.on('error', e => { if (!done) { done = true; clearTimeout(timer); reject(e) } })
      ws.on('unexpected-response', (req, res) => { res.resume(); if (!done) { done = true; clearTimeout(timer); reject(new Error(`HTTP ${res.statusCode}`)) } })
    })
  }

  // A request; resolves with its answer, or an error of code `closed` or `timeout`.
  request(type, fields = {}, timeoutMs = 15000) {
    const id = this.nextId++
    return new Promise(resolve => {
      if (!this.open) { resolve({type: 'error', code: 'closed'}); return }
      const timer = setTimeout(() => { this.pending.delete(id); resolve({type: 'error', code: 'timeout'}) }, timeoutMs)
      this.pending.set(id, m => { clearTimeout(timer); resolve(m) })
      this.ws.send(JSON.stringify(Object.assign({type, id}, fields)))
    })
  }

  // A request whose answer goes to cb (no timer).
  send(type, fields, cb) {
    if (!this.open) { cb({type: 'error', code: 'closed'}); return }
    const id = this.nextId++
    this.pending.set(id, cb)
    this.ws.send(JSON.stringify(Object.assign({type, id}, fields)))
  }

  // Closes it ourselves: a clean close, or (`abrupt`) the socket dropped as a vanished phone would.
  close(abrupt = false) {
    this.closing = true
    if (!this.ws) return
    if (abrupt) this.ws.terminate()
    else { try { this.ws.close(1000) } catch (e) { this.ws.terminate() } }
  }
}

module.exports = {
  die, sleep, checkLoopback, localAddress, fdLimit, checkFdLimit, checkServerFdLimit, CLK_TCK,
  procStat, procMem, schedstat, threadTimes, loadAverage, fileSize, percentile, summary, fmt, parseMetrics, bucketsDiff,
  histogramQuantile, histogramTop, pool, freePort, httpGet, startServer, Conn,
}
