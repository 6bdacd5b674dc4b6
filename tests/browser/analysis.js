// analysis.js — analysis with the engine (issue 51) in headless Chromium
// with playwright-core, against a `tengen serve --analysis-playouts 30` this
// script starts on a free port with a fresh database:
//
//   1. A short 9×9 game is played and resigned; its page offers the
//      analysis, which runs on the server (progress shown, then done); the
//      graph has one point a position (the start and after each move), the
//      board shows the engine's candidates with visits and win rates, the
//      principal variation of the one under the pointer, the ownership map;
//      stepping moves the board and the graph's cursor.  Opened again, the
//      stored analysis is read back (no second run).
//   2. An SGF pasted on the upload page is analysed (kind sgf, its own id).
//   3. A live game: its spectator sees the engine's view of the position on
//      the board (candidates on the board, Black's win rate) only once both
//      players allow it; a player never does (refused, and no button).
//   4. Bad input gets a clear error, never a crash: a record with an illegal
//      move and a text that is no SGF are refused (bad_sgf, and on the
//      page), an upload over 128 KiB is refused (too_large), a message with
//      an unknown field is refused (bad_request), a game in play is refused
//      (not_finished), a second analysis of the same account while one is
//      under way is refused (busy); the server still answers afterwards.
//   With SCREENSHOT=1 the analysed game is saved to docs/serve-analysis.png
//   (ANALYSIS_PLAYOUTS=N for another budget than 30 a position).
//
// Usage: node analysis.js (env TENGEN_BIN, TENGEN_SOURCE_DIR; CHROMIUM
// overrides /usr/bin/chromium; TENGEN_WEB_DIR=web serves the page from disk;
// TENGEN_DB_URL=postgresql://... runs the server on PostgreSQL).
'use strict'

const assert = require('assert')
const fs = require('fs')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn} = require('child_process')
const {chromium} = require('playwright-core')

const TENGEN = process.env.TENGEN_BIN
const SOURCE = process.env.TENGEN_SOURCE_DIR
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const T0 = Date.now()
let server = null, serverLog = '', browser = null, tmpDir = null
const pageErrors = []

const log = msg => console.log(`[${((Date.now() - T0) / 1000).toFixed(1)}s] ${msg}`)

function cleanup() {
  if (server && server.exitCode === null) try { server.kill('SIGKILL') } catch (e) { /* gone */ }
  if (tmpDir) try { fs.rmSync(tmpDir, {recursive: true, force: true}) } catch (e) { /* ignore */ }
}
process.on('exit', cleanup)

function fail(msg) {
  console.error(`FAIL ${msg}`)
  if (pageErrors.length) console.error('page errors:\n  ' + pageErrors.slice(-20).join('\n  '))
  if (serverLog) console.error('server output (last lines):\n' + serverLog.split('\n').slice(-30).join('\n'))
  cleanup()
  process.exit(1)
}
// a guard against a hang, not a measurement (sanitized builds are slow)
setTimeout(() => fail('the whole test took over 300 s'), 300000).unref()

async function step(name, fn) {
  log(name)
  try { return await fn() } catch (e) { fail(`${name}: ${e && e.message ? e.message.split('\n').slice(0, 10).join('\n') : e}`) }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const {port} = s.address(); s.close(() => resolve(port)) })
  })
}

async function startServer() {
  const port = await freePort()
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-analysis-'))
  const listen = `127.0.0.1:${port}`
  const db = process.env.TENGEN_DB_URL || path.join(tmpDir, 't.db')
  const args = ['serve', '--listen', listen, '--db', db, '--analysis-playouts', process.env.ANALYSIS_PLAYOUTS || '30']
  if (process.env.TENGEN_WEB_DIR) args.push('--web', path.resolve(process.env.TENGEN_WEB_DIR))
  server = spawn(TENGEN, args, {stdio: ['ignore', 'pipe', 'pipe']})
  const onData = d => { serverLog = (serverLog + d.toString()).slice(-100000) }
  server.stdout.on('data', onData)
  server.stderr.on('data', onData)
  server.on('exit', (code, sig) => fail(`tengen serve exited with ${code === null ? sig : code}`))
  const deadline = Date.now() + 15000
  while (!serverLog.includes(listen)) {
    if (Date.now() > deadline) fail(`tengen serve did not print ${listen} within 15 s`)
    await new Promise(r => setTimeout(r, 50))
  }
  return `http://${listen}`
}

