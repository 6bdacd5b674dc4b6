// quickmatch.js — the lobby's Quick match (issue 52) in headless Chromium
// with playwright-core, against a `tengen serve` this script starts on a
// free port with a fresh database and stops at the end:
//
//   1. Two people register; both tick 9×9 and blitz only and press Quick
//      match: the first waits (its card says so), the second's press pairs
//      them, and both pages land in the same game, a 9×9 board with both
//      names, a rated game (their ranks are equal: no handicap).
//   2. A guest's card offers unrated only (the rated box disabled); it
//      seeks, waits, stops looking, and the card is back to its form.
//   3. The card in Chinese.
//
// Usage: node quickmatch.js   (env TENGEN_BIN, TENGEN_SOURCE_DIR; CHROMIUM
// overrides /usr/bin/chromium).  Exits non-zero with a message on failure.
'use strict'

const assert = require('assert')
const fs = require('fs')
const net = require('net')
const os = require('os')
const path = require('path')
const {spawn} = require('child_process')
const {chromium} = require('playwright-core')

const TENGEN = process.env.TENGEN_BIN
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const TOTAL_MS = 90000
const STEP_MS = 15000
const T0 = Date.now()

if (!TENGEN || !process.env.TENGEN_SOURCE_DIR) {
  console.error('quickmatch.js: TENGEN_BIN and TENGEN_SOURCE_DIR must be set')
  process.exit(2)
}

let server = null
let serverLog = ''
let browser = null
let tmpDir = null
const pageErrors = []

function log(msg) { console.log(`[${((Date.now() - T0) / 1000).toFixed(1)}s] ${msg}`) }

function cleanup() {
  if (server && server.exitCode === null) {
    try { server.kill('SIGKILL') } catch (e) { /* gone */ }
  }
  if (tmpDir) {
    try { fs.rmSync(tmpDir, {recursive: true, force: true}) } catch (e) { /* ignore */ }
  }
}
process.on('exit', cleanup)

function fail(msg) {
  console.error(`FAIL ${msg}`)
  if (pageErrors.length) console.error('page errors:\n  ' + pageErrors.slice(-20).join('\n  '))
  if (serverLog) console.error('server output (last lines):\n' + serverLog.split('\n').slice(-40).join('\n'))
  cleanup()
  process.exit(1)
}

setTimeout(() => fail(`the whole test took over ${TOTAL_MS / 1000} s`), TOTAL_MS).unref()

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const {port} = s.address()
      s.close(() => resolve(port))
    })
  })
}

async function startServer() {
  const port = await freePort()
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-quickmatch-'))
  const listen = `127.0.0.1:${port}`
  server = spawn(TENGEN, ['serve', '--listen', listen, '--db', path.join(tmpDir, 't.db')],
    {stdio: ['ignore', 'pipe', 'pipe']})
  const onData = d => { serverLog = (serverLog + d.toString()).slice(-200000) }
  server.stdout.on('data', onData)
  server.stderr.on('data', onData)
  server.on('exit', code => fail(`tengen serve exited (${code}) during the test`))
  const deadline = Date.now() + 15000
  while (!serverLog.includes(listen)) {
    if (Date.now() > deadline) fail(`tengen serve did not print its address ${listen} within 15 s`)
    await new Promise(r => setTimeout(r, 50))
  }
  return `http://${listen}`
}

async function step(name, fn) {
  log(name)
  try {
    return await fn()
  } catch (e) {
    fail(`${name}: ${e && e.message ? e.message.split('\n').slice(0, 8).join('\n') : e}`)
  }
}

async function newPage(base, label) {
  const context = await browser.newContext({viewport: {width: 1100, height: 850}})
  await context.addInitScript(() => { try { localStorage.setItem('tengen.lang', 'en') } catch (e) { /* */ } })
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  page.label = label
  page.on('pageerror', e => pageErrors.push(`${label}: ${e.message}`))
  page.on('console', m => { if (m.type() === 'error') pageErrors.push(`${label} console: ${m.text()}`) })
  await page.goto(base + '/')
  await page.waitForSelector('#conn[data-state="online"]')
  return page
}

