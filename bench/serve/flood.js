// One address floods logins (wrong passwords), guests, watches of a long
// finished game and the HTTP API, while an honest player logs in from
// another address and plays a game: the honest side's times, the
// attacker's answers by code.
// Usage: node bench/serve/flood.js build-asan/tengen [SECONDS]   (loopback addresses 127.0.0.2-4)
'use strict'
const assert = require('assert')
const http = require('http')
const L = require(require('path').join(__dirname, '../../tests/js/serve/lib.js'))
const bin = process.argv[2]
const SECONDS = +(process.argv[3] || 30)

function apiGet(srv, path, from) {
  return new Promise(resolve => {
    const req = http.get({host: '127.0.0.1', port: srv.port, path, localAddress: from, timeout: 5000}, res => {
      res.resume(); res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', () => resolve('error')); req.on('timeout', () => { req.destroy(); resolve('timeout') })
  })
}
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN }

async function main() {
  const dir = L.tmpDir('flood')
  const srv = await L.startServer(bin, {db: `${dir}/t.db`})
  // set-up: two accounts, a finished game
  const ana = await L.Client.open(srv.url, {name: 'ana', localAddress: '127.0.0.3'})
  await ana.ok('register', {name: 'ana', password: 'password-ana-1'})
  const bo = await L.Client.open(srv.url, {name: 'bo', localAddress: '127.0.0.4'}); await bo.ok('guest')
  let ch = await ana.ok('challenge.create', {settings: {size: 9, color: 'black'}})
  const F = (await bo.ok('challenge.accept', {challenge: L.challengeId(ch)})).game
  await ana.ok('game.resign', {game: F})
  // the flood
  const codes = {}, api = {}
  const note = (k, m) => { k[m] = (k[m] || 0) + 1 }
  let stop = false, sent = 0
  const attackers = []
  for (let i = 0; i < 8; i++) {
    const c = await L.Client.open(srv.url, {name: `x${i}`, localAddress: '127.0.0.2'}).catch(e => null)
    if (!c) { note(codes, 'connect refused'); continue }
    c.ws.on('message', d => { try { const m = JSON.parse(d); if (m.type === 'ok' || m.type === 'error') note(codes, m.type === 'ok' ? 'ok' : m.code) } catch (e) {} })
    attackers.push(c)
  }
  const flood = (async () => {
    let n = 0
    while (!stop) {
      for (const c of attackers) {
        if (c.closed) continue
        const kinds = [{type: 'login', name: 'ana', password: `wrong-${n}`}, {type: 'guest'}, {type: 'game.watch', game: F}, {type: 'game.unwatch', game: F}]
        for (const m of kinds) { c.ws.send(JSON.stringify(Object.assign({id: 100000 + n++}, m))); sent++ }
      }
      for (let k = 0; k < 4; k++) apiGet(srv, k % 2 ? `/api/games/${F}/sgf` : '/api/games?state=finished', '127.0.0.2').then(s => note(api, s))
      await L.sleep(20)
    }
  })()
  // the honest player: logs in anew and plays
  await L.sleep(2000)
  const t0 = Date.now()
  const ana2 = await L.Client.open(srv.url, {name: 'ana2', localAddress: '127.0.0.3'})
  const login = await ana2.request('login', {name: 'ana', password: 'password-ana-1'}, 10000)
  const loginMs = Date.now() - t0
  assert.strictEqual(login.type, 'ok', `honest login: ${JSON.stringify(login)}`)
  ch = await ana2.ok('challenge.create', {settings: {size: 9, color: 'black'}})
  const G = (await bo.ok('challenge.accept', {challenge: L.challengeId(ch)})).game
  await ana2.ok('game.watch', {game: G}); await bo.ok('game.watch', {game: G})
  const lat = []
  const pts = []
  for (let x = 0; x < 9; x++) for (let y = 0; y < 9; y++) pts.push(L.COLUMNS[x] + (y + 1))
  const end = Date.now() + SECONDS * 1000
  let m = 0
  while (Date.now() < end && m < 70) {
    const who = m % 2 === 0 ? ana2 : bo
    const s = Date.now()
    const a = await who.request('game.move', {game: G, move: pts[m]}, 5000)
    assert.strictEqual(a.type, 'ok', `honest move ${m}: ${JSON.stringify(a)}`)
    lat.push(Date.now() - s); m++
    await L.sleep(300)
  }
  stop = true; await flood
  const metrics = await L.get(srv, '/metrics')
  const lagMax = (metrics.body.match(/^tengen_loop_lag_max_seconds(?:{[^}]*})?\s+(\S+)/m) || [])[1]
  await L.killServer(srv, 'SIGTERM')
  const sanit = /AddressSanitizer|runtime error|LeakSanitizer/.test(srv.output)
  console.log(`flood: ${sent} requests from 8 connections of 127.0.0.2 in ${SECONDS + 2} s; answers ${JSON.stringify(codes)}; API ${JSON.stringify(api)}`)
  console.log(`honest: login ${loginMs} ms; ${m} moves, ack p50 ${q(lat, 0.5)} ms, p99 ${q(lat, 0.99)} ms, max ${Math.max(...lat)} ms; loop lag max ${lagMax}; exit ${JSON.stringify(srv.exited)}; sanitizer report ${sanit}`)
  if (sanit) { console.log(srv.output.slice(-3000)); process.exit(1) }
}
main().catch(e => { console.error('FAIL', e.stack || e); process.exit(1) })
