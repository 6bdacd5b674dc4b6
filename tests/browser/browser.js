// browser.js — the tengen serve page (web/) driven in headless Chromium
// with playwright-core, against a real `tengen serve` that this script
// starts on a free port with a fresh database and stops at the end.
//
//   1. Two people register, one opens a 9×9 challenge (Black, no clock),
//      the other accepts; a third person watches from the first move and
//      sees every move and the players' chat (names and chat shown as text).
//      After two passes, Black marks a white stone dead and accepts, White
//      accepts without it: play resumes with Black (who claimed it dead) to
//      move.  Black captures it, both pass, both accept the same (empty)
//      list and the result shows.  The SGF download parses with
//      @sabaki/sgf and holds the moves played.
//   2. A guest plays a short 9×9 game against the engine ({playouts: 50})
//      and resigns (or passes when the engine passes).
//   3. A byo-yomi game of 1 s + 1×5 s where nobody moves: the page calls the
//      countdown of the last period (R2), then it ends in a loss on time.
//   4. Free handicap placement (2 stones), White's first move, then White
//      cancels the game.
//   5. A game with a byo-yomi clock: Black's clock counts down on the page;
//      the server is restarted (same database) and both pages reconnect,
//      still logged in, and the game goes on to a resignation.
//   6. The free-opening ruleset (free_opening.js): the opening placed by
//      the seats, sealed predictions that never reach the opponent early,
//      the reveal swapping the seats, the count against the threshold.
//   7. With SCREENSHOT=1 a game in progress is saved to docs/serve-game.png
//      (SCREENSHOT=/some/file.png: there instead); failing to write it is
//      only a warning.
//
// Usage: node browser.js   (env TENGEN_BIN, TENGEN_SOURCE_DIR; CHROMIUM
// overrides /usr/bin/chromium; ONLY=game,engine,time,handicap,restart,free runs some;
// TENGEN_WEB_DIR=web serves the page from disk instead of the copy built into
// the binary).  Exits non-zero with a message on failure.
'use strict'

const assert = require('assert')
const fs = require('fs')
const http = require('http')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn} = require('child_process')
const {chromium} = require('playwright-core')
const sgf = require('@sabaki/sgf')
const {scenarioFreeOpening} = require('./free_opening.js')

const TENGEN = process.env.TENGEN_BIN
const SOURCE = process.env.TENGEN_SOURCE_DIR
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const TOTAL_MS = 170000   // the whole test
const STEP_MS = 15000     // one wait in the page
const T0 = Date.now()

if (!TENGEN || !SOURCE) {
  console.error('browser.js: TENGEN_BIN and TENGEN_SOURCE_DIR must be set')
  process.exit(2)
}

let server = null
let serverLog = ''
let browser = null
let tmpDir = null
const pageErrors = []

function log(msg) {
  console.log(`[${((Date.now() - T0) / 1000).toFixed(1)}s] ${msg}`)
}

function cleanup() {
  if (server && server.exitCode === null) {
    try { server.kill('SIGKILL') } catch (e) { /* gone */ }
  }
  if (tmpDir) {
    try { fs.rmSync(tmpDir, {recursive: true, force: true}) } catch (e) { /* ignore */ }
  }
}
process.on('exit', cleanup)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { cleanup(); process.exit(1) })

function fail(msg) {
  console.error(`FAIL ${msg}`)
  if (pageErrors.length) console.error('page errors:\n  ' + pageErrors.slice(-20).join('\n  '))
  if (serverLog) console.error('server output (last lines):\n' + serverLog.split('\n').slice(-40).join('\n'))
  cleanup()
  process.exit(1)
}

const watchdog = setTimeout(() => fail(`the whole test took over ${TOTAL_MS / 1000} s`), TOTAL_MS)
watchdog.unref()

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const {port} = s.address()
      s.close(() => resolve(port))
    })
  })
}

