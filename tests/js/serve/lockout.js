// lockout.js — one client attacking beside an honest one (issue 48, faults 5
// and 11): each attack comes from one address (127.0.0.2), the honest player
// from another (127.0.0.3), both loopback.  Before, the server's budgets were
// server-wide, so an attacker took everyone's share: 20 logins a second let a
// correct login through 1 time in 18; reconnecting made guests without end;
// one address filled the lobby; watching a long finished game replayed it on
// the loop every time.  Now each budget is per address (docs/protocol.md):
//   - logins: the attacker's wrong passwords never lock the honest login out;
//   - guests: reconnecting does not give one address more than its share;
//   - the lobby: one address opens at most 30 challenges, others still can;
//   - engine games: at most 6 an address, however many accounts it makes;
//   - watching finished games: served from the cache, not the store each time.
// Starts its own server; bounded in time (under 60 s).
'use strict'

const assert = require('assert')
const {startServer, killServer, tmpDir, get, Client, makeChecker, sleep} = require('./lib')

const bin = process.argv[2] || process.env.TENGEN_BIN
if (!bin) {
  console.error('usage: node lockout.js TENGEN_BIN')
  process.exit(2)
}

const ATTACKER = '127.0.0.2' // each attack from an address of its own: 127.0.0.2, .4, .5, .6, .7
const HONEST = '127.0.0.3'
let server = null
const clients = []
const {check, results} = makeChecker('', () => {
  if (server && server.exited) throw new Error(`the server is dead: ${JSON.stringify(server.exited)}`)
})

async function open(name, localAddress) {
  const c = await Client.open(server.url, {name, localAddress})
  clients.push(c)
  return c
}

async function metric(name) {
  const r = await get(server, '/metrics')
  assert.strictEqual(r.status, 200)
  const line = r.body.split('\n').find(l => l.startsWith(name + ' '))
  assert.ok(line, `/metrics has no ${name}`)
  return Number(line.split(' ')[1])
}

