// tournament.js — a tournament on the server, in headless Chromium
// (issue 52): four people register; ana organises a 3-round Swiss on 9×9
// with a lateness delay of 12 s; everyone registers with a rank.
//   Round 1: paired and started; the players on the tournament page are
//     taken to their boards, except di, who is away: after the delay di's
//     board ends as a loss by absence (R8, T4) and the page says "+L";
//     on the other board Black resigns.
//   Round 2: di is back; the organiser rules board 1 both lose (双负, T3)
//     with a note; on board 2 White resigns.
//   Round 3: both boards end by resignation; the tournament is finished,
//     no two players met twice, the standings list four players with their
//     wins adding up to the games won (2 + 1 + 2: a win by absence counts), and the standings page
//     (standings.html) and the OpenGotha export are served.
// Usage: node tournament.js  (env TENGEN_BIN; CHROMIUM overrides
// /usr/bin/chromium).  Exits non-zero with a message on failure.
'use strict'

const assert = require('assert')
const fs = require('fs')
const http = require('http')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn} = require('child_process')
const {chromium} = require('playwright-core')

const TENGEN = process.env.TENGEN_BIN
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const TOTAL_MS = 170000
const STEP_MS = 20000
const T0 = Date.now()
if (!TENGEN) {
  console.error('tournament.js: TENGEN_BIN must be set')
  process.exit(2)
}

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
setTimeout(() => fail(`the whole test took over ${TOTAL_MS / 1000} s`), TOTAL_MS).unref()

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const {port} = s.address(); s.close(() => resolve(port)) })
  })
}

function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve({status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString()}))
    }).on('error', reject)
  })
}

async function startServer() {
  const port = await freePort()
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-tour-'))
  const listen = `127.0.0.1:${port}`
  server = spawn(TENGEN, ['serve', '--listen', listen, '--db', path.join(tmpDir, 't.db')], {stdio: ['ignore', 'pipe', 'pipe']})
  const onData = d => { serverLog = (serverLog + d.toString()).slice(-100000) }
  server.stdout.on('data', onData)
  server.stderr.on('data', onData)
  server.on('exit', (code, sig) => fail(`tengen serve exited with ${code === null ? sig : code} during the test`))
  const deadline = Date.now() + 15000
  while (!serverLog.includes(listen)) {
    if (Date.now() > deadline) fail(`tengen serve did not print ${listen}`)
    await new Promise(r => setTimeout(r, 50))
  }
  return `http://${listen}`
}

const P = {}

async function step(name, fn) {
  log(name)
  try { return await fn() } catch (e) {
    // where each page was, to tell a page that was not taken to its board from one that was
    const where = []
    for (const [n, p] of Object.entries(P)) {
      where.push(`${n}: ${await p.evaluate(() => `${location.hash} view=${document.querySelector('#main') &&
        document.querySelector('#main').dataset.view} conn=${document.querySelector('#conn') && document.querySelector('#conn').dataset.state} errors=${JSON.stringify([...document.querySelectorAll('.error')].map(x => x.textContent).filter(x => x))} players=${document.querySelectorAll('#tour-players li').length}`).catch(() => '?')}`)
    }
    fail(`${name}: ${e && e.message ? e.message.split('\n').slice(0, 8).join('\n') : e}\n  pages: ${where.join('; ')}`)
  }
}

async function newPage(base, label) {
  const context = await browser.newContext({viewport: {width: 1100, height: 850}})
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  page.label = label
  page.on('pageerror', e => pageErrors.push(`${label}: ${e.message}`))
  page.on('console', m => { if (m.type() === 'error') pageErrors.push(`${label} console: ${m.text()}`) })
  await page.goto(base + '/')
  await page.waitForSelector('#conn[data-state="online"]')
  return page
}

async function register(page, name) {
  await page.fill('#auth-name', name)
  await page.fill('#auth-password', 'correct horse battery')
  await page.click('#register')
  await page.waitForFunction(n => {
    const u = document.querySelector('#user-name')
    const e = document.querySelector('#auth-error')
    if (e && e.textContent) throw new Error(e.textContent)
    return u && u.textContent === n
  }, name)
}

// The tournament as the API has it.
async function view(base, id) {
  const r = await get(`${base}/api/tournaments/${id}`)
  assert.strictEqual(r.status, 200, r.body)
  return JSON.parse(r.body).tournament
}

