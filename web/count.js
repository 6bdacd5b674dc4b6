// count.js — the count as a Go player reads it: each side's terms as the
// ruleset counts them (area: stones + territory + half the dame; territory:
// territory + prisoners), komi and handicap compensation, and the result in
// points and, under area counting, in stones against half the board.
//
// During stone removal the page counts a dead list itself (a display only:
// the server counts the agreed list when both accept); a finished game's
// terms are the server's `count`, its territory the points the server sent.

import {t, getLang} from './i18n.js'
import {parseVertex} from './board.js'

// The options of a `rules_text` ("ko=positional suicide=no scoring=area …").
export function ruleOptions(rulesText) {
  const o = {}
  for (const w of String(rulesText || '').split(/\s+/)) {
    const k = w.indexOf('=')
    if (k > 0) o[w.slice(0, k)] = w.slice(k + 1)
  }
  return o
}

function neighbours(size, i) {
  const r = Math.floor(i / size), c = i % size, out = []
  if (r > 0) out.push(i - size)
  if (r < size - 1) out.push(i + size)
  if (c > 0) out.push(i - 1)
  if (c < size - 1) out.push(i + 1)
  return out
}

// Who owns each point once the dead stones are off: owner[i] is 1 (Black's
// territory), 2 (White's), 3 (dame: an empty region touching both colours
// or none) or 0 (a live stone).  Seki is not told apart from dame here.
export function territoryMap(size, board, dead) {
  const live = board.map((s, i) => (dead.has(i) ? 0 : s))
  const owner = new Array(size * size).fill(0)
  const seen = new Uint8Array(size * size)
  for (let i = 0; i < size * size; i++) {
    if (live[i] || seen[i]) continue
    const region = [i]
    let touches = 0
    seen[i] = 1
    for (let k = 0; k < region.length; k++) {
      for (const n of neighbours(size, region[k])) {
        if (live[n]) touches |= live[n]
        else if (!seen[n]) { seen[n] = 1; region.push(n) }
      }
    }
    const who = touches === 1 || touches === 2 ? touches : 3
    for (const p of region) owner[p] = who
  }
  return owner
}

export function deadIndices(size, list) {
  const s = new Set()
  for (const v of list || []) {
    const p = parseVertex(size, v)
    if (p) s.add(p[1] * size + p[0])
  }
  return s
}

// The handicap compensation White gets under area counting (C12).
function handicapPoints(opts, handicap) {
  if (opts.scoring === 'territory' || !handicap) return 0
  if (opts.handicap === 'N-1') return Math.max(0, handicap - 1)
  if (opts.handicap === '0') return 0
  return handicap
}

// The count of a position with a dead list, as the page works it out:
// {scoring, black: {stones, territory, captured, dead, points}, white, dame,
// komi, handicap_points, owner}.
export function countPosition(g, board, deadList) {
  const size = g.size
  const opts = ruleOptions(g.rules_text)
  const dead = deadIndices(size, deadList)
  const owner = territoryMap(size, board, dead)
  const side = () => ({stones: 0, territory: 0, captured: 0, dead: 0, points: 0})
  const c = {scoring: opts.scoring === 'territory' ? 'territory' : 'area', black: side(), white: side(), dame: 0,
    komi: Number(g.komi) || 0, handicap_points: handicapPoints(opts, g.handicap), owner, estimated: true}
  for (let i = 0; i < size * size; i++) {
    const s = board[i]
    if (s && dead.has(i)) c[s === 1 ? 'white' : 'black'].dead++
    else if (s) c[s === 1 ? 'black' : 'white'].stones++
    if (owner[i] === 1) c.black.territory++
    else if (owner[i] === 2) c.white.territory++
    else if (owner[i] === 3) c.dame++
  }
  const caps = g.captures || {}
  for (const k of ['black', 'white']) {
    const s = c[k]
    s.captured = caps[k] || 0
    s.points = c.scoring === 'area' ? s.stones + s.territory + c.dame / 2 : s.territory + s.captured + s.dead
  }
  return c
}

// The server's count of a finished game in the same shape.
export function countFromServer(g) {
  const k = g.count, opts = ruleOptions(g.rules_text)
  const c = {scoring: opts.scoring === 'territory' ? 'territory' : 'area', dame: k.dame || 0,
    komi: k.komi, handicap_points: k.handicap_points || 0, owner: null, estimated: false}
  const dead = deadIndices(g.size, g.dead)
  const board = g.board || ''
  for (const side of ['black', 'white']) {
    const s = k[side]
    let deadTaken = 0
    for (const i of dead) if (board[i] === (side === 'black' ? 'O' : 'X')) deadTaken++
    c[side] = {stones: s.stones, territory: s.territory, captured: Math.max(0, s.prisoners - deadTaken),
      dead: Math.min(deadTaken, s.prisoners), points: s.points}
  }
  c.owner = new Array(g.size * g.size).fill(0)
  for (const [side, v] of [['black', 1], ['white', 2]]) {
    for (const p of deadIndices(g.size, k[side].territory_points)) c.owner[p] = v
  }
  return c
}

// ¼ ½ ¾ for a number of stones
export function fraction(x) {
  const neg = x < 0
  x = Math.abs(x)
  const whole = Math.floor(x + 1e-9), part = Math.round((x - whole) * 4)
  const f = ['', '¼', '½', '¾'][part] || ''
  return (neg ? '−' : '') + (whole || !f ? String(whole) : '') + f
}