async function main() {
  const hardStop = setTimeout(() => { console.log('FAIL lockout.js: hard time limit'); process.exit(1) }, 90000)
  const dir = tmpDir('tengen-lockout-')
  server = await startServer(bin, {db: `${dir}/t.db`})

  // an honest account, made before any attack
  const honest = await open('honest', HONEST)
  await honest.ok('register', {name: 'honest', password: 'correct horse battery'})

  await check('an attacker guessing passwords does not lock an honest login out', async () => {
    const attackers = []
    for (let i = 0; i < 4; i++) attackers.push(await open(`guesser${i}`, ATTACKER))
    let stop = false
    const refused = {n: 0}
    const flood = attackers.map(async a => {
      a.minGapMs = 0
      while (!stop) {
        // as fast as the connection's message limit allows: 20 a second
        a.request('login', {name: 'honest', password: 'wrong password'}, 20000)
          .then(r => { if (r.type === 'error' && r.code === 'rate_limited') refused.n++ }, () => {})
        await sleep(50)
      }
    })
    let ok = 0
    for (let i = 0; i < 8; i++) {
      const c = await open(`honest-login${i}`, HONEST)
      const r = await c.request('login', {name: 'honest', password: 'correct horse battery'}, 10000)
      if (r.type === 'ok') ok++
      await sleep(300)
    }
    stop = true
    await Promise.all(flood)
    assert.strictEqual(ok, 8, `the honest login got through ${ok} times of 8 under the flood`)
    // limited either way: logins refused (rate_limited), or, where the
    // password checks are slow (a loaded machine) and the flood's messages
    // pile up behind them, its connections closed (1008, too many messages
    // while logging in)
    const closed = attackers.filter(a => a.closed && a.closed.code === 1008).length
    assert.ok(refused.n > 20 || closed > 0, `the attacker's flood was not limited (${refused.n} refused, ${closed} connections closed)`)
  })

  await check('reconnecting does not give one address more guests than its share', async () => {
    let made = 0, limited = 0
    for (let i = 0; i < 45; i++) {
      const c = await open(`guest${i}`, '127.0.0.4')
      const r = await c.request('guest')
      if (r.type === 'ok') made++
      else if (r.code === 'rate_limited') limited++
      await c.close()
    }
    assert.ok(made <= 31, `one address made ${made} guests by reconnecting`)
    assert.ok(limited >= 14, `only ${limited} guests refused`)
    const h = await open('honest-guest', HONEST)
    const r = await h.request('guest')
    assert.strictEqual(r.type, 'ok', `the honest guest was refused: ${JSON.stringify(r)}`)
  })

  await check('one address cannot fill the lobby', async () => {
    const conns = []
    let opened = 0, refused = 0
    for (let i = 0; i < 5; i++) {
      const c = await open(`filler${i}`, '127.0.0.5')
      const r = await c.request('register', {name: `filler${i}`, password: 'filler password'})
      if (r.type !== 'ok') continue
      conns.push(c)
      for (let k = 0; k < 10; k++) {
        const a = await c.request('challenge.create', {settings: {size: 9}})
        if (a.type === 'ok') opened++
        else if (a.code === 'rate_limited') refused++
      }
    }
    assert.ok(conns.length >= 4, `the attacker could not register (${conns.length})`)
    assert.strictEqual(opened, 30, `one address opened ${opened} challenges`)
    assert.ok(refused >= 10)
    const h = await open('honest-challenger', HONEST)
    await h.ok('login', {name: 'honest', password: 'correct horse battery'}, 10000)
    const r = await h.request('challenge.create', {settings: {size: 9}})
    assert.strictEqual(r.type, 'ok', `the honest challenge was refused: ${JSON.stringify(r)}`)
    for (const c of conns) await c.close() // their challenges go with them
  })

  await check('at most 6 games against engines from one address, whatever its accounts', async () => {
    let started = 0, limited = 0
    for (let i = 0; i < 3; i++) {
      const c = await open(`engine-player${i}`, '127.0.0.6')
      const r = await c.request('register', {name: `enginer${i}`, password: 'engine password'})
      if (r.type !== 'ok') continue
      for (let k = 0; k < 3; k++) {
        // the person plays Black: the engine is not asked before they move
        const a = await c.request('engine.play', {settings: {size: 9, color: 'black'}})
        if (a.type === 'ok') started++
        else if (a.code === 'rate_limited') limited++
      }
    }
    assert.strictEqual(started, 6, `${started} engine games from one address`)
    assert.ok(limited >= 3)
  })

  await check('watching a finished game over and over keeps the loop free', async () => {
    // a finished game: two honest guests, one resigns
    const b = await open('b', HONEST), w = await open('w', HONEST)
    await b.ok('guest')
    await w.ok('guest')
    const ch = await b.ok('challenge.create', {settings: {size: 19, color: 'black'}})
    const g = (await w.ok('challenge.accept', {challenge: ch.challenge.id})).game
    await b.ok('game.watch', {game: g})
    await w.ok('game.watch', {game: g})
    for (let i = 0; i < 10; i++) {
      await b.ok('game.move', {game: g, move: `D${i + 1}`})
      await w.ok('game.move', {game: g, move: `Q${i + 1}`})
    }
    await w.ok('game.resign', {game: g})
    await b.ok('game.unwatch', {game: g})
    await w.ok('game.unwatch', {game: g})
    await sleep(200)
    const readsBefore = await metric('tengen_finished_reads_total')
    const watchers = []
    for (let i = 0; i < 6; i++) watchers.push(await open(`watcher${i}`, '127.0.0.7'))
    let stop = false, answered = 0
    const flood = watchers.map(async c => {
      c.minGapMs = 0
      while (!stop) {
        c.request('game.watch', {game: g}).then(r => { if (r.type === 'ok') answered++ }, () => {})
        await sleep(50)
      }
    })
    // meanwhile an honest game goes on, its moves acknowledged promptly
    const p = await open('p', HONEST), q = await open('q', HONEST)
    await p.ok('guest')
    await q.ok('guest')
    const ch2 = await p.ok('challenge.create', {settings: {size: 9, color: 'black'}})
    const g2 = (await q.ok('challenge.accept', {challenge: ch2.challenge.id})).game
    const moves = [['C3', 'G7'], ['C7', 'G3'], ['E5', 'E3'], ['E7', 'C5']]
    for (const [mb, mw] of moves) {
      await p.ok('game.move', {game: g2, move: mb})
      await q.ok('game.move', {game: g2, move: mw})
      await sleep(250)
    }
    stop = true
    await Promise.all(flood)
    assert.ok(answered > 50, `the watchers were answered ${answered} times`)
    // the finished game came from the store once, then from the cache: no
    // replay, nor even a read, for each of the hundreds of watches
    const reads = await metric('tengen_finished_reads_total') - readsBefore
    assert.ok(reads <= 1, `the finished game was read from the store ${reads} times for ${answered} watches`)
  })

  for (const c of clients) c.terminate()
  await killServer(server, 'SIGTERM')
  clearTimeout(hardStop)
  console.log(`lockout.js: ${results.passed} passed, ${results.failed} failed`)
  process.exit(results.failed ? 1 : 0)
}

main().catch(e => {
  console.log(`FAIL lockout.js: ${e && e.stack || e}`)
  if (server) console.log(server.output.slice(-3000))
  process.exit(1)
})