async function waitView(base, id, pred, what) {
  const deadline = Date.now() + STEP_MS
  let v
  while (Date.now() < deadline) {
    v = await view(base, id)
    if (pred(v)) return v
    await new Promise(r => setTimeout(r, 250)) // (the API's budget is the address's: the pages' too)
  }
  throw new Error(`${what} did not happen: ${JSON.stringify(v).slice(0, 600)}`)
}

async function resign(page, game) {
  await page.waitForFunction(g => location.hash === '#/game/' + g, game)
  try {
    await page.waitForSelector('#status[data-phase="play"]')
  } catch (e) {
    const st = await page.evaluate(() => {
      const s = document.querySelector('#status')
      return s ? `"${s.textContent}" ${JSON.stringify(s.dataset)}` : 'no #status'
    })
    throw new Error(`${page.label}: game ${game} not in play: ${st}`)
  }
  await page.click('#resign')
  await page.click('#resign-confirm')
  await page.waitForSelector('#status[data-phase="over"]')
}

async function main() {
  const base = await startServer()
  browser = await chromium.launch({executablePath: CHROMIUM, args: ['--no-sandbox']})
  const names = ['ana', 'bo', 'cy', 'di'], ranks = ['3k', '5k', '1d', '2k']
  for (const n of names) {
    P[n] = await newPage(base, n)
    await step(`${n} registers`, () => register(P[n], n))
  }
  const A = P.ana
  let id = 0
  await step('ana organises a 3-round Swiss on 9×9 with 12 s of lateness allowed', async () => {
    await A.click('#nav-tournaments')
    await A.waitForSelector('#tour-form')
    await A.fill('#tour-name', 'Spring cup')
    await A.selectOption('#tour-system', 'swiss')
    await A.fill('#tour-rounds', '3')
    await A.selectOption('#tour-size', '9')
    await A.fill('#tour-time', 'none')
    await A.fill('#tour-late', '0.2')
    await A.click('#tour-create')
    await A.waitForFunction(() => /^#\/tournament\/\d+$/.test(location.hash))
    id = parseInt((await A.evaluate(() => location.hash)).split('/')[2], 10)
    await A.waitForSelector('#tour-title')
    assert.strictEqual(await A.textContent('#tour-title'), 'Spring cup')
  })
  await step('everyone registers with a rank; a rank that is not one is refused with its reason', async () => {
    // di types a rank first: the others' joins render di's page again, and
    // what was typed (and the focus) must outlive that
    await P.di.goto(`${base}/#/tournament/${id}`)
    await P.di.fill('#tour-rank', ranks[3])
    for (let i = 0; i < 4; i++) {
      const p = P[names[i]]
      if (i === 3) {
        await p.waitForFunction(() => document.querySelectorAll('#tour-players li').length === 3)
        assert.strictEqual(await p.inputValue('#tour-rank'), ranks[3], 'the typed rank is kept across renders')
        assert.strictEqual(await p.evaluate(() => document.activeElement && document.activeElement.id), 'tour-rank')
      } else {
        await p.goto(`${base}/#/tournament/${id}`)
      }
      await p.waitForSelector('#tour-join')
      if (i === 1) {
        await p.fill('#tour-rank', 'grandmaster')
        await p.click('#tour-join')
        await p.waitForFunction(() => document.querySelector('#tour-reg-error').textContent.length > 0)
      }
      await p.fill('#tour-rank', ranks[i])
      await p.click('#tour-join')
      await p.waitForSelector('#tour-leave')
    }
    await A.waitForFunction(() => document.querySelectorAll('#tour-players li').length === 4)
    const v = await view(base, id)
    assert.deepStrictEqual(v.players_list.map(p => p.rank), ranks)
  })

  const playerOf = (board, colour) => P[board[colour]]
  await step('round 1: paired and started; di is away and loses by absence after the delay', async () => {
    await P.di.goto('about:blank')
    await A.click('#tour-pair')
    await A.waitForSelector('.tour-round[data-round="1"] tr[data-board="2"]')
    await A.click('#tour-start')
    const v = await waitView(base, id, x => x.rounds_list[0] && x.rounds_list[0].started, 'round 1 starting')
    const boards = v.rounds_list[0].games
    const late = boards.find(b => b.black === 'di' || b.white === 'di')
    const other = boards.find(b => b !== late)
    // the players present are taken to their boards; on the other board Black resigns
    await resign(playerOf(other, 'black'), other.game)
    const diColour = late.black === 'di' ? 'B' : 'W'
    const want = (diColour === 'B' ? 'W' : 'B') + '+L'
    const after = await waitView(base, id, x => x.rounds_list[0].games.every(b => b.result), 'round 1 results')
    const lateAfter = after.rounds_list[0].games.find(b => b.board === late.board)
    assert.strictEqual(lateAfter.result, want)
    assert.strictEqual(after.rounds_list[0].games.find(b => b.board === other.board).result, 'W+R')
  })
  await step('the tournament page shows round 1\'s results, the absence among them', async () => {
    await A.goto(`${base}/#/tournament/${id}`)
    await A.waitForSelector('.tour-round[data-round="1"] td.result[data-result$="+L"]')
    await A.waitForSelector('.tour-round[data-round="1"] td.result[data-result="W+R"]')
  })

  await step('round 2: the organiser rules board 1 both lose (双负); on board 2 White resigns', async () => {
    await P.di.goto(`${base}/#/tournament/${id}`)
    await P.di.waitForSelector('#tour-title')
    for (const n of ['bo', 'cy']) {
      await P[n].goto(`${base}/#/tournament/${id}`)
      await P[n].waitForSelector('#tour-title')
    }
    await A.click('#tour-pair')
    await A.waitForSelector('.tour-round[data-round="2"] tr[data-board="2"]')
    await A.click('#tour-start')
    const v = await waitView(base, id, x => x.rounds_list[1] && x.rounds_list[1].started, 'round 2 starting')
    // ana plays too: the page took her to her board; she comes back to organise
    await A.waitForFunction(() => /^#\/game\/\d+$/.test(location.hash))
    await A.goto(`${base}/#/tournament/${id}`)
    const row = '.tour-round[data-round="2"] tr[data-board="1"]'
    await A.waitForSelector(`${row} select.result-choice`)
    await A.selectOption(`${row} select.result-choice`, 'both-lose')
    await A.fill(`${row} input.result-note`, 'both consulted a phone')
    await A.click(`${row} button.set-result`)
    await A.waitForSelector(`${row} td.result[data-result="BL"]`)
    const b2 = v.rounds_list[1].games.find(b => b.board === 2)
    // (the organiser, if White there, went back to the tournament page: back to the board)
    if (playerOf(b2, 'white') === A) await A.goto(`${base}/#/game/${b2.game}`)
    await resign(playerOf(b2, 'white'), b2.game)
    await waitView(base, id, x => x.rounds_list[1].games.find(b => b.board === 2).result === 'B+R', 'board 2 resigned')
  })

  await step('round 3 to the end: finished, no pairing repeated, standings that add up', async () => {
    for (const n of names) {
      await P[n].goto(`${base}/#/tournament/${id}`)
      await P[n].waitForSelector('#tour-title')
    }
    await A.click('#tour-pair')
    await A.waitForSelector('.tour-round[data-round="3"] tr[data-board="2"]')
    await A.click('#tour-start')
    const v = await waitView(base, id, x => x.rounds_list[2] && x.rounds_list[2].started, 'round 3 starting')
    for (const b of v.rounds_list[2].games) await resign(playerOf(b, 'black'), b.game)
    const end = await waitView(base, id, x => x.state === 'finished', 'the tournament finishing')
    const met = new Set()
    for (const rd of end.rounds_list) for (const b of rd.games) {
      const key = [b.black, b.white].sort().join('-')
      assert.ok(!met.has(key), `${key} met twice`)
      met.add(key)
    }
    assert.strictEqual(end.standings.length, 4)
    assert.strictEqual(end.standings.reduce((n, s) => n + s.wins, 0), 5)
    await A.goto(`${base}/#/tournament/${id}`)
    await A.waitForSelector('#tour-standings tbody tr:nth-child(4)')
    await A.waitForSelector('#tour-crosstable')
    assert.ok(!(await A.isVisible('#tour-organise')), 'the organiser panel stays after the end')
  })

  await step('the standings page and the OpenGotha export are served', async () => {
    const html = await get(`${base}/api/tournaments/${id}/standings.html`)
    assert.strictEqual(html.status, 200)
    assert.match(html.headers['content-type'], /text\/html/)
    assert.match(html.body, /Spring cup/)
    const xml = await get(`${base}/api/tournaments/${id}/opengotha.xml`)
    assert.strictEqual(xml.status, 200)
    assert.match(xml.body, /<Tournament/)
    const none = await get(`${base}/api/tournaments/${id + 100}`)
    assert.strictEqual(none.status, 404)
  })
  if (pageErrors.length) fail('errors in the pages')
  log('ok')
  await browser.close()
  process.exit(0)
}

main().catch(e => fail(e && e.stack ? e.stack : String(e)))
