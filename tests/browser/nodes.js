// nodes.js — the page across three `tengen serve` nodes on one PostgreSQL
// (issue 50), in headless Chromium: Black registers on node 1 and opens a
// challenge, White registers on node 2 and accepts it there, a spectator
// on node 3 opens the game; moves clicked on either node show on all three
// pages, then White resigns and every page shows B+R; the game was rated
// (Glicko-2): ranks shown, and Black's page on node 3 shows her new rating
// and its history.  No errors in any page's console.
// Usage: TENGEN_BIN=... TENGEN_TEST_DB=postgresql://... node nodes.js
'use strict'

const assert = require('assert')
const net = require('net')
const {spawn} = require('child_process')
const {chromium} = require('playwright-core')

const TENGEN = process.env.TENGEN_BIN
const DB = process.env.TENGEN_TEST_DB
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const T0 = Date.now()
const nodes = []
const pageErrors = []
let browser = null

const log = msg => console.log(`[${((Date.now() - T0) / 1000).toFixed(1)}s] ${msg}`)

function cleanup() {
  for (const n of nodes) if (n.child.exitCode === null) try { n.child.kill('SIGKILL') } catch (e) { /* gone */ }
}
process.on('exit', cleanup)

function fail(msg) {
  console.error(`FAIL ${msg}`)
  if (pageErrors.length) console.error('page errors:\n  ' + pageErrors.join('\n  '))
  for (const n of nodes) console.error(`--- node ${n.base}\n${n.log.slice(-2000)}`)
  cleanup()
  process.exit(1)
}
setTimeout(() => fail('the test took over 90 s'), 90000).unref()

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const {port} = s.address(); s.close(() => resolve(port)) })
  })
}

async function startNode() {
  const listen = `127.0.0.1:${await freePort()}`
  const child = spawn(TENGEN, ['serve', '--listen', listen, '--db', DB], {stdio: ['ignore', 'pipe', 'pipe']})
  const n = {child, base: `http://${listen}`, log: ''}
  const onData = d => { n.log += d.toString() }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const deadline = Date.now() + 15000
  while (!n.log.includes(listen)) {
    if (child.exitCode !== null || Date.now() > deadline) fail(`node ${listen} did not start: ${n.log}`)
    await new Promise(r => setTimeout(r, 50))
  }
  nodes.push(n)
  return n
}

async function step(name, fn) {
  log(name)
  try { return await fn() } catch (e) { fail(`${name}: ${e && e.message ? e.message.split('\n').slice(0, 6).join('\n') : e}`) }
}

async function newPage(base, label) {
  const context = await browser.newContext({viewport: {width: 1100, height: 850}})
  const page = await context.newPage()
  page.setDefaultTimeout(15000)
  page.label = label
  page.on('pageerror', e => pageErrors.push(`${label}: ${e.message}`))
  page.on('console', m => { if (m.type() === 'error') pageErrors.push(`${label} console: ${m.text()}`) })
  await page.goto(base + '/')
  await page.waitForSelector('#conn[data-state="online"]')
  return page
}

async function register(page, name) {
  if (await page.isVisible('#auth-toggle')) await page.click('#auth-toggle')
  await page.fill('#auth-name', name)
  await page.fill('#auth-password', `password-${name}`)
  await page.click('#register')
  await page.waitForFunction(n => {
    const u = document.querySelector('#user-name')
    return u && u.textContent === n
  }, name)
}

async function gameId(page) {
  await page.waitForFunction(() => /^#\/game\/\d+$/.test(location.hash))
  return parseInt((await page.evaluate(() => location.hash)).split('/')[2], 10)
}

async function main() {
  if (!TENGEN || !DB) fail('TENGEN_BIN and TENGEN_TEST_DB must be set')
  const [n1, n2, n3] = [await startNode(), await startNode(), await startNode()]
  browser = await step('launch Chromium', () => chromium.launch({
    executablePath: CHROMIUM, headless: true, timeout: 30000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run']
  }))
  const suffix = (Date.now() % 100000).toString(36)
  const ana = `ana_${suffix}`, bo = `bo_${suffix}`, cy = `cy_${suffix}`
  const A = await step('Black registers on node 1', async () => { const p = await newPage(n1.base, 'A@1'); await register(p, ana); return p })
  const B = await step('White registers on node 2', async () => { const p = await newPage(n2.base, 'B@2'); await register(p, bo); return p })
  const C = await step('a spectator registers on node 3', async () => { const p = await newPage(n3.base, 'C@3'); await register(p, cy); return p })
  const G = await step('a challenge opened on node 1 is accepted on node 2; both pages go to the game', async () => {
    await A.selectOption('#ch-size', '9')
    await A.selectOption('#ch-color', 'black')
    await A.click('#ch-create')
    const accept = `#challenges li[data-challenger="${ana}"] .accept-challenge`
    await B.waitForSelector(accept)
    await B.click(accept)
    const id = await gameId(B)
    assert.strictEqual(await gameId(A), id, 'the two players are in different games')
    return id
  })
  await step('the spectator on node 3 opens the game', async () => {
    await C.goto(`${n3.base}/#/game/${G}`)
    await C.waitForSelector('#board [data-vertex="E5"]', {state: 'attached'})
  })
  const played = []
  const moves = [['black', 'E5', A], ['white', 'C3', B], ['black', 'C4', A], ['white', 'G5', B], ['black', 'D3', A]]
  for (const [colour, move, player] of moves) {
    await step(`${colour} plays ${move} on ${player.label}; all three pages show it`, async () => {
      await player.waitForSelector(`#status[data-phase="play"][data-to-move="${colour}"][data-you="${colour}"]`, {state: 'attached'})
      await player.click(`#board [data-vertex="${move}"]`)
      played.push(`${colour} ${move}`)
      for (const p of [A, B, C]) {
        await p.waitForSelector(`#board [data-stone="${move}"][data-color="${colour}"]`, {state: 'attached'})
        const shown = await p.$$eval('#moves li', lis => lis.map(li => `${li.dataset.color} ${li.dataset.move}`))
        assert.deepStrictEqual(shown.slice(0, played.length), played, `${p.label}'s move list`)
      }
    })
  }
  await step('White resigns on node 2: B+R on every page', async () => {
    await B.click('#resign')
    await B.click('#resign-confirm')
    for (const p of [A, B, C]) await p.waitForSelector('#result[data-result="B+R"]', {state: 'attached'})
  })
  await step('the game was rated: the players\' ranks showed; ana\'s page on node 3 shows her rating and its history', async () => {
    const rank = await A.textContent('#rank-black')
    assert.ok(/\(\d+k\?\)/.test(rank), `Black's rank in the game: "${rank}"`)
    await C.goto(`${n3.base}/#/player/${ana}`)
    await C.waitForSelector('#player-rank')
    const rating = parseFloat(await C.getAttribute('#player-rank', 'data-rating'))
    assert.ok(Math.abs(rating - 1662.3) < 0.1, `ana's rating after one win between new players: ${rating}`)
    assert.strictEqual(await C.$$eval('#rating-chart circle', cs => cs.length), 1)
  })
  if (pageErrors.length) fail('errors in the pages')
  await browser.close()
  for (const n of nodes) n.child.kill('SIGTERM')
  log('PASS')
  process.exit(0)
}

main().catch(e => fail(e && e.stack ? e.stack : String(e)))
