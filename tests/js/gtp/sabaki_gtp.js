// sabaki_gtp.js — drives `$TENGEN_BIN gtp` through @sabaki/gtp, the library
// Sabaki itself uses: its Controller spawns the engine, and its
// ControllerStateTracker syncs a board the way Sabaki does (komi, boardsize,
// then the history, pipelined, with undo when the history diverges).
// Plays a short game with genmove, undo and final_score, checks the error
// answers, pipelined commands with ids, a 1 MiB line, SGF files, and quit.
// Exits non-zero (with the failing check) on any failure.
'use strict'

const assert = require('assert/strict')
const fs = require('fs')
const os = require('os')
const path = require('path')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const bin = process.env.TENGEN_BIN
if (!bin) {
  console.error('sabaki_gtp.js: TENGEN_BIN is not set')
  process.exit(2)
}

const VERTEX = /^[A-HJ-Z](1[0-9]|2[0-5]|[1-9])$/
const MOVE = /^([A-HJ-Z](1[0-9]|2[0-5]|[1-9])|PASS|RESIGN)$/i
const SCORE = /^([BW]\+\d+(\.5)?|0)$/

let checks = 0
function check(name, fn) {
  return (async () => {
    await fn()
    checks++
    console.log(`ok ${checks} - ${name}`)
  })().catch(err => {
    err.message = `${name}: ${err.message}`
    throw err
  })
}

async function send(engine, name, ...args) {
  return engine.sendCommand({name, args})
}

async function ok(engine, name, ...args) {
  let res = await send(engine, name, ...args)
  assert.equal(res.error, false, `${name} ${args.join(' ')} answered ? ${res.content}`)
  return res.content
}

async function refused(engine, message, name, ...args) {
  let res = await send(engine, name, ...args)
  assert.equal(res.error, true, `${name} ${args.join(' ')} should fail, got = ${res.content}`)
  if (message != null) assert.equal(res.content, message)
}

async function protocol(engine) {
  assert.equal(await ok(engine, 'protocol_version'), '2')
  assert.equal(await ok(engine, 'name'), 'tengen')
  assert.match(await ok(engine, 'version'), /^\d+\.\d+/)
  let commands = (await ok(engine, 'list_commands')).split('\n')
  for (let c of ['play', 'genmove', 'undo', 'final_score', 'kgs-genmove_cleanup', 'tengen-rules'])
    assert.ok(commands.includes(c), `list_commands lacks ${c}`)
}

async function syncLikeSabaki(engine) {
  let tracker = new ControllerStateTracker(engine)
  let history = [
    {name: 'play', args: ['B', 'E5']},
    {name: 'play', args: ['W', 'C3']},
    {name: 'play', args: ['B', 'G7']},
    {name: 'play', args: ['W', 'C7']}
  ]
  await tracker.sync({komi: 6.5, boardsize: [9, 9], timeSettings: null, history})
  assert.equal(await ok(engine, 'list_stones', 'B'), 'G7 E5')
  assert.equal(await ok(engine, 'list_stones', 'W'), 'C7 C3')
  // a diverging history: Sabaki undoes back to the shared part and replays
  let changed = [...history.slice(0, 3), {name: 'play', args: ['W', 'D4']}]
  await tracker.sync({komi: 6.5, boardsize: [9, 9], timeSettings: null, history: changed})
  assert.equal(await ok(engine, 'list_stones', 'W'), 'D4 C3')
  // a handicap game as Sabaki sends it
  await tracker.sync({
    komi: 0.5,
    boardsize: [9, 9],
    timeSettings: {mainTime: 300, byoyomiTime: 30, byoyomiStones: 5},
    history: [{name: 'set_free_handicap', args: ['C3', 'G7']}, {name: 'play', args: ['W', 'E5']}]
  })
  assert.equal(await ok(engine, 'list_stones', 'B'), 'G7 C3')
  assert.equal(await ok(engine, 'list_stones', 'W'), 'E5')
}

// The first of the candidate vertices where `color` may play now.
async function legalPoint(engine, color, candidates) {
  for (let vertex of candidates) if ((await ok(engine, 'is_legal', color, vertex)) === '1') return vertex
  throw new Error(`none of ${candidates.join(' ')} is legal for ${color}`)
}

async function shortGame(engine) {
  await ok(engine, 'boardsize', '9')
  await ok(engine, 'clear_board')
  await ok(engine, 'komi', '7.5')
  await ok(engine, 'play', 'B', 'E5')
  let reply = await ok(engine, 'genmove', 'W')
  assert.match(reply, MOVE)
  if (VERTEX.test(reply)) assert.ok((await ok(engine, 'list_stones', 'W')).split(' ').includes(reply))
  await ok(engine, 'play', 'B', await legalPoint(engine, 'B', ['C3', 'C4', 'D3', 'D4']))
  let before = await ok(engine, 'list_stones', 'B')
  await ok(engine, 'play', 'B', await legalPoint(engine, 'B', ['G3', 'G4', 'F3', 'F4']))
  await ok(engine, 'undo')
  assert.equal(await ok(engine, 'list_stones', 'B'), before)
  assert.match(await ok(engine, 'reg_genmove', 'W'), MOVE)
  assert.equal(await ok(engine, 'list_stones', 'B'), before)
  for (let i = 0; i < 6; i++) assert.match(await ok(engine, 'genmove', i % 2 ? 'B' : 'W'), MOVE)
  await ok(engine, 'play', 'B', 'pass')
  await ok(engine, 'play', 'W', 'pass')
  let score = await ok(engine, 'final_score')
  assert.match(score, SCORE)
  assert.equal(await ok(engine, 'final_score'), score)
  await ok(engine, 'final_status_list', 'dead')
  assert.match(await ok(engine, 'kgs-genmove_cleanup', 'B'), MOVE)
  let board = await ok(engine, 'showboard')
  assert.match(board, /A B C D E F G H J/)
}

