// ops.js — what the operator of `tengen serve` does beside it (issue 50):
//
//   node ops.js backup BIN   tengen backup while the server serves and two
//                            players go on moving: the copy is whole
//                            (integrity_check), self-contained, has the
//                            live database's players and games; dated
//                            copies in a folder with --keep; a restore is
//                            refused while the server has the database
//                            open, and once it is stopped the restored
//                            database serves the games again.
//   node ops.js migrate BIN  tengen serve --migrate-only on a new file, and
//                            on a version-1 database (2323faa's schema, no
//                            version written) holding a finished game: it
//                            is migrated, and the server then serves that
//                            game (its record, and the position replayed
//                            for a watcher).
//
// python3's sqlite3 module reads the files.
'use strict'

const assert = require('assert')
const fs = require('fs')
const path = require('path')
const {execFile, spawnSync} = require('child_process')
const {startServer, killServer, tmpDir, get, Client, makeChecker, challengeId} = require('./lib')

const [scenario, BIN] = process.argv.slice(2)
if (!['backup', 'migrate'].includes(scenario) || !BIN) {
  console.error('usage: node ops.js backup|migrate TENGEN_BIN')
  process.exit(2)
}
const dir = tmpDir('tengen-ops-')
const {check, results} = makeChecker(`${scenario}: `)

// ---- helpers --------------------------------------------------------------

// tengen with args, waited for without blocking the event loop (so that
// the players go on meanwhile): {status, stdout, stderr}.
function tengen(args) {
  return new Promise(resolve => {
    execFile(BIN, args, {timeout: 60000}, (e, stdout, stderr) =>
      resolve({status: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr}))
  })
}

