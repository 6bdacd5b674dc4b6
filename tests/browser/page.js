// page.js — the game page as a Go player reads it (issue 51), in headless
// Chromium with playwright-core against a `tengen serve` this script starts
// on a free port with a fresh database:
//
//   1. Keyboard only: on 9×9 Black and White each play a move with the
//      arrow keys and Enter on the focused board.
//   2. Counting: a position with a column of dame and a dead White stone;
//      during stone removal the dead stone is crossed and disputed until
//      both lists hold it, territory is shaded at the right points, the dame
//      marked, and the count under the board adds up term by term to the
//      result; the finished game shows the server's count the same way.
//   3. A 250-move 19×19 game (sent through the page's own WebSocket): the
//      move list scrolls and its last move is in view; stepping back keeps
//      the current move in view; a variation is tried on a copy and
//      discarded (the game untouched), another kept and downloaded as SGF.
//   4. The connection dropped: offline is shown on the board, then gone.
//   5. Three viewports (360×740, 768×1024, 1280×800): the game opens at its
//      board with nothing wider than the screen, and a compact header.
//   6. axe-core on the lobby and the counted game: no serious or critical
//      violations.
//   With SCREENSHOT=1 the counted board and the review with a variation are
//   saved to docs/serve-count.png and docs/serve-review.png.
//
// Usage: node page.js (env TENGEN_BIN, TENGEN_SOURCE_DIR; CHROMIUM overrides
// /usr/bin/chromium; TENGEN_WEB_DIR=web serves the page from disk).
'use strict'

const assert = require('assert')
const fs = require('fs')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn} = require('child_process')
const {chromium} = require('playwright-core')
const sgf = require('@sabaki/sgf')

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
setTimeout(() => fail('the whole test took over 120 s'), 120000).unref()

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
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-page-'))
  const listen = `127.0.0.1:${port}`
  const args = ['serve', '--listen', listen, '--db', path.join(tmpDir, 't.db')]
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