async function newPage(base, label) {
  const context = await browser.newContext({viewport: {width: 1280, height: 800}})
  const page = await context.newPage()
  page.setDefaultTimeout(60000)
  page.on('pageerror', e => pageErrors.push(`${label}: ${e.message}`))
  page.on('console', m => { if (m.type() === 'error' && !/ERR_CONNECTION|WebSocket|404/.test(m.text())) pageErrors.push(`${label} console: ${m.text()}`) })
  await page.goto(base + '/')
  await page.waitForSelector('#conn[data-state="online"]')
  return page
}

async function register(page, name) {
  await page.evaluate(async n => {
    const ok = await window.tengen.conn.request('register', {name: n, password: 'password-' + n})
    localStorage.setItem('tengen.token', ok.token)
  }, name)
  await page.reload()
  await page.waitForSelector(`#auth[data-user="${name}"]`)
}

// A request through the page's connection: 'ok' fields, or {code}.
function ask(page, type, fields) {
  return page.evaluate(async ([t, f]) => {
    try { return await window.tengen.conn.request(t, f) } catch (e) { return {code: e.code || e.message, message: e.message} }
  }, [type, fields])
}

async function send(page, game, move, n) {
  for (let k = 0; ; k++) {
    const r = await ask(page, 'game.move', {game, move, n})
    if (!r.code) return
    if (r.code !== 'rate_limited' || k > 50) throw new Error(`move ${n} ${move}: ${r.code}`)
    await new Promise(res => setTimeout(res, 150))
  }
}

async function newGame(A, B) {
  const ch = await ask(A, 'challenge.create', {settings: {size: 9, color: 'black', time: 'none'}})
  const id = typeof ch.challenge === 'object' ? ch.challenge.id : ch.challenge
  const ok = await ask(B, 'challenge.accept', {challenge: id})
  assert.ok(ok.game, `challenge.accept: ${JSON.stringify(ok)}`)
  return ok.game
}

// Black's D and White's F column, then White resigns: 18 moves.
const MOVES = ['D5', 'F5']
for (const r of [4, 6, 3, 7, 2, 8, 1, 9]) MOVES.push('D' + r, 'F' + r)

const SGF = '(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[ana]PW[bo];B[ee];W[gc];B[cg];W[ge];B[gg];W[hg];B[fh])'

