// The database on a small tmpfs that fills up mid-game: every request is
// answered, none acknowledged that was not stored, pings answered, and
// once space is back the writes are taken again; after a restart the
// stored game holds exactly the acknowledged moves.
// Usage, as root: mkdir -p /tmp/fd && mount -t tmpfs -o size=2m tmpfs /tmp/fd &&
//   node bench/serve/fulldisk.js build-asan/tengen /tmp/fd; umount /tmp/fd
'use strict'
const assert = require('assert')
const fs = require('fs')
const {execSync} = require('child_process')
const L = require(require('path').join(__dirname, '../../tests/js/serve/lib.js'))
const bin = process.argv[2], mnt = process.argv[3]

function fill() { try { execSync(`dd if=/dev/zero of=${mnt}/filler bs=4k 2>/dev/null`) } catch (e) { /* ENOSPC ends dd */ } }
function free() { fs.unlinkSync(`${mnt}/filler`) }

async function main() {
  const db = `${mnt}/t.db`
  let srv = await L.startServer(bin, {db})
  const ana = await L.Client.open(srv.url, {name: 'ana'}); const anaTok = (await ana.ok('guest')).token
  const bo = await L.Client.open(srv.url, {name: 'bo'}); const boTok = (await bo.ok('guest')).token
  const ch = await ana.ok('challenge.create', {settings: {size: 19, color: 'black'}})
  const G = (await bo.ok('challenge.accept', {challenge: L.challengeId(ch)})).game
  await ana.ok('game.watch', {game: G}); await bo.ok('game.watch', {game: G})
  let acked = 0, refused = 0, pings = 0, pingMax = 0, codes = {}
  const pts = []
  for (let x = 0; x < 19; x++) for (let y = 0; y < 19; y++) pts.push(L.COLUMNS[x] + (y + 1))
  let next = 0
  async function move() {
    const who = acked % 2 === 0 ? ana : bo
    const a = await who.request('game.move', {game: G, move: pts[next]}, 15000)
    if (a.type === 'ok') { acked++; next++ } else { refused++; codes[a.code] = (codes[a.code] || 0) + 1 }
    return a
  }
  for (let i = 0; i < 10; i++) assert.strictEqual((await move()).type, 'ok')
  fill()
  const df = execSync(`df -k ${mnt} | tail -1`).toString().trim()
  // chat, guests, moves, pings while the disk is full
  const extra = []
  for (let i = 0; i < 60; i++) {
    const t0 = Date.now(); const p = await ana.request('ping', {}, 5000); const dt = Date.now() - t0
    if (p.type === 'pong' || p.type === 'ok') { pings++; pingMax = Math.max(pingMax, dt) }
    await move()
    const g = await L.Client.open(srv.url, {name: `g${i}`}); const ga = await g.request('guest', {}, 10000)
    extra.push(ga.type === 'ok' ? 'ok' : ga.code); g.ws.terminate()
  }
  const status = ana.all.filter(m => m.type === 'server').map(m => m.store).filter(Boolean)
  free()
  let back = false
  for (let i = 0; i < 60 && !back; i++) { back = (await move()).type === 'ok'; if (!back) await L.sleep(500) }
  assert.ok(back, 'writes taken again once space is back')
  for (let i = 0; i < 4; i++) assert.strictEqual((await move()).type, 'ok')
  await L.killServer(srv, 'SIGTERM')
  const sanit = /AddressSanitizer|runtime error|LeakSanitizer/.test(srv.output)
  const out1 = srv.output
  srv = await L.startServer(bin, {db})
  const g = await L.get(srv, `/api/games/${G}`)
  const stored = g.json.game.moves.length
  await L.killServer(srv, 'SIGTERM')
  const guests = {}; extra.forEach(k => { guests[k] = (guests[k] || 0) + 1 })
  console.log(`df when full: ${df}`)
  console.log(`moves acknowledged ${acked}, refused ${refused} ${JSON.stringify(codes)}; stored after restart ${stored}; guests while full ${JSON.stringify(guests)}; pings answered ${pings}/60, max ${pingMax} ms; store status told: ${JSON.stringify([...new Set(status)])}; sanitizer report: ${sanit || /AddressSanitizer|runtime error/.test(srv.output)}`)
  console.log(out1.split('\n').filter(l => l).slice(0, 6).join('\n'))
  assert.strictEqual(stored, acked, 'the stored moves are the acknowledged ones')
  assert.ok(!sanit)
}
main().catch(e => { console.error('FAIL', e.stack || e); try { free() } catch (x) {} process.exit(1) })