// Rows of one SQL statement on a database file, through python3's sqlite3.
function sql(file, statement) {
  const script = 'import json, sqlite3, sys\n' +
    'c = sqlite3.connect(sys.argv[1])\n' +
    'print(json.dumps(c.execute(sys.argv[2]).fetchall()))\n'
  const r = spawnSync('python3', ['-c', script, file, statement], {encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`sqlite3 ${file}: ${statement}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}
function sqlScript(file, script) {
  const py = 'import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.close()\n'
  const r = spawnSync('python3', ['-c', py, file, script], {encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`sqlite3 ${file}: ${r.stderr}`)
}
const counts = file => sql(file, 'SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM games),' +
  ' (SELECT count(*) FROM events)')[0]

// A guest, each on its own loopback address (the server's limits are per address).
let nextAddress = 10
async function guest(server) {
  const c = await Client.open(server.url, {localAddress: `127.0.0.${nextAddress++}`})
  c.user = (await c.ok('guest')).user
  return c
}

function waitState(c, game, pred = () => true, ms = 5000) {
  return c.waitFor(m => m.type === 'game.state' && m.game && m.game.id === game && pred(m.game), ms,
    `game.state of game ${game}`)
}

// A 9x9 game between two guests, both watching; black moves first.
async function newGame(black, white) {
  const a = await black.ok('challenge.create', {settings: {size: 9, color: 'black'}, opponent: white.user.name})
  const game = (await white.ok('challenge.accept', {challenge: challengeId(a)})).game
  await black.ok('game.watch', {game})
  await white.ok('game.watch', {game})
  return game
}

// Moves that capture nothing: Black along the first line, White along the
// ninth, far apart.
const COLS = 'ABCDEFGHJ'
const moveOf = (n) => (n % 2 === 0 ? COLS[n / 2] + '1' : COLS[(n - 1) / 2] + '9')
async function play(black, white, game, from, to) {
  for (let n = from; n < to; n++) await (n % 2 === 0 ? black : white).ok('game.move', {game, move: moveOf(n)})
}

// A finished game: four moves, then White resigns.
async function finishedGame(server) {
  const black = await guest(server), white = await guest(server)
  const game = await newGame(black, white)
  await play(black, white, game, 0, 4)
  await white.ok('game.resign', {game})
  await waitState(black, game, g => g.phase === 'over')
  return {game, black, white}
}

// ---- backup -------------------------------------------------------------------

async function backup() {
  const db = path.join(dir, 'live.db'), copy = path.join(dir, 'copy.db')
  let server = await startServer(BIN, {db})
  const finished = await finishedGame(server)
  const black = await guest(server), white = await guest(server)
  const live = await newGame(black, white)
  await play(black, white, live, 0, 2)
  const before = counts(db)

  await check('tengen backup while the players move: exit 0, integrity ok, schema version 4', async () => {
    const moving = play(black, white, live, 2, 14)
    const r = await tengen(['backup', '--db', db, copy])
    await moving
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /integrity ok/)
    assert.match(r.stdout, /schema version 4/)
  })

  await check('the copy opens, passes integrity_check, is one file (no WAL) and holds the live players and games', async () => {
    assert.deepStrictEqual(sql(copy, 'PRAGMA integrity_check'), [['ok']])
    assert.deepStrictEqual(sql(copy, 'PRAGMA journal_mode'), [['delete']])
    assert.ok(!fs.existsSync(copy + '-wal'), 'a -wal beside the copy')
    const [users, games, events] = counts(copy), after = counts(db)
    assert.deepStrictEqual([users, games], after.slice(0, 2), `copy ${users} users ${games} games, live ${after}`)
    assert.ok(events >= before[2] && events <= after[2], `copy ${events} events, live ${before[2]} then ${after[2]}`)
    // a snapshot: the live game's events are a prefix without a gap
    const seqs = sql(copy, `SELECT seq FROM events WHERE game_id = ${live} ORDER BY seq`).map(r => r[0])
    seqs.forEach((s, i) => assert.strictEqual(s, seqs[0] + i, `events of game ${live}: ${seqs}`))
    assert.deepStrictEqual(sql(copy, `SELECT result FROM games WHERE id = ${finished.game}`), [['B+R']])
  })

  await check('tengen serve --backup FILE while the server runs: the same copy, by the serve command', async () => {
    const other = path.join(dir, 'serve-copy.db')
    const r = await tengen(['serve', '--db', db, '--backup', other])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /integrity ok/)
    assert.deepStrictEqual(sql(other, 'PRAGMA integrity_check'), [['ok']])
    assert.deepStrictEqual(counts(other).slice(0, 2), counts(db).slice(0, 2))
  })

  await check('into a folder: a dated copy, and --keep 2 leaves the two newest', async () => {
    const folder = path.join(dir, 'copies')
    fs.mkdirSync(folder)
    for (const old of ['tengen-20200101-000000.db', 'tengen-20200102-000000.db', 'notes.txt'])
      fs.copyFileSync(copy, path.join(folder, old))
    const r = await tengen(['backup', '--db', db, '--keep', '2', folder])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    const names = fs.readdirSync(folder).sort()
    assert.strictEqual(names.length, 3, `left: ${names}`)
    assert.deepStrictEqual(names.slice(0, 2), ['notes.txt', 'tengen-20200102-000000.db'])
    assert.match(names[2], /^tengen-\d{8}-\d{6}\.db$/)
    assert.ok(r.stdout.includes(names[2]), r.stdout)
  })

  await check('a restore onto the database the server has open is refused, and changes nothing', async () => {
    const was = counts(db)
    const r = await tengen(['backup', '--restore', copy, '--db', db])
    assert.strictEqual(r.status, 1, `exit ${r.status}: ${r.stdout}${r.stderr}`)
    assert.match(r.stderr, /has it open.*stop tengen serve first/)
    assert.deepStrictEqual(counts(db), was)
    assert.strictEqual((await get(server, '/api/games')).status, 200)
  })

  await check('a file that is not a copy is refused', async () => {
    const junk = path.join(dir, 'junk.db')
    fs.writeFileSync(junk, 'not a database\n'.repeat(100))
    const r = await tengen(['backup', '--restore', junk, '--db', path.join(dir, 'other.db')])
    assert.strictEqual(r.status, 1, `exit ${r.status}`)
    assert.match(r.stderr, /junk\.db: /)
    assert.ok(!fs.existsSync(path.join(dir, 'other.db')), 'a database was made from junk')
  })

  await check('with the server stopped the restore is made, the replaced database kept, and the games served again', async () => {
    for (const c of [finished.black, finished.white, black, white]) c.terminate()
    await killServer(server, 'SIGTERM')
    sqlScript(db, `DELETE FROM events WHERE game_id = ${finished.game}; UPDATE games SET result = 'lost' WHERE id = ${finished.game}`)
    const r = await tengen(['backup', '--restore', copy, '--db', db])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /kept the database replaced as .*before-restore-\d{8}-\d{6}/)
    const kept = fs.readdirSync(dir).filter(n => n.startsWith('live.db.before-restore-'))
    assert.strictEqual(kept.length, 1, `${fs.readdirSync(dir)}`)
    assert.deepStrictEqual(sql(path.join(dir, kept[0]), `SELECT result FROM games WHERE id = ${finished.game}`), [['lost']])
    assert.deepStrictEqual(counts(db), counts(copy))
    server = await startServer(BIN, {db})
    const list = (await get(server, '/api/games')).json.games
    const g = list.find(x => x.id === finished.game)
    assert.ok(g && g.result === 'B+R', `game ${finished.game} in ${JSON.stringify(list)}`)
    assert.ok(list.find(x => x.id === live), `the live game ${live} in ${JSON.stringify(list)}`)
    const sgf = await get(server, `/api/games/${finished.game}/sgf`)
    assert.strictEqual(sgf.status, 200)
    assert.match(sgf.body, /RE\[B\+R\]/)
    await killServer(server, 'SIGTERM')
  })
}

// ---- migrate ------------------------------------------------------------------

// The schema of 2323faa (and before): no state column, no challenges,
// no version written (user_version 0).
const SCHEMA_1 = `
CREATE TABLE users(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL, guest INTEGER NOT NULL, created INTEGER NOT NULL);
CREATE TABLE tokens(hash BLOB PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
  created INTEGER NOT NULL);
CREATE TABLE games(id INTEGER PRIMARY KEY AUTOINCREMENT, black INTEGER NOT NULL,
  white INTEGER NOT NULL, black_name TEXT NOT NULL, white_name TEXT NOT NULL,
  black_engine TEXT NOT NULL, white_engine TEXT NOT NULL, nigiri TEXT NOT NULL,
  settings TEXT NOT NULL, created INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
  result TEXT NOT NULL DEFAULT '', sgf TEXT, moves INTEGER NOT NULL DEFAULT 0);
CREATE INDEX games_black ON games(black);
CREATE INDEX games_white ON games(white);
CREATE TABLE events(game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
  at_ms INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY(game_id, seq));
`

async function migrate() {
  const fresh = path.join(dir, 'new.db')
  await check('--migrate-only on a new file creates it and prints schema version 4', async () => {
    let r = await tengen(['serve', '--db', fresh, '--migrate-only'])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /schema version 4 \(created\)/)
    assert.deepStrictEqual(sql(fresh, 'PRAGMA user_version'), [[4]])
    r = await tengen(['serve', '--db', fresh, '--migrate-only'])
    assert.match(r.stdout, /schema version 4 \(up to date\)/)
  })

  await check('--migrate-only on a file it cannot use: exit 1 with the reason', async () => {
    const junk = path.join(dir, 'junk.db')
    fs.writeFileSync(junk, 'not a database\n'.repeat(100))
    const r = await tengen(['serve', '--db', junk, '--migrate-only'])
    assert.strictEqual(r.status, 1)
    assert.match(r.stderr, /junk\.db: .+/)
  })

  // a finished game played on today's server, its rows put in a file of
  // version 1 made by hand
  const today = path.join(dir, 'today.db'), old = path.join(dir, 'old.db')
  let server = await startServer(BIN, {db: today})
  const {game, black, white} = await finishedGame(server)
  black.terminate()
  white.terminate()
  await killServer(server, 'SIGTERM')
  sqlScript(old, SCHEMA_1 + `
ATTACH '${today}' AS today;
INSERT INTO users SELECT id, name, password_hash, guest, created FROM today.users;
INSERT INTO games SELECT id, black, white, black_name, white_name, black_engine, white_engine,
  nigiri, settings, created, finished, result, sgf, moves FROM today.games;
INSERT INTO events SELECT * FROM today.events;
`)

  await check('--migrate-only on a version-3 database: migrated from 3 to 4 (the documents\' tables)', async () => {
    const three = path.join(dir, 'three.db')
    fs.copyFileSync(today, three)
    sqlScript(three, 'DROP TABLE docs; DROP TABLE doc_ids; PRAGMA user_version = 3;')
    const r = await tengen(['serve', '--db', three, '--migrate-only'])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /schema version 4 \(migrated from 3\)/)
    assert.deepStrictEqual(sql(three, "SELECT count(*) FROM sqlite_master WHERE name IN ('docs', 'doc_ids')"), [[2]])
    assert.deepStrictEqual(sql(three, 'PRAGMA integrity_check'), [['ok']])
  })

  await check('--migrate-only on a version-2 database: migrated from 2 to 4 (the ratings\' and documents\' tables)', async () => {
    const two = path.join(dir, 'two.db')
    fs.copyFileSync(today, two)
    sqlScript(two, 'DROP TABLE rating_history; DROP TABLE ratings; DROP TABLE docs; DROP TABLE doc_ids; PRAGMA user_version = 2;')
    const r = await tengen(['serve', '--db', two, '--migrate-only'])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /schema version 4 \(migrated from 2\)/)
    assert.deepStrictEqual(sql(two, "SELECT count(*) FROM sqlite_master WHERE name IN ('ratings', 'rating_history', 'docs', 'doc_ids')"), [[4]])
    assert.deepStrictEqual(sql(two, 'PRAGMA integrity_check'), [['ok']])
  })

  await check('--migrate-only on a version-1 database: migrated from 1 to 4', async () => {
    assert.deepStrictEqual(sql(old, 'PRAGMA user_version'), [[0]])
    const r = await tengen(['serve', '--db', old, '--migrate-only'])
    assert.strictEqual(r.status, 0, `exit ${r.status}: ${r.stderr}`)
    assert.match(r.stdout, /schema version 4 \(migrated from 1\)/)
    assert.deepStrictEqual(sql(old, 'PRAGMA user_version'), [[4]])
    assert.ok(sql(old, 'PRAGMA table_info(games)').some(c => c[1] === 'state'), 'no state column')
    assert.deepStrictEqual(sql(old, 'PRAGMA integrity_check'), [['ok']])
  })

  await check('the server then starts on it and serves the old finished game', async () => {
    server = await startServer(BIN, {db: old})
    const list = (await get(server, '/api/games')).json.games
    const g = list.find(x => x.id === game)
    assert.ok(g && g.result === 'B+R' && g.moves === 4, `game ${game} in ${JSON.stringify(list)}`)
    const sgf = await get(server, `/api/games/${game}/sgf`)
    assert.strictEqual(sgf.status, 200)
    assert.match(sgf.body, /RE\[B\+R\]/)
    const watcher = await guest(server)
    await watcher.ok('game.watch', {game})
    const st = (await waitState(watcher, game)).game
    assert.strictEqual(st.phase, 'over')
    assert.strictEqual(st.result, 'B+R')
    assert.deepStrictEqual(st.moves.map(m => m.move), [0, 1, 2, 3].map(moveOf))
    watcher.terminate()
    await killServer(server, 'SIGTERM')
  })
}

async function main() {
  try {
    await (scenario === 'backup' ? backup() : migrate())
  } catch (e) {
    results.failed++
    console.log(`FAIL ${scenario}: ${e && e.stack || e}`)
  }
  fs.rmSync(dir, {recursive: true, force: true})
  console.log(`${results.passed} passed, ${results.failed} failed`)
  process.exit(results.failed ? 1 : 0)
}
main()