async function signIn(page, name) {
  if (await page.isVisible('#auth-toggle')) await page.click('#auth-toggle')
  if (!name) {
    await page.click('#guest')
  } else {
    await page.fill('#auth-name', name)
    await page.fill('#auth-password', 'correct horse battery')
    await page.click('#register')
  }
  await page.waitForFunction(() => {
    const e = document.querySelector('#auth-error')
    if (e && e.textContent) throw new Error(e.textContent)
    return document.querySelector('#user-name')
  })
  await page.waitForSelector('#quickmatch[data-state="idle"]')
}

// Tick 9×9 and blitz only, then press the card's button.
async function seek9x9Blitz(page) {
  for (const n of [19, 13]) await page.uncheck(`#qm-size-${n}`)
  await page.check('#qm-size-9')
  for (const v of ['rapid', 'classical']) await page.uncheck(`#qm-speed-${v}`)
  await page.check('#qm-speed-blitz')
  await page.click('#qm-seek')
}

async function main() {
  const base = await startServer()
  browser = await chromium.launch({executablePath: CHROMIUM, args: ['--no-sandbox']})
  const A = await newPage(base, 'ana'), B = await newPage(base, 'bo'), G = await newPage(base, 'guest')

  await step('two players register', async () => {
    await signIn(A, 'ana')
    await signIn(B, 'bo')
    assert.strictEqual(await A.isChecked('#qm-rated'), true)
  })

  await step('ana presses Quick match and waits', async () => {
    await seek9x9Blitz(A)
    await A.waitForSelector('#quickmatch[data-state="seeking"] #qm-cancel')
    assert.match(await A.textContent('#quickmatch'), /9×9/)
  })

  const game = await step('bo presses Quick match: both land in one game', async () => {
    await seek9x9Blitz(B)
    const ids = []
    for (const p of [A, B]) {
      await p.waitForFunction(() => /^#\/game\/\d+$/.test(location.hash))
      ids.push(parseInt((await p.evaluate(() => location.hash)).split('/')[2], 10))
    }
    assert.strictEqual(ids[0], ids[1])
    return ids[0]
  })

  await step('the game: 9×9, both players, rated, even', async () => {
    for (const p of [A, B]) {
      await p.waitForSelector('#board [data-vertex="J9"]', {state: 'attached'})
      assert.strictEqual(await p.$('#board [data-vertex="K10"]'), null)
    }
    const res = await fetch(`${base}/api/games/${game}`)
    assert.strictEqual(res.status, 200)
    const g = (await res.json()).game || {}
    const names = [g.black && (g.black.name || g.black), g.white && (g.white.name || g.white)].sort()
    assert.deepStrictEqual(names, ['ana', 'bo'])
    assert.strictEqual(g.size, 9)
    assert.strictEqual(g.handicap || 0, 0)
    assert.notStrictEqual(g.rated, false)
  })

  await step('a guest seeks unrated only, waits, and stops looking', async () => {
    await signIn(G, null)
    assert.strictEqual(await G.isDisabled('#qm-rated'), true)
    assert.strictEqual(await G.isChecked('#qm-rated'), false)
    await G.click('#qm-seek')
    await G.waitForSelector('#quickmatch[data-state="seeking"]')
    await G.click('#qm-cancel')
    await G.waitForSelector('#quickmatch[data-state="idle"] #qm-seek')
  })

  await step('the card in Chinese', async () => {
    await G.selectOption('#lang', 'zh')
    await G.waitForFunction(() => /快速配对/.test(document.querySelector('#quickmatch h2').textContent))
  })

  assert.deepStrictEqual(pageErrors, [])
  log('ok')
  await browser.close()
  server.removeAllListeners('exit')
  server.kill('SIGTERM')
  cleanup()
}

main().catch(e => fail(e && e.stack ? e.stack : String(e)))
