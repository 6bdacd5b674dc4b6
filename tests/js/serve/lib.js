// lib.js — shared helpers for the `tengen serve` tests (protocol.js, crash.js):
// start and kill a server on a free 127.0.0.1 port with a temporary database,
// a WebSocket client that matches answers to requests by id and keeps every
// other message for waitFor(), a GET helper for the HTTP API, and GTP
// vertices <-> board string indices (docs/protocol.md, "Conventions").
'use strict'

const fs = require('fs')
const http = require('http')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn} = require('child_process')
const WebSocket = require('ws')

const HOST = '127.0.0.1'

function sleep(ms) {
  return new Promise(resolve => setTimeout(resolve, ms))
}

// A port that was free a moment ago (the server is started on it at once).
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, HOST, () => {
      const {port} = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

// ---- the server process --------------------------------------------------

const servers = new Set()

// Kill every server still running when this process ends, however it ends.
function killAll() {
  for (const s of servers) {
    try { process.kill(s.child.pid, 'SIGKILL') } catch (e) { /* gone */ }
  }
}
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { killAll(); process.exit(130) })
}

// Starts `BIN serve --listen 127.0.0.1:PORT --db DB` and resolves once the
// server has printed its address and answers GET /api/games.  opts.port
// reuses a port (a restart on the same db); opts.db the database path.
async function startServer(bin, opts = {}) {
  const db = opts.db
  let lastErr = null
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = opts.port || await freePort()
    const args = ['serve', '--listen', `${HOST}:${port}`, '--db', db].concat(opts.args || [])
    const child = spawn(bin, args, {stdio: ['ignore', 'pipe', 'pipe']})
    const server = {
      child, port, db, bin,
      url: `ws://${HOST}:${port}/ws`,
      http: `http://${HOST}:${port}`,
      output: '',
      exited: null,
    }
    servers.add(server)
    const exited = new Promise(resolve => child.on('exit', (code, signal) => {
      server.exited = {code, signal}
      servers.delete(server)
      resolve(server.exited)
    }))
    server.exitedPromise = exited
    child.on('error', e => { server.output += `spawn error: ${e.message}\n` })
    const onData = d => {
      server.output += d.toString()
      if (server.output.length > 200000) server.output = server.output.slice(-100000)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)

    const deadline = Date.now() + (opts.timeoutMs || 15000)
    let printed = false
    while (Date.now() < deadline && !server.exited) {
      if (!printed && server.output.includes(`${HOST}:${port}`)) printed = true
      if (printed) {
        try {
          const r = await get(server, '/api/games')
          if (r.status === 200) return server
        } catch (e) { /* not yet */ }
      }
      await sleep(50)
    }
    if (!server.exited) {
      try { process.kill(child.pid, 'SIGKILL') } catch (e) { /* gone */ }
      await exited
    }
    lastErr = new Error(`server did not start (${printed ? 'address printed, API not answering' : 'address never printed'}; ` +
      `exit ${JSON.stringify(server.exited)}): ${server.output.slice(-2000)}`)
    // The port may have been taken in between: try another unless it was given.
    if (opts.port || !/in use|EADDRINUSE|bind/i.test(server.output)) break
  }
  throw lastErr
}

async function killServer(server, signal = 'SIGKILL') {
  if (server.exited) return server.exited
  try { process.kill(server.child.pid, signal) } catch (e) { /* gone */ }
  const t = setTimeout(() => { try { process.kill(server.child.pid, 'SIGKILL') } catch (e) { /* gone */ } }, 5000)
  const r = await server.exitedPromise
  clearTimeout(t)
  return r
}

function tmpDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

// ---- HTTP -----------------------------------------------------------------

// GET path -> {status, headers, body (string), json (parsed or undefined)}.
function get(server, p, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get({host: HOST, port: server.port, path: p, headers, timeout: 5000}, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        let json
        try { json = JSON.parse(body) } catch (e) { json = undefined }
        resolve({status: res.statusCode, headers: res.headers, body, json})
      })
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`GET ${p}: timeout`)))
    req.on('error', reject)
  })
}

// ---- WebSocket client -----------------------------------------------------

let clientCount = 0

class Client {
  // Use Client.open().
  constructor(ws, name) {
    this.ws = ws
    this.name = name || `c${++clientCount}`
    this.msgs = []          // unconsumed messages other than answers
    this.answers = new Map() // id -> answer not yet claimed
    this.waiters = []       // {pred, resolve, reject, timer}
    this.pending = new Map() // id -> {resolve, timer}
    this.nextId = 1
    this.closed = null      // {code, reason} once closed
    this.lastSend = 0
    this.minGapMs = 50      // stay under the 20 messages/s per connection limit
    this.all = []           // every message received, in order (for debugging)
    this.closedPromise = new Promise(resolve => {
      ws.on('close', (code, reason) => {
        this.closed = {code, reason: reason.toString()}
        for (const w of this.waiters) { clearTimeout(w.timer); w.reject(new Error(`${this.name}: connection closed (${code}) while waiting for ${w.what}`)) }
        this.waiters = []
        for (const [, p] of this.pending) { clearTimeout(p.timer); p.reject(new Error(`${this.name}: connection closed (${code}) before the answer to ${p.what}`)) }
        this.pending.clear()
        resolve(this.closed)
      })
    })
    ws.on('error', () => { /* 'close' follows */ })
    ws.on('message', (data, isBinary) => this._receive(data, isBinary))
  }