async function newPage(base, label, viewport = {width: 1280, height: 800}) {
  const context = await browser.newContext({viewport, acceptDownloads: true})
  const page = await context.newPage()
  page.setDefaultTimeout(10000)
  page.label = label
  page.on('pageerror', e => pageErrors.push(`${label}: ${e.message}`))
  page.on('console', m => { if (m.type() === 'error' && !/ERR_CONNECTION|WebSocket/.test(m.text())) pageErrors.push(`${label} console: ${m.text()}`) })
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

// A opens a challenge as Black with `settings`, B accepts: the game's id.
async function newGame(A, B, settings) {
  const id = await A.evaluate(async s => {
    const ok = await window.tengen.conn.request('challenge.create', {settings: s})
    return typeof ok.challenge === 'object' ? ok.challenge.id : ok.challenge
  }, Object.assign({color: 'black', time: 'none'}, settings))
  const game = await B.evaluate(async c => (await window.tengen.conn.request('challenge.accept', {challenge: c})).game, id)
  for (const p of [A, B]) {
    await p.evaluate(g => { location.hash = '#/game/' + g }, game)
    await p.waitForSelector('#status[data-phase="play"]')
  }
  return game
}

// The mover's page sends a move through its own connection (retrying when
// the server's rate limit answers).
async function send(page, game, move, n) {
  for (let k = 0; ; k++) {
    const r = await page.evaluate(async ([g, m, i]) => {
      try { await window.tengen.conn.request('game.move', {game: g, move: m, n: i}); return 'ok' } catch (e) { return e.code || e.message }
    }, [game, move, n])
    if (r === 'ok') return
    retries++
    if (r !== 'rate_limited' || k > 50) throw new Error(`move ${n} ${move}: ${r}`)
    await new Promise(res => setTimeout(res, 150))
  }
}

let retries = 0
const terms = text => {
  // "Black 40.5 = 9 stones + 27 territory + 4.5 (half of 9 dame)": the
  // points and the sum of the terms
  const m = /^\S+ ([\d.]+)\D*= (.*)$/.exec(text)
  if (!m) throw new Error(`no count in "${text}"`)
  const parts = m[2].split(/ [+−] /)
  const signs = (m[2].match(/ [+−] /g) || []).map(s => (s.includes('−') ? -1 : 1))
  let sum = parseFloat(parts[0])
  parts.slice(1).forEach((p, k) => { sum += signs[k] * parseFloat(p) })
  return {points: parseFloat(m[1]), sum}
}

async function scenarioCount(base, A, B) {
  const game = await newGame(A, B, {size: 9})
  await step('keyboard only: Black D5, White F5 with arrows and Enter', async () => {
    await A.focus('#board')
    await A.keyboard.press('ArrowLeft')      // the first key shows the cursor at the centre, E5
    assert.strictEqual(await A.getAttribute('#cursor', 'data-cursor'), 'E5')
    await A.keyboard.press('ArrowLeft')
    assert.strictEqual(await A.getAttribute('#cursor', 'data-cursor'), 'D5')
    await A.keyboard.press('Enter')
    await B.waitForSelector('#board [data-stone="D5"][data-color="black"]', {state: 'attached'})
    await B.waitForSelector('#status[data-to-move="white"][data-you="white"]')
    await B.focus('#board')
    await B.keyboard.press('ArrowRight')     // the first key: at the last move, D5
    await B.keyboard.press('ArrowRight')
    await B.keyboard.press('ArrowRight')
    await B.keyboard.press('Enter')
    await A.waitForSelector('#board [data-stone="F5"][data-color="white"]', {state: 'attached'})
    const said = await A.textContent('#announce')
    assert.ok(/F5/.test(said), `the move is not announced: "${said}"`)
  })
  await step('columns D (Black) and F (White), a White stone at B5, passes: stone removal', async () => {
    let n = 3
    for (const r of [1, 2, 3, 4, 6, 7, 8, 9]) {
      await send(A, game, 'D' + r, n++)
      await send(B, game, 'F' + r, n++)
    }
    await send(A, game, 'pass', n++)
    await send(B, game, 'B5', n++)
    await send(A, game, 'pass', n++)
    await send(B, game, 'pass', n++)
    for (const p of [A, B]) await p.waitForSelector('#status[data-phase="removal"]')
  })
  await step('removal: Black marks B5 dead; it is crossed, disputed, the territory shaded and the count adds up', async () => {
    const has = async (p, c) => (await p.getAttribute(`#dead-${c}`, 'data-dead')).split(' ').includes('B5')
    if (!(await has(A, 'black'))) {
      await A.click('#board [data-vertex="B5"]')
      await A.waitForFunction(() => document.querySelector('#dead-black').dataset.dead.split(' ').includes('B5'))
    }
    if (await has(B, 'white')) {
      await B.click('#board [data-vertex="B5"]')
      await B.waitForFunction(() => !document.querySelector('#dead-white').dataset.dead.split(' ').includes('B5'))
    }
    await A.waitForSelector('#board [data-stone="B5"][data-mark="dead-mine"][data-disputed="1"]', {state: 'attached'})
    assert.strictEqual(await A.getAttribute('#disputed', 'data-dead'), 'B5')
    const label = await A.textContent('#removal .dead-list b')
    assert.ok(/you marked/.test(label), `the first list is not named as the viewer's: "${label}"`)
    const owner = async (p, v) => p.evaluate(x => {
      const n = document.querySelector(`#territory [data-vertex-territory="${x}"]`)
      return n ? n.dataset.territory : document.querySelector(`#territory [data-dame="${x}"]`) ? 'dame' : null
    }, v)
    for (const [v, o] of [['A1', 'black'], ['B5', 'black'], ['C9', 'black'], ['E5', 'dame'], ['E1', 'dame'], ['J9', 'white'], ['G3', 'white'], ['D5', null]]) {
      assert.strictEqual(await owner(A, v), o, `A: point ${v}`)
    }
    assert.strictEqual(await A.getAttribute('#score', 'data-black'), '40.5')
    assert.strictEqual(await A.getAttribute('#score', 'data-white'), '40.5')
    for (const id of ['count-black', 'count-white']) {
      const c = terms(await A.textContent('#' + id))
      assert.strictEqual(c.sum, c.points, `${id} does not add up`)
    }
    assert.strictEqual(await A.getAttribute('#score', 'data-diff'), '-7.5')
    assert.ok((await A.textContent('#count-result')).includes('W+7.5'))
  })
  await step('both lists agree, both accept: the finished game shows the server\'s count', async () => {
    await B.click('#board [data-vertex="B5"]')
    await B.waitForFunction(() => document.querySelector('#dead-white').dataset.dead.split(' ').includes('B5'))
    await A.waitForSelector('#board [data-stone="B5"][data-mark="dead-both"]:not([data-disputed])', {state: 'attached'})
    await A.click('#accept')
    await A.waitForSelector('#stated-black[data-stated="1"]')
    await B.click('#accept')
    for (const p of [A, B]) {
      await p.waitForSelector('#result[data-result="W+7.5"]')
      await p.waitForSelector('#score[data-estimated="0"][data-black="40.5"][data-white="40.5"][data-dame="9"]')
      await p.waitForSelector('#board [data-stone="B5"][data-mark="dead"]', {state: 'attached'})
      await p.waitForSelector('#territory [data-vertex-territory="B5"][data-territory="black"]', {state: 'attached'})
      await p.waitForSelector('#territory [data-vertex-territory="H2"][data-territory="white"]', {state: 'attached'})
      for (const id of ['count-black', 'count-white']) {
        const c = terms(await p.textContent('#' + id))
        assert.strictEqual(c.sum, c.points, `${p.label} ${id} does not add up: ${await p.textContent('#' + id)}`)
      }
    }
    const stones = await A.textContent('#count-stones')
    assert.ok(stones.includes('40½') && stones.includes('44¼'), `the count in stones: "${stones}"`)
    assert.ok((await A.textContent('#count-result')).includes('3¾'), 'the result in stones')
    if (process.env.SCREENSHOT) await shot(A, 'serve-count.png', '.board-col')
  })
  return game
}

async function shot(page, name, selector) {
  const out = path.join(SOURCE, 'docs', name)
  try {
    await page.locator(selector).screenshot({path: out, type: 'png', scale: 'css'})
    log(`saved ${out}`)
  } catch (e) { log(`warning: could not save ${out}: ${e.message}`) }
}

// 125 moves for each side with no capture: Black fills rows 1-7, White rows
// 13-19, each leaving points empty.
function longGame() {
  const L = 'ABCDEFGHJKLMNOPQRST', black = [], white = []
  for (let r = 1; r <= 7; r++) for (const c of L) black.push(c + r)
  for (let r = 19; r >= 13; r--) for (const c of L) white.push(c + r)
  const moves = []
  for (let k = 0; k < 125; k++) moves.push(black[k], white[k])
  return moves
}

async function scenarioLong(base, A, B) {
  const moves = longGame()
  const game = await newGame(A, B, {size: 19})
  await step('a 250-move game: its last move is in view in the move list', async () => {
    const t0 = Date.now()
    for (let k = 0; k < 20; k++) await send(k % 2 ? B : A, game, moves[k], k + 1)
    log(`20 moves sent watching the game: ${Date.now() - t0} ms`)
    // the rest from the lobby, where the pages draw nothing for them
    for (const p of [A, B]) { await p.evaluate(() => { location.hash = '#/' }); await p.waitForSelector('#challenges') }
    const t1 = Date.now()
    for (let k = 20; k < moves.length; k++) await send(k % 2 ? B : A, game, moves[k], k + 1)
    log(`230 moves sent from the lobby: ${Date.now() - t1} ms (${retries} retries after rate_limited)`)
    for (const p of [A, B]) {
      await p.evaluate(g => { location.hash = '#/game/' + g }, game)
      await p.waitForSelector('#status[data-phase="play"]').catch(async e => {
        throw new Error(`${p.label}: ${await p.evaluate(() => `${location.hash} ${document.querySelector('#main').dataset.view} ` +
          `"${(document.querySelector('#status') || {}).textContent}" "${(document.querySelector('#game-error') || {}).textContent}"`)}`)
      })
    }
    await A.waitForFunction(() => document.querySelectorAll('#moves li').length === 250)
    const box = await A.evaluate(() => {
      const ol = document.querySelector('#moves'), li = ol.querySelector('li:last-child')
      const a = ol.getBoundingClientRect(), b = li.getBoundingClientRect()
      return {scrolls: ol.scrollHeight > ol.clientHeight, inside: b.top >= a.top - 1 && b.bottom <= a.bottom + 1 &&
        b.left >= a.left - 1 && b.right <= a.right + 1, move: li.dataset.move, wide: ol.scrollWidth <= ol.clientWidth + 1}
    })
    assert.deepStrictEqual(box, {scrolls: true, inside: true, move: moves[249], wide: true})
    const ms = await A.evaluate(() => { const v = window.tengen.S.view, t = performance.now(); v.update(); return performance.now() - t })
    log(`drawing the 250-move game takes ${ms.toFixed(1)} ms`)
  })
  await step('review: step back to move 100, the current move in view; a variation tried and discarded', async () => {
    await A.click('#moves li[data-n="100"]')
    await A.waitForSelector('#board[data-moves="100"]')
    const seen = await A.evaluate(() => {
      const ol = document.querySelector('#moves'), li = ol.querySelector('li.current')
      const a = ol.getBoundingClientRect(), b = li.getBoundingClientRect()
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1
    })
    assert.ok(seen, 'move 100 is not in view in the list')
    await A.click('#board [data-vertex="K10"]')
    await A.waitForSelector('#board[data-variation="1"] [data-stone="K10"][data-color="black"]', {state: 'attached'})
    await A.click('#board [data-vertex="K9"]')
    await A.waitForSelector('#board[data-variation="2"] [data-stone="K9"][data-color="white"]', {state: 'attached'})
    await A.click('#var-discard')
    await A.waitForSelector('#board[data-moves="100"][data-variation=""]')
    assert.strictEqual(await A.$('#board [data-stone="K10"]'), null, 'the discarded variation is still on the board')
    assert.strictEqual(await A.$('#sgf-variations:not([hidden])'), null, 'a discarded variation is still offered')
    const onServer = await A.evaluate(async g => (await (await fetch(`/api/games/${g}`)).json()).game.moves.length, game)
    assert.strictEqual(onServer, 250, 'the variation touched the game')
    assert.strictEqual(await B.$$eval('#moves li', l => l.length), 250)
  })
  await step('a variation kept: downloaded as SGF with the main line and the branch', async () => {
    await A.click('#board [data-vertex="K10"]')
    await A.click('#board [data-vertex="L10"]')
    await A.click('#board [data-vertex="K11"]')
    await A.waitForSelector('#board[data-variation="3"]')
    if (process.env.SCREENSHOT) await shot(A, 'serve-review.png', '.game-view')
    const [dl] = await Promise.all([A.waitForEvent('download'), A.click('#sgf-variations')])
    const file = await dl.path()
    const [root] = sgf.parse(fs.readFileSync(file, 'utf8'))
    let node = root, depth = 0
    while (node.children.length === 1) { node = node.children[0]; depth++ }
    assert.strictEqual(depth, 100, 'the branch is not after move 100')
    assert.strictEqual(node.children.length, 2)
    const branch = node.children[1]
    assert.deepStrictEqual(branch.data.B, ['jj'], 'the variation\'s first move')
    let main = node.children[0], n = 1
    while (main.children.length) { main = main.children[0]; n++ }
    assert.strictEqual(depth + n, 250, 'the main line is not whole')
  })
}

async function scenarioOffline(A) {
  await step('the connection drops: offline is shown on the board, then goes', async () => {
    await A.evaluate(() => window.tengen.conn.ws.close())
    await A.waitForSelector('#offline:not([hidden])')
    await A.waitForSelector('#offline[hidden]', {state: 'attached'})
    await A.waitForSelector('#conn[data-state="online"]')
  })
}

async function scenarioViewports(base, countGame) {
  for (const [w, h] of [[360, 740], [768, 1024], [1280, 800]]) {
    await step(`${w}×${h}: a game opened from the bottom of the lobby opens at its board`, async () => {
      const p = await newPage(base, `${w}x${h}`, {width: w, height: h})
      await p.waitForSelector(`#finished-games li[data-game="${countGame}"] a.watch`)
      await p.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
      await p.click(`#finished-games li[data-game="${countGame}"] a.watch`)
      await p.waitForSelector('#score[data-estimated="0"]')
      const m = await p.evaluate(() => {
        const b = document.querySelector('#board').getBoundingClientRect()
        return {scrollY: Math.round(scrollY), doc: document.documentElement.scrollWidth, win: innerWidth, winH: innerHeight,
          boardTop: b.top, boardW: b.width, header: document.querySelector('#header').getBoundingClientRect().height}
      })
      assert.strictEqual(m.scrollY, 0, `the game opened scrolled: ${JSON.stringify(m)}`)
      assert.ok(m.doc <= m.win + 1, `the page is wider than the screen: ${JSON.stringify(m)}`)
      assert.ok(m.boardW <= m.win && m.boardW > Math.min(m.win, m.winH) * 0.45, `the board: ${JSON.stringify(m)}`)
      assert.ok(m.boardTop < m.winH * 0.4, `the board starts below the first screen: ${JSON.stringify(m)}`)
      assert.ok(m.header <= 60, `the header is ${m.header} px high`)
      await p.context().close()
    })
  }
}

async function axe(page, what) {
  // evaluated, not a <script>: the page's Content-Security-Policy allows only its own scripts
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'))
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
    return res.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary.split('\n').slice(1, 2).join(''))}))
  })
  const bad = r.filter(v => v.impact === 'serious' || v.impact === 'critical')
  for (const v of r) log(`axe ${what}: ${v.impact} ${v.id}`)
  assert.deepStrictEqual(bad, [], `axe-core on ${what}`)
}

async function main() {
  if (!TENGEN || !SOURCE) fail('TENGEN_BIN and TENGEN_SOURCE_DIR must be set')
  const base = await startServer()
  browser = await chromium.launch({executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu']})
  const suffix = (Date.now() % 100000).toString(36)
  const A = await step('two players register', async () => {
    const a = await newPage(base, 'A'); await register(a, 'ana_' + suffix); return a
  })
  const B = await newPage(base, 'B')
  await register(B, 'bo_' + suffix)
  const countGame = await scenarioCount(base, A, B)
  await step('axe-core: the counted game', () => axe(A, 'the counted game'))
  await scenarioLong(base, A, B)
  await scenarioOffline(A)
  await scenarioViewports(base, countGame)
  await step('axe-core: the lobby', async () => {
    await B.goto(base + '/#/')
    await B.waitForSelector('#finished-games li[data-game]')
    await axe(B, 'the lobby')
  })
  assert.deepStrictEqual(pageErrors, [], 'errors in the pages')
  await browser.close()
  log('page.js: all passed')
  server.removeAllListeners('exit')
  cleanup()
  process.exit(0)
}

main().catch(e => fail(e && e.stack ? e.stack : String(e)))