async function scenarioGame(base, A, B, C) {
  const game = await step('a 9×9 game of 18 moves, resigned by White', async () => {
    const g = await newGame(A, B)
    for (let i = 0; i < MOVES.length; i++) await send(i % 2 ? B : A, g, MOVES[i], i + 1)
    await scenarioLive(base, A, B, C, g)
    const r = await ask(B, 'game.resign', {game: g})
    assert.ok(!r.code, `resign: ${r.code}`)
    return g
  })
  await step('the finished game offers the analysis; it runs, with progress, and is drawn', async () => {
    await A.goto(`${base}/#/game/${game}`)
    await A.waitForSelector('#status[data-phase="over"]')
    await A.click('#analyse-link')
    await A.waitForSelector('#analysis-status[data-state="queued"], #analysis-status[data-state="running"], #analysis-status[data-state="done"]')
    await A.waitForSelector('#analysis-status[data-state="done"]')
    const points = await A.$$eval('#analysis-graph [data-point]', ps => ps.length)
    assert.strictEqual(points, MOVES.length + 1, 'one point a position')
    assert.strictEqual(await A.getAttribute('#analysis-graph', 'data-points'), String(MOVES.length + 1))
    const polyline = await A.getAttribute('#graph-winrate', 'points')
    assert.strictEqual(polyline.trim().split(/\s+/).length, MOVES.length + 1)
    const bars = await A.$$eval('#graph-lead rect', rs => rs.length)
    assert.strictEqual(bars, MOVES.length + 1)
  })
  await step('candidates with visits and win rates on the board, the line on hover, ownership', async () => {
    await A.click('#an-end')
    await A.waitForSelector(`#board[data-position="${MOVES.length}"]`, {state: 'attached'})
    const cands = await A.$$eval('#board [data-candidate]', cs => cs.map(c => ({move: c.dataset.candidate, visits: +c.dataset.visits, winrate: +c.dataset.winrate})))
    assert.ok(cands.length >= 1, 'no candidate on the board')
    for (const c of cands) {
      assert.ok(c.visits > 0 && c.winrate >= 0 && c.winrate <= 1, `candidate ${JSON.stringify(c)}`)
      assert.ok(!(await A.$(`#board [data-stone="${c.move}"]`)), `a candidate on a stone: ${c.move}`)
    }
    assert.strictEqual(await A.$$eval('#an-candidates tr[data-candidate-row]', rs => rs.length), cands.length)
    await A.hover(`#board [data-candidate="${cands[0].move}"]`)
    const pv = await A.getAttribute('#pv', 'data-pv')
    assert.ok(pv && pv.split(' ')[0] === cands[0].move, `principal variation "${pv}"`)
    assert.ok(await A.$$eval('#pv [data-pv-move]', s => s.length) >= 1)
    assert.ok(await A.$$eval('#ownership rect', s => s.length) > 0, 'no ownership drawn')
    await A.uncheck('#an-ownership')
    assert.strictEqual(await A.$('#ownership'), null)
    await A.check('#an-ownership')
  })
  await step('stepping moves the board and the graph\'s cursor; a point of the graph jumps there', async () => {
    await A.click('#an-start')
    await A.waitForSelector('#board[data-position="0"]', {state: 'attached'})
    assert.strictEqual(await A.$$eval('#board [data-stone]', s => s.length), 0)
    const x0 = await A.getAttribute('#graph-cursor', 'x1')
    await A.keyboard.press('ArrowRight')
    await A.waitForSelector('#board[data-position="1"]', {state: 'attached'})
    await A.waitForSelector('#board [data-stone="D5"]', {state: 'attached'})
    assert.notStrictEqual(await A.getAttribute('#graph-cursor', 'x1'), x0)
    await A.click('#analysis-graph [data-point="5"]', {force: true})
    await A.waitForSelector('#board[data-position="5"]', {state: 'attached'})
    const mistakes = await A.$$eval('#an-mistakes li', ls => ls.length)
    assert.ok(mistakes >= 1, 'the mistakes list is empty (it says so when there are none)')
    if (process.env.SCREENSHOT) {
      await A.click('#an-end')
      await A.hover('#board [data-candidate]')
      const out = path.join(SOURCE, 'docs', 'serve-analysis.png')
      await A.locator('#analysis-view').screenshot({path: out, type: 'png', scale: 'css'})
      log(`saved ${out}`)
    }
  })
  await step('opened again, the stored analysis is read, not run again', async () => {
    const r = await ask(B, 'analysis.start', {game})
    assert.strictEqual(r.state, 'done', JSON.stringify(r))
    const api = await (await fetch(`${base}/api/analysis/game/${game}`)).json()
    assert.strictEqual(api.state, 'done')
    assert.strictEqual(api.analysis.positions.length, MOVES.length + 1)
    assert.strictEqual(api.analysis.moves[0].move, 'D5')
    await B.goto(`${base}/#/analysis/game/${game}`)
    await B.waitForSelector('#analysis-status[data-state="done"]')
  })
  return game
}

// During the game: C watches; the view is refused until both players allow it.
async function scenarioLive(base, A, B, C, game) {
  log('a live game: the spectator sees the engine\'s view once both players allow it')
  for (const p of [A, B, C]) {
    await p.goto(`${base}/#/game/${game}`)
    await p.waitForSelector('#status[data-phase="play"]')
  }
  await C.waitForSelector('#live-status[data-state="not-allowed"]')
  let r = await ask(C, 'analysis.position', {game})
  assert.strictEqual(r.code, 'not_allowed', JSON.stringify(r))
  await A.check('#live-allow')
  r = await ask(C, 'analysis.position', {game})
  assert.strictEqual(r.code, 'not_allowed', 'one player allowing is not enough')
  await B.check('#live-allow')
  await C.click('#live-toggle')
  await C.waitForSelector('#live-status[data-state="shown"]')
  await C.waitForSelector('#board [data-candidate]', {state: 'attached'})
  assert.ok(/18/.test(await C.textContent('#live-status')))
  r = await ask(A, 'analysis.position', {game})
  assert.strictEqual(r.code, 'forbidden', 'a player asked for the engine\'s view of their own game')
  assert.strictEqual(await A.$('#live-toggle'), null)
  assert.strictEqual(await A.$('#board [data-candidate]'), null)
}