  // Opens a connection; resolves after the `welcome` message.  opts.origin
  // sets the Origin header; opts.noWelcome skips waiting for it.
  static open(url, opts = {}) {
    return new Promise((resolve, reject) => {
      const wsOpts = {perMessageDeflate: false, handshakeTimeout: 5000, maxPayload: 16 << 20}
      if (opts.origin) wsOpts.origin = opts.origin
      if (opts.headers) wsOpts.headers = opts.headers
      // a client on a machine of its own: an address of 127/8 (the server's
      // limits are per address)
      if (opts.localAddress) wsOpts.localAddress = opts.localAddress
      const ws = new WebSocket(url, wsOpts)
      const c = new Client(ws, opts.name)
      let settled = false
      ws.on('unexpected-response', (req, res) => {
        settled = true
        const e = new Error(`${c.name}: handshake refused with HTTP ${res.statusCode}`)
        e.statusCode = res.statusCode
        res.resume()
        ws.terminate()
        reject(e)
      })
      ws.on('error', e => { if (!settled) { settled = true; reject(e) } })
      ws.on('open', () => {
        if (opts.noWelcome) { settled = true; resolve(c); return }
        c.waitFor(m => m.type === 'welcome', 5000, 'welcome').then(w => {
          settled = true
          c.welcome = w
          resolve(c)
        }, e => { settled = true; reject(e) })
      })
    })
  }

  _receive(data, isBinary) {
    let m
    const text = data.toString('utf8')
    try { m = JSON.parse(text) } catch (e) { m = {type: '!unparsable', text, binary: isBinary} }
    if (isBinary) m = {type: '!binary', text, parsed: m}
    this.all.push(m)
    // `pong` (the server's answer to `ping`, not in docs/protocol.md) is an answer too.
    if ((m.type === 'ok' || m.type === 'error' || m.type === 'pong') && m.id !== undefined && this.pending.has(m.id)) {
      const p = this.pending.get(m.id)
      this.pending.delete(m.id)
      clearTimeout(p.timer)
      p.resolve(m)
      return
    }
    for (let i = 0; i < this.waiters.length; i++) {
      const w = this.waiters[i]
      if (w.pred(m)) {
        this.waiters.splice(i, 1)
        clearTimeout(w.timer)
        w.resolve(m)
        return
      }
    }
    this.msgs.push(m)
  }

  // The first message (received or to come) that pred accepts; it is consumed.
  waitFor(pred, timeoutMs = 5000, what = 'a message') {
    const i = this.msgs.findIndex(pred)
    if (i >= 0) return Promise.resolve(this.msgs.splice(i, 1)[0])
    if (this.closed) return Promise.reject(new Error(`${this.name}: connection closed (${this.closed.code}) while waiting for ${what}`))
    return new Promise((resolve, reject) => {
      const w = {pred, resolve, reject, what}
      w.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1)
        reject(new Error(`${this.name}: no ${what} within ${timeoutMs} ms`))
      }, timeoutMs)
      this.waiters.push(w)
    })
  }

  // Messages received and not consumed that pred accepts (not consumed).
  peek(pred) {
    return this.msgs.filter(pred)
  }

  drop(pred) {
    this.msgs = this.msgs.filter(m => !pred(m))
  }

  async _pace() {
    const wait = this.lastSend + this.minGapMs - Date.now()
    if (wait > 0) await sleep(wait)
    this.lastSend = Date.now()
  }

  async sendRaw(text) {
    await this._pace()
    this.ws.send(text)
  }

  async send(obj) {
    return this.sendRaw(JSON.stringify(obj))
  }

  // Sends {type, id, ...fields} and resolves with the `ok` or `error` answer
  // carrying the same id.
  async request(type, fields = {}, timeoutMs = 5000) {
    const id = this.nextId++
    const msg = Object.assign({type, id}, fields)
    const answer = new Promise((resolve, reject) => {
      const what = `the answer to ${type} #${id}`
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`${this.name}: no answer to ${JSON.stringify(msg).slice(0, 200)} within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(id, {resolve, reject, timer, what})
    })
    // The connection may close before the caller awaits the answer (a kill):
    // the caller still sees the rejection; node must not see it unhandled.
    answer.catch(() => {})
    await this.send(msg)
    return answer
  }

  // Like request(), but an `error` answer rejects.
  async ok(type, fields = {}, timeoutMs = 5000) {
    const a = await this.request(type, fields, timeoutMs)
    if (a.type !== 'ok') throw new Error(`${this.name}: ${type} ${JSON.stringify(fields).slice(0, 200)} answered ${JSON.stringify(a)}`)
    return a
  }

  close() {
    if (!this.closed) this.ws.close()
    return this.closedPromise
  }

  terminate() {
    if (!this.closed) this.ws.terminate()
    return this.closedPromise
  }
}

// ---- the board --------------------------------------------------------------

const {COLUMNS, vertexOf, indexOf, sgfPoint, challengeId, safeMove} = require('./board')

// ---- reporting -----------------------------------------------------------

// A tiny check runner: check(name, fn) runs fn (async) and records the result.
// precheck(), when given, runs first (e.g. to stop at once once the server died).
function makeChecker(prefix, precheck) {
  const results = {passed: 0, failed: 0, failures: []}
  async function check(name, fn) {
    try {
      if (precheck) precheck()
      await fn()
      results.passed++
      console.log(`ok   ${prefix}${name}`)
    } catch (e) {
      results.failed++
      results.failures.push(name)
      console.log(`FAIL ${prefix}${name}: ${(e && e.stack || String(e)).split('\n').slice(0, 6).join('\n     ')}`)
    }
  }
  return {check, results}
}

module.exports = {
  HOST, sleep, freePort, startServer, killServer, tmpDir, get, Client,
  vertexOf, indexOf, sgfPoint, makeChecker, COLUMNS, challengeId, safeMove,
}