function httpGet(url, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve({status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks)}))
    })
    req.on('error', reject)
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${url}: no answer in ${timeoutMs} ms`)))
  })
}

let serverPort = 0

async function startServer() {
  if (!serverPort) serverPort = await freePort()
  if (!tmpDir) tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-browser-'))
  const listen = `127.0.0.1:${serverPort}`
  const args = ['serve', '--listen', listen, '--db', path.join(tmpDir, 't.db')]
  if (process.env.TENGEN_WEB_DIR) args.push('--web', path.resolve(process.env.TENGEN_WEB_DIR))
  log(`starting ${TENGEN} ${args.join(' ')}`)
  stopping = false
  serverLog += `--- ${args.join(' ')}\n`
  const logStart = serverLog.length
  const child = spawn(TENGEN, args, {stdio: ['ignore', 'pipe', 'pipe']})
  server = child
  const onData = d => {
    serverLog += d.toString()
    if (serverLog.length > 400000) serverLog = serverLog.slice(-200000)
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  let exited = null
  let startingUp = true
  child.on('exit', (code, sig) => {
    exited = `exited with ${code === null ? sig : code}`
    if (server === child && !stopping && !startingUp) fail(`tengen serve ${exited} during the test`)
  })
  const deadline = Date.now() + 15000
  while (!serverLog.slice(Math.max(0, logStart - 1)).includes(listen)) {
    if (exited) fail(`tengen serve ${exited} before printing ${listen}`)
    if (Date.now() > deadline) fail(`tengen serve did not print its address ${listen} within 15 s`)
    await new Promise(r => setTimeout(r, 50))
  }
  startingUp = false
  return `http://${listen}`
}

let stopping = false
let serverDownOnPurpose = false

async function stopServer() {
  stopping = true
  if (!server || server.exitCode !== null) return
  server.kill('SIGTERM')
  const t = Date.now()
  while (server.exitCode === null && server.signalCode === null && Date.now() - t < 3000) {
    await new Promise(r => setTimeout(r, 50))
  }
  if (server.exitCode === null && server.signalCode === null) {
    log('tengen serve did not stop on SIGTERM within 3 s; killing it')
    server.kill('SIGKILL')
  }
}

// ------------------------------------------------------------------ page helpers

async function step(name, fn) {
  log(name)
  try {
    return await fn()
  } catch (e) {
    fail(`${name}: ${e && e.message ? e.message.split('\n').slice(0, 8).join('\n') : e}`)
  }
}

async function newPage(base, label, opts = {}) {
  const context = await browser.newContext(Object.assign({viewport: {width: 1100, height: 850}}, opts))
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  page.label = label
  page.on('pageerror', e => pageErrors.push(`${label}: ${e.message}`))
  page.on('console', m => {
    if (m.type() !== 'error') return
    // while the test has stopped the server on purpose, the browser itself
    // reports the page's reconnection attempts as refused: not the page's fault
    if (serverDownOnPurpose && /ERR_CONNECTION_REFUSED/.test(m.text())) return
    pageErrors.push(`${label} console: ${m.text()}`)
  })
  await page.goto(base + '/')
  await page.waitForSelector('#conn[data-state="online"]')
  return page
}

async function register(page, name, password) {
  // on a narrow screen the login form is folded behind a button
  if (await page.isVisible('#auth-toggle')) await page.click('#auth-toggle')
  await page.fill('#auth-name', name)
  await page.fill('#auth-password', password)
  await page.click('#register')
  await page.waitForFunction(n => {
    const u = document.querySelector('#user-name')
    const e = document.querySelector('#auth-error')
    if (e && e.textContent) throw new Error(e.textContent)
    return u && u.textContent === n
  }, name)
}