async function scenarioUpload(base, A) {
  await step('an SGF pasted on the upload page is analysed', async () => {
    await A.goto(`${base}/#/analysis`)
    await A.fill('#sgf-text', SGF)
    await A.click('#sgf-send')
    await A.waitForFunction(() => /^#\/analysis\/sgf\/\d+$/.test(location.hash))
    await A.waitForSelector('#analysis-status[data-state="done"]')
    assert.strictEqual(await A.$$eval('#analysis-graph [data-point]', ps => ps.length), 8)
    assert.ok(await A.$$eval('#board [data-candidate]', cs => cs.length) >= 1)
    const id = await A.evaluate(() => location.hash.split('/').pop())
    const api = await (await fetch(`${base}/api/analysis/sgf/${id}`)).json()
    assert.strictEqual(api.analysis.black, 'ana')
  })
}

async function scenarioBadInput(base, A, B, game) {
  await step('a record with an illegal move is refused, on the page too', async () => {
    const r = await ask(A, 'analysis.upload', {text: '(;GM[1]SZ[9];B[ee];W[ee])'})
    assert.strictEqual(r.code, 'bad_sgf', JSON.stringify(r))
    await A.goto(`${base}/#/analysis`)
    await A.fill('#sgf-text', 'this is no game record')
    await A.click('#sgf-send')
    await A.waitForFunction(() => document.querySelector('#upload-error').textContent.length > 0)
    assert.ok(/record/.test(await A.textContent('#upload-error')))
  })
  await step('an upload over 128 KiB, in parts, is refused', async () => {
    const part = '(;SZ[19]' + 'C[' + 'x'.repeat(6000) + ']'
    let r = null
    for (let k = 0; k < 30 && !(r && r.code); k++) r = await ask(A, 'analysis.upload', {text: part, more: true})
    assert.strictEqual(r.code, 'too_large', JSON.stringify(r))
    const big = 'x'.repeat(129 * 1024)
    const onPage = await A.evaluate(async s => {
      try { await window.tengen.S.view.upload(s); return 'sent' } catch (e) { return e.message }
    }, big)
    assert.ok(/128 KiB/.test(onPage), onPage)
  })
  await step('unknown fields, a game in play, a second analysis at once: refused', async () => {
    let r = await ask(A, 'analysis.start', {game, extra: 1})
    assert.strictEqual(r.code, 'bad_request', JSON.stringify(r))
    r = await ask(A, 'analysis.start', {game: 999999})
    assert.strictEqual(r.code, 'not_found', JSON.stringify(r))
    const live = await newGame(A, B)
    r = await ask(A, 'analysis.start', {game: live})
    assert.strictEqual(r.code, 'not_finished', JSON.stringify(r))
    // the first a 19×19 record of 38 moves: still under way when the second comes
    const L = 'abcdefghijklmnopqrs'
    let long = '(;GM[1]FF[4]SZ[19]'
    for (const x of L) long += `;B[${x}d];W[${x}p]`
    long += ')'
    const both = await A.evaluate(async sgf => {
      const one = s => window.tengen.conn.request('analysis.upload', {text: s}).then(() => 'ok', e => e.code)
      return Promise.all([one(sgf), one(sgf)])
    }, long)
    assert.deepStrictEqual(both.sort(), ['busy', 'ok'])
    const api = await fetch(`${base}/api/analysis/game/abc`)
    assert.strictEqual(api.status, 400)
    const after = await ask(A, 'lobby.subscribe', {})
    assert.ok(!after.code, `the server answers afterwards: ${JSON.stringify(after)}`)
  })
}

async function main() {
  if (!TENGEN || !SOURCE) fail('TENGEN_BIN and TENGEN_SOURCE_DIR must be set')
  const base = await startServer()
  browser = await chromium.launch({executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu']})
  const suffix = (Date.now() % 100000).toString(36)
  const A = await newPage(base, 'A')
  await register(A, 'ana_' + suffix)
  const B = await newPage(base, 'B')
  await register(B, 'bo_' + suffix)
  const C = await newPage(base, 'C')
  await register(C, 'cy_' + suffix)
  const game = await scenarioGame(base, A, B, C)
  await scenarioUpload(base, A)
  await scenarioBadInput(base, A, B, game)
  assert.deepStrictEqual(pageErrors, [], 'errors in the pages')
  await browser.close()
  log('analysis.js: all passed')
  server.removeAllListeners('exit')
  cleanup()
  process.exit(0)
}

main().catch(e => fail(e && e.stack ? e.stack : String(e)))
