// Requests sent together in one TCP write where one frees what another
// uses, beside an honest game; every request must get exactly one answer,
// the server must stay up, and the honest game must go on.
// Usage: node bench/serve/onewrite.js build-asan/tengen   (TENGEN_SANITIZED=1 for an ASan build)
'use strict'
const assert = require('assert')
const L = require(require('path').join(__dirname, '../../tests/js/serve/lib.js'))
const bin = process.argv[2]

function burst(c, msgs) {
  // one write: cork the socket, send every frame, uncork
  const ids = []
  const sock = c.ws._socket
  sock.cork()
  for (const m of msgs) {
    const id = c.nextId++
    ids.push(id)
    c.ws.send(JSON.stringify(Object.assign({id}, m)))
  }
  sock.uncork()
  return ids
}

async function answers(c, ids, ms = 20000) {
  const end = Date.now() + ms
  for (;;) {
    const got = ids.map(id => c.all.filter(m => m.id === id && (m.type === 'ok' || m.type === 'error')))
    if (got.every(g => g.length >= 1) || Date.now() > end) {
      for (let i = 0; i < ids.length; i++) assert.ok(got[i].length === 1, `request ${ids[i]}: ${got[i].length} answers`)
      return got.map(g => g[0])
    }
    await L.sleep(50)
  }
}

async function main() {
  const dir = L.tmpDir('onewrite')
  const srv = await L.startServer(bin, {db: `${dir}/t.db`})
  const counts = {}
  const tally = a => a.forEach(m => { const k = m.type === 'ok' ? 'ok' : m.code; counts[k] = (counts[k] || 0) + 1 })
  // the honest pair
  const ana = await L.Client.open(srv.url, {name: 'ana'}); await ana.ok('guest')
  const bo = await L.Client.open(srv.url, {name: 'bo'}); await bo.ok('guest')
  const ch = await ana.ok('challenge.create', {settings: {size: 9, color: 'black'}})
  const acc = await bo.ok('challenge.accept', {challenge: L.challengeId(ch)})
  const HG = acc.game
  await ana.ok('game.watch', {game: HG}); await bo.ok('game.watch', {game: HG})
  const honestMoves = ['E5', 'C3', 'G7', 'C7', 'G3', 'D5', 'F5', 'E3']
  let hm = 0
  async function honest() {
    const who = hm % 2 === 0 ? ana : bo
    const a = await who.request('game.move', {game: HG, move: honestMoves[hm]}, 10000)
    assert.strictEqual(a.type, 'ok', `honest move ${hm}: ${JSON.stringify(a)}`)
    hm++
  }
  let rounds = 0
  for (let r = 0; r < 6; r++) {
    // 1: an engine game resigned, moved in, left and watched again in one write while its engine thinks
    const e = await L.Client.open(srv.url, {name: `e${r}`}); await e.ok('guest')
    const g = (await e.ok('engine.play', {engine: 'tengen', strength: {playouts: 3000}, settings: {size: 9, color: 'white'}})).game
    tally(await answers(e, burst(e, [{type: 'game.watch', game: g}, {type: 'game.resign', game: g}, {type: 'game.move', game: g, move: 'E5'},
      {type: 'game.unwatch', game: g}, {type: 'game.watch', game: g}, {type: 'game.unwatch', game: g}])))
    // 2: a second engine game left by dropping the socket right after the write (the game freed with its search in flight)
    const g2 = (await e.ok('engine.play', {engine: 'tengen', strength: {playouts: 3000}, settings: {size: 9, color: 'white'}})).game
    burst(e, [{type: 'game.watch', game: g2}, {type: 'game.move', game: g2, move: 'D4'}, {type: 'game.unwatch', game: g2}])
    e.ws._socket.destroy()
    // 3: a session's logout between its own requests
    const f = await L.Client.open(srv.url, {name: `f${r}`}); const tok = (await f.ok('guest')).token
    const ch2 = await f.ok('challenge.create', {settings: {size: 9}})
    tally(await answers(f, burst(f, [{type: 'challenge.cancel', challenge: L.challengeId(ch2)}, {type: 'logout'},
      {type: 'challenge.create', settings: {size: 9}}, {type: 'hello', token: tok}, {type: 'game.watch', game: HG},
      {type: 'lobby.subscribe'}, {type: 'logout'}, {type: 'game.move', game: HG, move: 'A1'}])))
    f.ws._socket.destroy()
    // 4: register + login + logout + hello in one write (Argon2 off the loop while the session goes)
    const h = await L.Client.open(srv.url, {name: `h${r}`})
    const name = `user${r}x`
    tally(await answers(h, burst(h, [{type: 'register', name, password: 'password-long-1'}, {type: 'logout'},
      {type: 'login', name, password: 'password-long-1'}, {type: 'logout'}, {type: 'hello', token: 'nonsense'}])))
    // 5: the same, the socket dropped right after the write
    const k = await L.Client.open(srv.url, {name: `k${r}`})
    burst(k, [{type: 'login', name, password: 'password-long-1'}, {type: 'game.watch', game: g}, {type: 'logout'}])
    k.ws._socket.destroy()
    await honest()
    rounds++
  }
  // the server is up and its state whole
  const games = await L.get(srv, '/api/games')
  assert.strictEqual(games.status, 200)
  const hg = await L.get(srv, `/api/games/${HG}`)
  assert.strictEqual(hg.json.game.moves.length, hm, 'the honest game kept every move')
  await L.killServer(srv, 'SIGTERM')
  const bad = /AddressSanitizer|UndefinedBehavior|runtime error|LeakSanitizer/.test(srv.output)
  console.log(`rounds ${rounds}; answers ${JSON.stringify(counts)}; honest moves ${hm}; exit ${JSON.stringify(srv.exited)}; sanitizer report: ${bad}`)
  if (bad) { console.log(srv.output.slice(-4000)); process.exit(1) }
  process.exit(0)
}
main().catch(e => { console.error('FAIL', e.stack || e); process.exit(1) })