async function gameId(page) {
  await page.waitForFunction(() => /^#\/game\/\d+$/.test(location.hash))
  return parseInt((await page.evaluate(() => location.hash)).split('/')[2], 10)
}

async function waitState(page, sel, what) {
  try {
    await page.waitForSelector(sel, {state: 'attached'})
  } catch (e) {
    const status = await page.evaluate(() => {
      const s = document.querySelector('#status')
      const err = document.querySelector('#game-error')
      return `status="${s ? s.textContent : ''}" phase=${s ? s.dataset.phase : ''} to_move=${s ? s.dataset.toMove : ''} error="${err ? err.textContent : ''}"`
    }).catch(() => '')
    throw new Error(`${page.label}: ${what || sel} did not happen (${status})`)
  }
}

async function movesShown(page) {
  return page.$$eval('#moves li', lis => lis.map(li => `${li.dataset.color} ${li.dataset.move}`))
}

async function waitMoves(page, n) {
  try {
    await page.waitForFunction(k => document.querySelectorAll('#moves li').length >= k, n)
  } catch (e) {
    throw new Error(`${page.label}: move list never reached ${n} moves (has ${JSON.stringify(await movesShown(page))})`)
  }
}

async function errorText(page) {
  return page.evaluate(() => {
    const e = document.querySelector('#game-error')
    return e ? e.textContent : ''
  })
}

// The player whose turn it is plays `move`; every page in `all` (players and
// spectators) must then show it.
async function play(player, all, colour, move, played) {
  await waitState(player, `#status[data-phase="play"][data-to-move="${colour}"][data-you="${colour}"]`,
    `${colour}'s turn before ${move}`)
  if (move === 'pass') {
    await player.waitForSelector('#pass:not([disabled])')
    await player.click('#pass')
  } else {
    await player.click(`#board [data-vertex="${move}"]`)
  }
  played.push(`${colour} ${move}`)
  for (const p of all) {
    try {
      await p.waitForFunction(k => document.querySelectorAll('#moves li').length >= k, played.length)
    } catch (e) {
      throw new Error(`${p.label} did not see move ${played.length} (${colour} ${move}); ` +
        `error shown to ${player.label}: "${await errorText(player)}"`)
    }
    const shown = await movesShown(p)
    assert.deepStrictEqual(shown.slice(0, played.length), played, `${p.label}'s move list`)
    if (move !== 'pass') {
      await p.waitForSelector(`#board [data-stone="${move}"][data-color="${colour}"]`, {state: 'attached'})
    }
  }
}

// Makes the page's own dead list (removal phase) equal `wanted`.
async function setDeadList(page, colour, wanted) {
  for (let round = 0; round < 10; round++) {
    await waitState(page, `#dead-${colour}`, 'the stone-removal panel')
    const have = (await page.getAttribute(`#dead-${colour}`, 'data-dead')).split(' ').filter(Boolean)
    const diff = wanted.find(v => !have.includes(v)) || have.find(v => !wanted.includes(v))
    if (!diff) return
    const before = have.join(' ')
    await page.click(`#board [data-vertex="${diff}"]`)
    await page.waitForFunction(([c, b]) => {
      const n = document.querySelector(`#dead-${c}`)
      return n && n.dataset.dead !== b
    }, [colour, before])
  }
  throw new Error(`${page.label}: could not make the dead list ${JSON.stringify(wanted)}`)
}

// Both pages in the lobby; A fills the challenge form (`select` then `fill`,
// by field id without its "ch-" prefix) and opens it, B accepts it; both are
// taken to the game, whose id is returned.
async function openAndAccept(base, A, B, ana, {select = {}, fill = {}} = {}) {
  for (const p of [A, B]) await p.goto(base + '/#/')
  for (const p of [A, B]) await p.waitForSelector('#conn[data-state="online"]')
  for (const [k, v] of Object.entries(select)) await A.selectOption(`#ch-${k}`, v)
  for (const [k, v] of Object.entries(fill)) await A.fill(`#ch-${k}`, v)
  await A.click('#ch-create')
  const accept = `#challenges li[data-challenger="${ana}"] .accept-challenge`
  try {
    await B.waitForSelector(accept)
  } catch (e) {
    throw new Error(`the challenge did not appear: "${await A.textContent('#challenge-error')}"`)
  }
  await B.click(accept)
  const id = await gameId(B)
  assert.strictEqual(await gameId(A), id, 'A and B are in different games')
  return id
}

function sgfToVertex(size, v) {
  if (!v || (v === 'tt' && size <= 19)) return 'pass'
  const letters = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'
  const col = v.charCodeAt(0) - 97, row = v.charCodeAt(1) - 97
  return letters[col] + (size - row)
}

// ------------------------------------------------------------------ scenarios

async function scenarioGame(base) {
  const suffix = (Date.now() % 100000).toString(36)
  const ana = `ana_${suffix}`, bo = `bo_${suffix}`, cy = `cy_${suffix}`
  const A = await step('page A (Black) opens and registers', async () => {
    const p = await newPage(base, 'A'); await register(p, ana, 'password-a1'); return p
  })
  const B = await step('page B (White) opens and registers', async () => {
    const p = await newPage(base, 'B'); await register(p, bo, 'password-b1'); return p
  })
  const C = await step('page C (spectator, phone screen) opens and registers', async () => {
    const p = await newPage(base, 'C', {viewport: {width: 390, height: 844}, isMobile: true, hasTouch: true})
    await register(p, cy, 'password-c1'); return p
  })

  await step('A opens a 9×9 challenge as Black with no clock', async () => {
    await A.selectOption('#ch-size', '9')
    await A.selectOption('#ch-color', 'black')
    await A.selectOption('#ch-time-system', 'none')
    await A.click('#ch-create')
    await B.waitForSelector(`#challenges li[data-challenger="${ana}"] .accept-challenge`)
    await A.waitForSelector(`#challenges li[data-challenger="${ana}"] .cancel-challenge`)
    const err = await A.textContent('#challenge-error')
    assert.strictEqual(err, '', `challenge error: ${err}`)
  })

  const id = await step('B accepts; both are taken to the game', async () => {
    await B.click(`#challenges li[data-challenger="${ana}"] .accept-challenge`)
    const idB = await gameId(B)
    const idA = await gameId(A)
    assert.strictEqual(idA, idB, 'A and B are in different games')
    return idB
  })

  await step('C finds the game in the live list and watches it', async () => {
    await C.waitForSelector(`#live-games li[data-game="${id}"] a.watch`)
    await C.click(`#live-games li[data-game="${id}"] a.watch`)
    await waitState(C, '#status[data-phase="play"][data-to-move="black"][data-you=""]', 'C watching as a spectator')
    await waitState(A, '#status[data-you="black"]', 'A playing Black')
    await waitState(B, '#status[data-you="white"]', 'B playing White')
    const wide = await C.evaluate(() => ({doc: document.documentElement.scrollWidth, win: innerWidth,
      board: document.querySelector('#board').getBoundingClientRect().width}))
    assert.ok(wide.doc <= wide.win + 1, `the page is wider than a phone screen: ${JSON.stringify(wide)}`)
    assert.ok(wide.board > 250 && wide.board <= wide.win, `the board does not fit the phone screen: ${JSON.stringify(wide)}`)
  })

  const all = [A, B, C]
  const played = []
  const P = {black: A, white: B}
  const moves = async list => { for (const [c, m] of list) await play(P[c], all, c, m, played) }

  await step('hover stone shows on your turn only', async () => {
    await A.hover('#board [data-vertex="E5"]')
    await A.waitForSelector('#hover-stone[visibility="visible"]', {state: 'attached'})
    await B.hover('#board [data-vertex="E5"]')
    assert.strictEqual(await B.getAttribute('#hover-stone', 'visibility'), 'hidden', 'B sees a hover stone on A\'s turn')
  })

  await step('moves: B E5, W C7, B D4 (everyone sees each)', () =>
    moves([['black', 'E5'], ['white', 'C7'], ['black', 'D4']]))

  await step('undo: Black asks to take back D4, White agrees; everyone sees it gone; Black plays D4 again', async () => {
    await A.click('#undo')
    await waitState(B, '#request[data-what="undo"][data-by="black"] #request-accept', 'B asked about the undo')
    await waitState(C, '#request[data-what="undo"]', 'C seeing the undo request')
    await B.click('#request-accept')
    played.pop()
    for (const p of all) {
      await p.waitForFunction(k => document.querySelectorAll('#moves li').length === k, played.length)
      await p.waitForFunction(() => !document.querySelector('#board [data-stone="D4"]'))
      await p.waitForFunction(() => !document.querySelector('#request'))
    }
    await moves([['black', 'D4']])
  })

  await step('chat: players\' channel reaches all; names and text are inserted as text', async () => {
    const evil = '<b id="pwn">bold</b> & <img src=x onerror="window.pwned=1">'
    await A.fill('#chat-input', evil)
    await A.click('#chat-send')
    for (const p of all) {
      await p.waitForFunction(t => [...document.querySelectorAll('#chat-log li .text')].some(n => n.textContent === t), evil)
      assert.strictEqual(await p.$('#chat-log #pwn'), null, `${p.label}: chat was inserted as HTML`)
      assert.strictEqual(await p.evaluate(() => window.pwned), undefined, `${p.label}: chat ran script`)
    }
    await C.fill('#chat-input', 'from the gallery')
    await C.click('#chat-send')
    await C.waitForSelector('#chat-log li[data-channel="spectators"]')
    await B.fill('#chat-input', 'good luck')
    await B.click('#chat-send')
    await A.waitForFunction(() => [...document.querySelectorAll('#chat-log li .text')].some(n => n.textContent === 'good luck'))
    assert.strictEqual(await A.$('#chat-log li[data-channel="spectators"]'), null, 'a player sees the spectators\' channel')
  })

  await step('W passes, B passes: stone removal', async () => {
    await moves([['white', 'pass'], ['black', 'pass']])
    for (const p of all) await waitState(p, '#status[data-phase="removal"]', 'the stone-removal phase')
  })

  await step('removal: A marks C7 dead and accepts; B accepts without it; play resumes, Black to move', async () => {
    await setDeadList(A, 'black', ['C7'])
    await setDeadList(B, 'white', [])
    await A.waitForSelector('#board [data-stone="C7"][data-mark="dead-mine"]', {state: 'attached'})
    await B.waitForFunction(() => (document.querySelector('#dead-black') || {dataset: {}}).dataset.dead === 'C7')
    await A.click('#accept')
    await waitState(B, '#stated-black[data-stated="1"]', 'B seeing that Black has accepted')
    await B.click('#accept')
    for (const p of all) await waitState(p, '#status[data-phase="play"][data-to-move="black"]', 'play resumed with Black to move')
    await waitState(A, '#status-resumed', 'A told that play resumed')
    const text = await A.textContent('#status-text')
    assert.ok(/your turn/i.test(text), `A's status after resumption: "${text}"`)
  })

  await step('play on: Black captures C7', async () => {
    await moves([['black', 'B7'], ['white', 'pass'], ['black', 'D7'], ['white', 'pass'], ['black', 'C8']])
    if (process.env.SCREENSHOT) {
      const out = process.env.SCREENSHOT === '1' ? path.join(SOURCE, 'docs', 'serve-game.png') : process.env.SCREENSHOT
      try {
        await A.click('#move-numbers')
        await A.screenshot({path: out, fullPage: true})
        await A.click('#move-numbers')
        log(`screenshot written to ${out}`)
      } catch (e) {
        log(`warning: could not write the screenshot ${out}: ${e.message}`)
      }
    }
    await moves([['white', 'pass'], ['black', 'C6']])
    for (const p of all) {
      await p.waitForFunction(() => !document.querySelector('#board [data-stone="C7"]'))
      await p.waitForFunction(() => document.querySelector('#captures-black').textContent === '1')
    }
  })

  await step('W passes, B passes; both accept no dead stones; the result shows', async () => {
    await moves([['white', 'pass'], ['black', 'pass']])
    for (const p of all) await waitState(p, '#status[data-phase="removal"]', 'the second stone removal')
    await setDeadList(A, 'black', [])
    await setDeadList(B, 'white', [])
    await A.click('#accept')
    await waitState(B, '#stated-black[data-stated="1"]', 'B seeing that Black has accepted')
    await B.click('#accept')
    for (const p of all) {
      await waitState(p, '#result[data-result^="B+"]', 'a Black win shown in #result')
      const words = await p.textContent('#result-text')
      assert.ok(words && words.length > 3, `${p.label}: no result in words`)
    }
    assert.strictEqual(await A.getAttribute('#result', 'data-reason'), 'score')
    await A.selectOption('#lang', 'zh')
    const zh = await A.textContent('#result-text')
    assert.ok(/[\u4e00-\u9fff]/.test(zh), `no Chinese result text: "${zh}"`)
    await A.selectOption('#lang', 'en')
  })

  await step('the spectator saw every move', async () => {
    assert.deepStrictEqual(await movesShown(C), played, 'C\'s move list')
  })

  await step('step through the finished game', async () => {
    await A.click('#nav-first')
    await A.waitForFunction(() => document.querySelectorAll('#board [data-stone]').length === 0)
    await A.click('#nav-next')
    await A.waitForSelector('#board [data-stone="E5"][data-color="black"]', {state: 'attached'})
    for (let k = 1; k < 7; k++) await A.click('#nav-next')  // after move 7 (B B7): C7 still on the board
    await A.waitForSelector('#board [data-stone="C7"][data-color="white"]', {state: 'attached'})
    await A.click('#nav-last')
    await A.waitForFunction(() => !document.querySelector('#board [data-stone="C7"]') && document.querySelector('#board').dataset.live === '1')
  })

  await step('the SGF download parses with @sabaki/sgf and holds the moves', async () => {
    const href = await A.getAttribute('#sgf', 'href')
    const res = await httpGet(new URL(href, base).toString())
    assert.strictEqual(res.status, 200, `GET ${href}: status ${res.status}: ${res.body.toString().slice(0, 200)}`)
    const text = res.body.toString('utf8')
    const roots = sgf.parse(text)
    assert.ok(roots.length >= 1, 'no game tree')
    const root = roots[0]
    const size = parseInt((root.data.SZ || ['19'])[0], 10)
    assert.strictEqual(size, 9, 'SZ')
    const got = []
    for (let node = root; node; node = node.children[0]) {
      if (node.data.B) got.push(`black ${sgfToVertex(size, node.data.B[0])}`)
      if (node.data.W) got.push(`white ${sgfToVertex(size, node.data.W[0])}`)
    }
    assert.deepStrictEqual(got, played, 'the SGF\'s moves')
    assert.ok(/^B\+/.test((root.data.RE || [''])[0]), `RE: ${root.data.RE}`)
    assert.strictEqual((root.data.PB || [''])[0], ana, 'PB')
    assert.strictEqual((root.data.PW || [''])[0], bo, 'PW')
  })

  await step('the finished game is listed in the lobby', async () => {
    await C.goto(base + '/#/')
    await C.waitForSelector(`#finished-games li[data-game="${id}"]`)
  })
  return {A, B, C, ana, bo}
}

async function scenarioEngine(base) {
  const D = await step('page D plays as a guest', async () => {
    const p = await newPage(base, 'D')
    await p.click('#guest')
    await p.waitForFunction(() => /^guest-/.test((document.querySelector('#user-name') || {}).textContent || ''))
    return p
  })
  await step('D starts a 9×9 game as Black against the engine, 50 playouts', async () => {
    await D.waitForSelector('#eng-engine option[value="tengen"]', {state: 'attached'})
    await D.selectOption('#eng-engine', 'tengen')
    await D.selectOption('#eng-size', '9')
    await D.selectOption('#eng-color', 'black')
    await D.selectOption('#eng-strength-kind', 'playouts')
    await D.fill('#eng-strength', '50')
    await D.click('#eng-play')
    try {
      await gameId(D)
    } catch (e) {
      throw new Error(`no game: "${await D.textContent('#engine-error')}"`)
    }
    await waitState(D, '#status[data-you="black"]', 'D playing Black')
  })
  await step('D plays three moves, the engine answers each; D then resigns (or passes after the engine passes)', async () => {
    const candidates = ['E5', 'C3', 'G7', 'C7', 'G3', 'D6', 'F4', 'E3', 'E7', 'C5', 'G5']
    let mine = 0
    for (let turn = 0; turn < 12; turn++) {
      await D.waitForFunction(() => {
        const s = document.querySelector('#status')
        return s && (s.dataset.phase !== 'play' || s.dataset.toMove === 'black')
      }, null, {timeout: 30000})
      const phase = await D.getAttribute('#status', 'data-phase')
      if (phase !== 'play') break
      const moves = await movesShown(D)
      const engineLast = moves[moves.length - 1]
      if (engineLast === 'white pass' || mine >= 3) {
        if (engineLast === 'white pass') await D.click('#pass')
        else { await D.click('#resign'); await D.click('#resign-confirm') }
        break
      }
      const free = await D.$$eval('#board [data-vertex][data-state="empty"]', ns => ns.map(n => n.dataset.vertex))
      const v = candidates.find(c => free.includes(c))
      await D.click(`#board [data-vertex="${v}"]`)
      mine++
      try {
        await D.waitForFunction(k => document.querySelectorAll('#moves li').length >= k, moves.length + 1)
      } catch (e) {
        throw new Error(`D's move ${v} was not played: "${await errorText(D)}"`)
      }
    }
    // After a pass the game may go to stone removal: take the engine's view.
    const end = Date.now() + 30000
    while (Date.now() < end) {
      const phase = await D.getAttribute('#status', 'data-phase')
      if (phase === 'over') break
      if (phase === 'removal') {
        await D.click('#concede').catch(() => {})
        await D.waitForTimeout(1000)
        if (await D.getAttribute('#status', 'data-phase') === 'removal') await D.click('#accept').catch(() => {})
      }
      await D.waitForTimeout(300)
    }
    await waitState(D, '#result[data-result]:not([data-result=""])', 'the engine game\'s result')
    const engineMoves = (await movesShown(D)).filter(m => m.startsWith('white') && m !== 'white pass')
    assert.ok(engineMoves.length >= 1, 'the engine never played a stone')
    log(`engine game: ${(await movesShown(D)).join(', ')}; result ${await D.getAttribute('#result', 'data-result')}`)
  })
}

async function scenarioTime(base, A, B, ana) {
  await step('A opens a byo-yomi 1+1×5 challenge; B accepts', async () => {
    // Record what the page speaks (headless Chromium has no voices).
    await A.addInitScript(() => {
      window.spoken = []
      Object.defineProperty(window, 'speechSynthesis', {configurable: true,
        value: {speak: u => window.spoken.push(u.text), cancel() {}}})
    })
    await A.goto(base + '/#/')
    await A.reload()  // a new hash alone loads no new document
    await openAndAccept(base, A, B, ana, {select: {size: '9', color: 'black', 'time-system': 'byoyomi'},
      fill: {time: 'byoyomi:1+1x5'}})
  })
  await step('nobody moves: the countdown is called in the last period, then Black loses on time', async () => {
    await waitState(A, '#clock-black[data-overtime="1"]', 'Black\'s clock in byo-yomi')
    await waitState(A, '#call-black[data-call]', 'a countdown call (R2) on the page')
    await A.waitForFunction(() => window.spoken.length > 0)
    for (const p of [A, B]) {
      await waitState(p, '#result[data-reason="time"]', 'a loss on time')
      const r = await p.getAttribute('#result', 'data-result')
      assert.ok(/^W\+T/i.test(r), `${p.label}: result "${r}", expected W+T`)
    }
    log(`calls spoken to Black: ${JSON.stringify(await A.evaluate(() => window.spoken))}`)
  })
}

async function scenarioRestart(base, A, B, ana, bo) {
  await step('A opens a byo-yomi 600+3×30 challenge; B accepts; Black\'s clock counts down', async () => {
    await openAndAccept(base, A, B, ana, {select: {size: '9', color: 'black', 'time-system': 'byoyomi'},
      fill: {time: 'byoyomi:600+3x30'}})
    await waitState(A, '#clock-black[data-running="1"]', 'Black\'s clock running')
    const before = parseInt(await A.getAttribute('#clock-black', 'data-ms'), 10)
    await A.waitForTimeout(1200)
    const after = parseInt(await A.getAttribute('#clock-black', 'data-ms'), 10)
    assert.ok(after < before - 500 && after > 590000, `Black's clock: ${before} ms, then ${after} ms`)
    const white = await B.textContent('#clock-white')
    assert.ok(/^10:00/.test(white), `White's clock shows "${white}"`)
    assert.strictEqual(await B.getAttribute('#clock-white', 'data-running'), '0', 'White\'s clock running')
    await play(A, [A, B], 'black', 'E5', [])
  })
  await step('pause: White asks, Black agrees, the clocks stop; White asks to resume, Black agrees', async () => {
    await B.click('#pause')
    await waitState(A, '#request[data-what="pause"][data-by="white"] #request-accept', 'A asked about the pause')
    await A.click('#request-accept')
    for (const p of [A, B]) {
      await waitState(p, '#status[data-phase="play"] #status-text', 'the paused game')
      await p.waitForFunction(() => /paused/i.test(document.querySelector('#status-text').textContent))
      await p.waitForFunction(() => document.querySelector('#clock-white').dataset.running === '0')
    }
    const ms1 = await B.getAttribute('#clock-white', 'data-ms')
    await B.waitForTimeout(600)
    assert.strictEqual(await B.getAttribute('#clock-white', 'data-ms'), ms1, 'White\'s clock moved during the pause')
    await B.click('#pause')  // now "Request resume"
    await waitState(A, '#request[data-what="resume"] #request-accept', 'A asked about resuming')
    await A.click('#request-accept')
    await waitState(B, '#clock-white[data-running="1"]', 'White\'s clock running again')
  })
  await step('the server restarts; both pages reconnect, still logged in, and the game goes on', async () => {
    serverDownOnPurpose = true
    await stopServer()
    await A.waitForSelector('#conn[data-state="offline"], #conn[data-state="connecting"]', {state: 'attached'})
    await startServer()
    for (const [p, name] of [[A, ana], [B, bo]]) {
      await waitState(p, '#conn[data-state="online"]', 'reconnection')
    }
    serverDownOnPurpose = false
    for (const [p, name] of [[A, ana], [B, bo]]) {
      await p.waitForFunction(n => (document.querySelector('#user-name') || {}).textContent === n, name)
      await waitState(p, '#status[data-phase="play"][data-to-move="white"]', 'the game after the restart')
    }
    await waitState(B, '#status[data-you="white"]', 'B still White after the restart')
    await play(B, [A, B], 'white', 'C3', ['black E5'])
    await A.click('#resign')
    await A.click('#resign-confirm')
    for (const p of [A, B]) await waitState(p, '#result[data-result^="W+R"]', 'W+R after Black resigns')
    assert.strictEqual(await A.getAttribute('#result', 'data-reason'), 'resign')
  })
}

async function scenarioHandicap(base, A, B, ana) {
  await step('A opens a 9×9 challenge with 2 free handicap stones; B accepts; A places them', async () => {
    await openAndAccept(base, A, B, ana, {select: {size: '9', color: 'black', 'time-system': 'none',
      handicap: '2', placement: 'free'}})
    await waitState(A, '#status[data-phase="placement"]', 'the placement phase')
    await A.click('#board [data-vertex="C3"]')
    await A.click('#board [data-vertex="G7"]')
    await A.waitForSelector('#place:not([disabled])')
    await A.click('#place')
    for (const p of [A, B]) {
      await waitState(p, '#status[data-phase="play"][data-to-move="white"]', 'White to move after the handicap')
      await p.waitForSelector('#board [data-stone="C3"][data-color="black"]', {state: 'attached'})
      await p.waitForSelector('#board [data-stone="G7"][data-color="black"]', {state: 'attached'})
    }
  })
  await step('White plays the first move; then cancels the game (fewer than 2 moves)', async () => {
    await play(B, [A, B], 'white', 'E5', [])
    await waitState(B, '#cancel-game:not([hidden])', 'the cancel button')
    await B.click('#cancel-game')
    for (const p of [A, B]) await waitState(p, '#result[data-reason="cancel"]', 'the game cancelled')
  })
}

async function main() {
  if (!fs.existsSync(CHROMIUM)) fail(`no Chromium at ${CHROMIUM}`)
  const base = await startServer()
  log(`server at ${base}`)
  await step('the page and its modules are served with the right types', async () => {
    const index = await httpGet(base + '/')
    assert.strictEqual(index.status, 200, `GET /: ${index.status}`)
    assert.ok(/text\/html/.test(index.headers['content-type'] || ''), `GET / content-type ${index.headers['content-type']}`)
    const js = await httpGet(base + '/app.js')
    assert.strictEqual(js.status, 200, `GET /app.js: ${js.status}`)
    assert.ok(/javascript/.test(js.headers['content-type'] || ''), `GET /app.js content-type ${js.headers['content-type']} (modules need a JavaScript type)`)
  })
  browser = await step('launch Chromium', () => chromium.launch({
    executablePath: CHROMIUM, headless: true, timeout: 30000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run']
  }))
  const only = process.env.ONLY || ''
  let players = null
  if (!only || only.includes('game')) players = await scenarioGame(base)
  if (!only || only.includes('engine')) await scenarioEngine(base)
  const needPlayers = async () => {
    if (players) return players
    const s = (Date.now() % 100000).toString(36)
    const A = await newPage(base, 'A'); const B = await newPage(base, 'B')
    await register(A, `ta_${s}`, 'password-a1'); await register(B, `tb_${s}`, 'password-b1')
    players = {A, B, ana: `ta_${s}`, bo: `tb_${s}`}
    return players
  }
  if (!only || only.includes('time')) {
    const p = await needPlayers()
    await scenarioTime(base, p.A, p.B, p.ana)
  }
  if (!only || only.includes('handicap')) {
    const p = await needPlayers()
    await scenarioHandicap(base, p.A, p.B, p.ana)
  }
  if (!only || only.includes('free')) {
    const p = await needPlayers()
    await scenarioFreeOpening(base, p.A, p.B, p.ana, p.bo, {step, waitState, setDeadList, httpGet, openAndAccept})
  }
  if (!only || only.includes('restart')) {
    const p = await needPlayers()
    await scenarioRestart(base, p.A, p.B, p.ana, p.bo)
  }
  if (pageErrors.length) fail('errors in the page:\n  ' + pageErrors.join('\n  '))
  await browser.close()
  await stopServer()
  log('PASS')
  cleanup()
  process.exit(0)
}

main().catch(e => fail(e && e.stack ? e.stack : String(e)))