const num = x => (Number.isInteger(x) ? String(x) : String(x).replace(/^-/, '−'))

// The count in lines of words: one per side, the difference, the result.
// Every line adds up: the terms of a side make its points; points minus
// the other side's, komi and compensation make the difference.
export function countLines(c, size) {
  const zh = getLang() === 'zh'
  const unit = c.scoring === 'area' ? t('area_unit') : t('territory_unit')
  const lines = []
  for (const side of ['black', 'white']) {
    const s = c[side]
    const terms = []
    let sum = 0
    const term = (n, key, extra) => { terms.push(`${num(n)} ${t(key, extra)}`); sum += n }
    if (c.scoring === 'area') {
      term(s.stones, 'term_stones')
      term(s.territory, 'term_territory')
      if (c.dame) term(c.dame / 2, 'term_dame', {n: c.dame})
    } else {
      term(s.territory, 'term_territory')
      term(s.captured, 'term_captured')
      term(s.dead, 'term_dead')
    }
    const rest = s.points - sum
    if (Math.abs(rest) > 1e-9) { terms.push(`${rest < 0 ? '− ' + num(-rest) : num(rest)} ${t('term_other')}`) }
    lines.push({id: `count-${side}`, side, points: s.points,
      text: `${t(side)} ${num(s.points)}${zh ? unit : ''} = ${terms.join(' + ').replace(/\+ −/g, '−')}`})
  }
  const diff = c.black.points - c.white.points - c.komi - c.handicap_points
  let d = `${t('black')} ${num(c.black.points)} − ${t('white')} ${num(c.white.points)} − ${t('komi')} ${num(c.komi)}`
  if (c.handicap_points) d += ` − ${t('term_handicap')} ${num(c.handicap_points)}`
  d += ` = ${num(diff)}`
  lines.push({id: 'count-diff', text: d, diff})
  const winner = diff > 0 ? 'black' : diff < 0 ? 'white' : null
  const pts = Math.abs(diff)
  let result = winner ? `${winner === 'black' ? 'B' : 'W'}+${num(pts)}` : t('jigo')
  if (winner) {
    result += ' — ' + t(c.scoring === 'area' ? 'wins_by_stones' : 'wins_by_points',
      {colour: t(winner), n: c.scoring === 'area' ? fraction(pts / 2) : num(pts)})
  }
  lines.push({id: 'count-result', text: result, diff})
  // Area counting in stones: Black's count against half the board plus
  // half the komi and compensation (180½ + 3¾ = 184¼ on 19×19).
  const all = size * size
  if (c.scoring === 'area' && Math.abs(c.black.points + c.white.points - all) < 1e-9) {
    const need = (all + c.komi + c.handicap_points) / 2
    lines.push({id: 'count-stones', text: t('stones_against', {b: fraction(c.black.points), half: fraction(all / 2),
      k: fraction((c.komi + c.handicap_points) / 2), need: fraction(need)})})
  }
  return lines
}

// ------------------------------------------------------------ words

// A rules setting ("chinese", "japanese ko=simple") by name.
export function rulesName(rules) {
  const words = String(rules || 'chinese').split(/\s+/)
  const preset = words[0] || 'chinese'
  const key = 'preset_' + preset
  let name = t(key)
  if (name === key) name = preset
  const extra = words.slice(1).join(' ')
  return t('rules_named', {name}) + (extra ? ` (${extra})` : '')
}

// One rule option in words, where the page knows it.
export function optionWords(k, v) {
  const key = `opt_${k}_${v}`
  const w = t(key)
  return w === key ? `${k} = ${v}` : w
}

function duration(sec) {
  const zh = getLang() === 'zh'
  sec = Number(sec) || 0
  const m = Math.floor(sec / 60), s = Math.round(sec % 60)
  const parts = []
  if (m) parts.push(zh ? `${m}分钟` : `${m} min`)
  if (s || !m) parts.push(zh ? `${s}秒` : `${s} s`)
  return parts.join(zh ? '' : ' ')
}

// A --time SPEC in words: "10 min + 5×30 s byo-yomi".
export function timeWords(spec) {
  const s0 = String(spec || 'none').trim()
  const pass = s0.endsWith(',pass')
  const s = pass ? s0.slice(0, -5) : s0
  const [sys, arg = ''] = s.split(':')
  let m, w
  if (sys === 'absolute') w = t('time_absolute', {main: duration(arg)})
  else if (sys === 'simple') w = t('time_simple', {period: duration(arg)})
  else if (sys === 'byoyomi' && (m = /^([\d.]+)\+(\d+)x([\d.]+)$/.exec(arg))) {
    w = t('time_byoyomi', {main: duration(m[1]), n: m[2], period: duration(m[3])})
  } else if ((sys === 'canadian' || sys === 'periods') && (m = /^([\d.]+)\+(\d+)\/([\d.]+)$/.exec(arg))) {
    w = t('time_' + sys, {main: duration(m[1]), n: m[2], period: duration(m[3])})
  } else if (sys === 'fischer' && (m = /^([\d.]+)\+([\d.]+)(?:max([\d.]+))?$/.exec(arg))) {
    w = t('time_fischer', {main: duration(m[1]), inc: duration(m[2])}) + (m[3] ? ' ' + t('time_cap', {cap: duration(m[3])}) : '')
  } else w = t('time_none')
  return pass ? `${w} ${t('time_pass')}` : w
}