async function errors(engine) {
  await ok(engine, 'boardsize', '19')
  await ok(engine, 'play', 'B', 'D4')
  await refused(engine, 'illegal move', 'play', 'W', 'D4')
  await refused(engine, 'unknown command', 'frobnicate')
  await refused(engine, 'unacceptable size', 'boardsize', '1')
  await refused(engine, 'unacceptable size', 'boardsize', '26')
  await refused(engine, 'invalid color', 'play', 'X', 'D5')
  await refused(engine, 'invalid coordinate', 'play', 'B', 'Z99')
  await refused(engine, 'syntax error', 'play', 'B')
  await refused(engine, 'board not empty', 'fixed_handicap', '2')
  await refused(engine, null, 'komi', '7.25')
  await ok(engine, 'clear_board')
  await refused(engine, 'invalid number of stones', 'fixed_handicap', '10')
  await refused(engine, 'invalid number of stones', 'fixed_handicap', '1')
  await refused(engine, 'cannot undo', 'undo')
  await refused(engine, null, 'loadsgf', path.join(os.tmpdir(), 'tengen-no-such-file.sgf'))
  assert.equal((await ok(engine, 'fixed_handicap', '9')).split(' ').length, 9)
  assert.equal((await ok(engine, 'list_stones', 'B')).split(' ').length, 9)
}

async function pipelined(engine) {
  await ok(engine, 'boardsize', '9')
  await ok(engine, 'clear_board')
  let ids = Array.from({length: 40}, (_, i) => i + 1)
  let answers = await Promise.all(
    ids.map(id =>
      engine.sendCommand({id, name: 'is_legal', args: [id % 2 ? 'B' : 'W', `${'ABCDEFGHJ'[id % 9]}${(id % 9) + 1}`]})
    )
  )
  answers.forEach((res, i) => {
    assert.equal(res.id, ids[i])
    assert.equal(res.error, false)
    assert.equal(res.content, '1')
  })
}

async function longLine(engine) {
  let res = await send(engine, 'known_command', 'x'.repeat(1 << 20))
  assert.equal(res.error, true)
  res = await engine.sendCommand({id: 5, name: 'play', args: ['B', 'A'.repeat(1 << 20)]})
  assert.equal(res.error, true)
  assert.equal(res.id, 5)
  assert.equal(await ok(engine, 'name'), 'tengen')
}

async function sgfFiles(engine) {
  let dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-gtp-'))
  try {
    let game = path.join(dir, 'game.sgf')
    fs.writeFileSync(game, '(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg])')
    await ok(engine, 'loadsgf', game)
    assert.equal(await ok(engine, 'list_stones', 'B'), 'E5 G3')
    await ok(engine, 'loadsgf', game, '2')
    assert.equal(await ok(engine, 'list_stones', 'B'), 'E5')
    fs.writeFileSync(path.join(dir, 'broken.sgf'), '(;GM[1]SZ[9];B[ee')
    await refused(engine, null, 'loadsgf', path.join(dir, 'broken.sgf'))
    fs.writeFileSync(path.join(dir, 'empty.sgf'), '')
    await refused(engine, null, 'loadsgf', path.join(dir, 'empty.sgf'))
    assert.equal(await ok(engine, 'list_stones', 'B'), 'E5')
    let saved = path.join(dir, 'saved.sgf')
    await ok(engine, 'printsgf', saved)
    assert.match(fs.readFileSync(saved, 'utf8'), /^\s*\(;/)
    assert.match(await ok(engine, 'printsgf'), /^\(;/)
  } finally {
    fs.rmSync(dir, {recursive: true, force: true})
  }
}

async function main() {
  let engine = new Controller(bin, ['gtp', '--seed', '7', '--playouts', '300'])
  let stderr = []
  engine.on('stderr', ({content}) => stderr.push(content))
  engine.start()
  let stopped = new Promise(resolve => engine.once('stopped', resolve))
  try {
    await check('protocol commands', () => protocol(engine))
    await check('sync as Sabaki does', () => syncLikeSabaki(engine))
    await check('short game with genmove, undo, final_score', () => shortGame(engine))
    await check('error answers', () => errors(engine))
    await check('pipelined commands with ids', () => pipelined(engine))
    await check('1 MiB lines', () => longLine(engine))
    await check('loadsgf and printsgf', () => sgfFiles(engine))
    await check('quit', async () => {
      await engine.stop(5000)
      let {signal} = await stopped
      assert.equal(signal, 0)
    })
  } finally {
    if (engine.process) await engine.kill()
    if (stderr.length) console.error(stderr.join('\n'))
  }
  console.log(`${checks} passed, 0 failed`)
}

const timer = setTimeout(() => {
  console.error('sabaki_gtp.js: timed out')
  process.exit(1)
}, 120000)
timer.unref()

main().catch(err => {
  console.error(`not ok - ${err.message}`)
  console.log(`${checks} passed, 1 failed`)
  process.exit(1)
})
