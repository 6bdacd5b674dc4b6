// check.js — tengen's SGF writer checked against @sabaki/sgf, the parser
// Sabaki uses.  For every well-formed file in tests/data/sgf and for a few
// hundred random trees full of characters that need escaping:
//   1. `tengen sgf normalize` output parses with @sabaki/sgf to the same
//      tree as the input does;
//   2. normalising that output again gives the same bytes (tengen's reader
//      and writer round-trip).
// `tengen sgf check` passes those files, and fails each broken file in
// tests/data/sgf/bad with FILE:LINE:COL: message.  Usage: node check.js TENGEN_BIN SOURCE_DIR
'use strict'

const assert = require('assert')
const fs = require('fs')
const path = require('path')
const {execFileSync, spawnSync} = require('child_process')
const sgf = require('@sabaki/sgf')

const [tengen, sourceDir] = process.argv.slice(2)
if (!tengen || !sourceDir) {
  console.error('usage: node check.js TENGEN_BIN SOURCE_DIR')
  process.exit(2)
}
const dataDir = path.join(sourceDir, 'tests', 'data', 'sgf')

let passed = 0
let failed = 0

function check(name, fn) {
  try {
    fn()
    passed++
  } catch (e) {
    failed++
    console.error(`FAIL ${name}: ${e.message.split('\n').slice(0, 20).join('\n')}`)
  }
}

function normalize(text) {
  return execFileSync(tengen, ['sgf', 'normalize', '-'], {
    input: text,
    maxBuffer: 1 << 28
  }).toString('utf8')
}

// The tree as plain data, without Sabaki's ids (iterative: trees may be deep).
function shape(roots) {
  const top = {children: []}
  const stack = roots.map(node => [node, top])
  stack.reverse()
  while (stack.length) {
    const [node, parent] = stack.pop()
    const copy = {data: node.data, children: []}
    parent.children.push(copy)
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i], copy])
  }
  return top.children
}

function checkRoundTrip(name, input, expected) {
  check(name, () => {
    const once = normalize(input)
    const want = expected || shape(sgf.parse(input))
    assert.deepStrictEqual(shape(sgf.parse(once)), want, 'sabaki reads a different tree')
    assert.strictEqual(normalize(once), once, "tengen's output does not round-trip")
  })
}

// ---- files -------------------------------------------------------------

for (const file of fs.readdirSync(dataDir).filter(f => f.endsWith('.sgf')).sort()) {
  checkRoundTrip(file, fs.readFileSync(path.join(dataDir, file), 'utf8'))
  check(`check ${file}`, () => {
    const run = spawnSync(tengen, ['sgf', 'check', '-q', path.join(dataDir, file)])
    assert.strictEqual(run.status, 0, run.stderr.toString())
  })
}

for (const file of fs.readdirSync(path.join(dataDir, 'bad')).filter(f => f.endsWith('.sgf')).sort()) {
  check(`bad/${file}`, () => {
    const full = path.join(dataDir, 'bad', file)
    const run = spawnSync(tengen, ['sgf', 'check', full])
    assert.strictEqual(run.status, 1, 'tengen sgf check should exit 1')
    const message = run.stderr.toString()
    assert.ok(message.startsWith(`${full}:`) && /^[^\n]*:\d+:\d+: \S/.test(message),
              `not FILE:LINE:COL: message: ${message}`)
  })
}

// ---- random trees --------------------------------------------------------

let seed = 20240229
function random() {
  // xorshift32: deterministic across runs
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 4294967296
}
const pick = items => items[Math.floor(random() * items.length)]

const ids = ['B', 'W', 'C', 'N', 'AB', 'AW', 'LB', 'GN', 'PB', 'KM', 'XX', 'TENGEN']
const pieces = ['a', 'b', 'pd', ']', '\\', '[', '(', ')', ';', ':', ' ', '\n', '\t', '\\]',
                '\\\n', 'ü', '中文', 'é', '[]', ']]', '\\\\', '', 'text']

function randomValue() {
  let value = ''
  const n = Math.floor(random() * 6)
  for (let i = 0; i < n; i++) value += pick(pieces)
  return value
}

function randomNode() {
  const data = {}
  const n = Math.floor(random() * 4)
  for (let i = 0; i < n; i++) {
    const values = []
    const count = 1 + Math.floor(random() * 3)
    for (let j = 0; j < count; j++) values.push(randomValue())
    data[pick(ids)] = values
  }
  return {data, children: []}
}

// A random tree of at most `budget` nodes, built without recursion.
function randomTree(budget) {
  const root = randomNode()
  const open = [root]
  let nodes = 1
  while (open.length && nodes < budget) {
    const node = open.splice(Math.floor(random() * open.length), 1)[0]
    const children = random() < 0.7 ? 1 : Math.floor(random() * 4)
    for (let i = 0; i < children && nodes < budget; i++, nodes++) {
      const child = randomNode()
      node.children.push(child)
      open.push(child)
    }
  }
  return root
}

for (let i = 0; i < 300; i++) {
  const roots = []
  const games = 1 + Math.floor(random() * 3)
  for (let g = 0; g < games; g++) roots.push(randomTree(1 + Math.floor(random() * 40)))
  const text = sgf.stringify(roots)
  checkRoundTrip(`random tree ${i}`, text, shape(roots))
}

// Variations nested 500 deep (as deep as Sabaki's recursive parser goes comfortably).
{
  let text = ''
  for (let i = 0; i < 500; i++) text += `(;B[${'abcdefghijklmnopqrs'[i % 19]}a]C[depth ${i}]`
  text += ')'.repeat(500)
  checkRoundTrip('500 nested variations', text)
}

console.log(`${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
