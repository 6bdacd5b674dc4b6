// analysis.js — analysis with the engine (issue 51): a finished game
// (#/analysis/game/ID) or an uploaded SGF (#/analysis, then
// #/analysis/sgf/ID) analysed by the server position by position.  The
// board shows the engine's best candidates with their visits and win rates,
// the principal variation of the one under the pointer and the ownership
// map; under it a graph of Black's win rate and score lead, one point a
// position, the largest drops marked as mistakes.  Progress is shown while
// the server works (analysis.progress, analysis.done, analysis.error).
//
// The document read from /api/analysis/KIND/ID is docs/protocol.md's
// "Analysis": positions[k] is the position after k moves.

import {el, svg, clear, replace, $} from './dom.js'
import {t, STRINGS, colourName} from './i18n.js'
import {drawBoard, parseVertex, replay} from './board.js'

Object.assign(STRINGS.en, {
  an_title: 'Analysis with the engine',
  an_of_game: 'Game {id}',
  an_of_sgf: 'Uploaded record {id}',
  an_upload: 'Analyse an SGF record',
  an_upload_hint: 'Any game record (SGF, at most 128 KiB and 600 moves); the server analyses every position with its engine.',
  an_file: 'SGF file',
  an_paste: 'or paste the record',
  an_send: 'Analyse',
  an_too_large: 'The record is over 128 KiB: it is not analysed.',
  an_queued: 'Waiting for the engine…',
  an_running: 'Analysing: {done} of {total} positions',
  an_done: 'Analysed: {total} positions, {playouts} playouts each',
  an_failed: 'The analysis failed: {message}',
  an_not_found: 'Not analysed, and nothing to analyse here.',
  an_graph: 'Black\'s win rate (line) and score lead (bars), one point a position',
  an_mistakes: 'Largest drops',
  an_mistake: 'move {n} ({colour}): −{drop}%',
  an_no_mistakes: 'No drop of 10% or more.',
  an_move: 'Move {n} of {total}',
  an_start: 'Start',
  an_prev: 'Previous',
  an_next: 'Next',
  an_end: 'End',
  an_candidates: 'The engine\'s candidates ({colour} to play)',
  an_cand_move: 'Move', an_cand_visits: 'Visits', an_cand_winrate: 'Win rate', an_cand_lead: 'Lead',
  an_ownership: 'Ownership map',
  an_winrate_now: 'Black {winrate}%, lead {lead}',
  an_pv_hint: 'Point at a candidate to see the engine\'s line.',
  analyse_game: 'Analyse with the engine',
  live_title: 'The engine\'s view',
  live_allow: 'Let spectators see the engine\'s view of this game',
  live_allow_hint: 'Spectators see it only when both players allow it; you never see it during your game.',
  live_not_allowed: 'The players have not allowed spectators the engine\'s view.',
  live_show: 'Show the engine\'s view',
  live_hide: 'Hide the engine\'s view',
  live_waiting: 'The engine is looking at move {n}…',
  live_at: 'After move {n}: Black {winrate}%, lead {lead}',
  an_nav: 'Analysis'
})
Object.assign(STRINGS.zh, {
  an_title: '引擎分析',
  an_of_game: '对局 {id}',
  an_of_sgf: '上传的棋谱 {id}',
  an_upload: '分析 SGF 棋谱',
  an_upload_hint: '任何棋谱（SGF，最多 128 KiB、600 手）；服务器用引擎分析每一个局面。',
  an_file: 'SGF 文件',
  an_paste: '或粘贴棋谱',
  an_send: '分析',
  an_too_large: '棋谱超过 128 KiB，不予分析。',
  an_queued: '等待引擎…',
  an_running: '分析中：{done} / {total} 个局面',
  an_done: '已分析：{total} 个局面，每个 {playouts} 次模拟',
  an_failed: '分析失败：{message}',
  an_not_found: '尚未分析，也无可分析的内容。',
  an_graph: '黑方胜率（曲线）与目差（柱），每个局面一点',
  an_mistakes: '最大的失误',
  an_mistake: '第 {n} 手（{colour}）：−{drop}%',
  an_no_mistakes: '没有 10% 以上的下降。',
  an_move: '第 {n} 手 / 共 {total} 手',
  an_start: '开始',
  an_prev: '上一手',
  an_next: '下一手',
  an_end: '最后',
  an_candidates: '引擎的候选着（{colour}走）',
  an_cand_move: '着点', an_cand_visits: '访问', an_cand_winrate: '胜率', an_cand_lead: '目差',
  an_ownership: '形势图',
  an_winrate_now: '黑方 {winrate}%，领先 {lead}',
  an_pv_hint: '指向候选着可看引擎的变化。',
  analyse_game: '引擎分析',
  live_title: '引擎视角',
  live_allow: '允许观众看本局的引擎分析',
  live_allow_hint: '双方都允许时观众才能看到；对局中你自己始终看不到。',
  live_not_allowed: '对局双方未允许观众看引擎分析。',
  live_show: '显示引擎分析',
  live_hide: '隐藏引擎分析',
  live_waiting: '引擎正在看第 {n} 手…',
  live_at: '第 {n} 手后：黑方 {winrate}%，领先 {lead}',
  an_nav: '分析'
})

const CHUNK = 2000          // characters of SGF a message (a message is at most 8 KiB)
const SGF_MAX = 128 * 1024
const MISTAKES = 3          // drops marked
const MISTAKE_MIN = 0.1     // of the mover's win rate
const POLL_MS = 1000

let current = null          // the AnalysisView on screen

function stylesheet() {
  if ($('#analysis-css')) return
  document.head.appendChild(el('link', {id: 'analysis-css', rel: 'stylesheet', href: '/analysis.css'}))
}

const same = (a, b) => a && b && a.kind === b.kind && a.id === b.id
const pct = x => Math.round(x * 1000) / 10
const signed = x => (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(Math.round(x * 10) / 10)

// The largest drops of the mover's win rate, biggest first: [{n, colour, drop}].
export function mistakes(doc) {
  const out = []
  const ps = doc.positions
  for (let k = 1; k < ps.length && k <= doc.moves.length; k++) {
    const colour = doc.moves[k - 1].color
    const before = colour === 'black' ? ps[k - 1].winrate : 1 - ps[k - 1].winrate
    const after = colour === 'black' ? ps[k].winrate : 1 - ps[k].winrate
    if (before - after >= MISTAKE_MIN) out.push({n: k, colour, drop: before - after})
  }
  return out.sort((a, b) => b.drop - a.drop).slice(0, MISTAKES)
}

// The ownership map and the candidates of a position as an SVG group for
// the board; pointing at a candidate calls hover(candidate), leaving it
// hover(null).
function overlayGroup(size, pos, board, showOwnership, hover) {
  const g = svg('g', {id: 'analysis-overlay'})
  const X = c => 1 + c
  if (showOwnership && pos.ownership) {
    const own = svg('g', {id: 'ownership'})
    for (let i = 0; i < size * size; i++) {
      const v = (pos.ownership.charCodeAt(i) - 97 - 10) / 10
      // a stone its own colour owns says nothing: marked are the points
      // and the stones the other colour owns (likely dead)
      if (Math.abs(v) < 0.2 || board[i] === (v > 0 ? 1 : 2)) continue
      const s = 0.15 + 0.3 * Math.abs(v)
      own.appendChild(svg('rect', {x: X(i % size) - s / 2, y: X(Math.floor(i / size)) - s / 2, width: s, height: s,
        class: 'own ' + (v > 0 ? 'black' : 'white'), 'data-owner': v > 0 ? 'black' : 'white', opacity: 0.8}))
    }
    g.appendChild(own)
  }
  const best = pos.candidates[0]
  for (const c of pos.candidates) {
    const p = parseVertex(size, c.move)
    if (!p) continue
    const cg = svg('g', {class: 'cand' + (c === best ? ' best' : ''), 'data-candidate': c.move,
      'data-visits': c.visits, 'data-winrate': c.winrate,
      onmouseenter: () => hover(c), onmouseleave: () => hover(null)})
    cg.appendChild(svg('circle', {cx: X(p[0]), cy: X(p[1]), r: 0.46}))
    cg.appendChild(svg('text', {x: X(p[0]), y: X(p[1]) - 0.13, class: 'cand-wr', text: String(Math.round(c.winrate * 100))}))
    cg.appendChild(svg('text', {x: X(p[0]), y: X(p[1]) + 0.2, class: 'cand-visits', text: c.visits >= 1000 ? (c.visits / 1000).toFixed(1) + 'k' : String(c.visits)}))
    g.appendChild(cg)
  }
  g.appendChild(svg('g', {id: 'pv'}))
  return g
}

// The principal variation of candidate `cand` (null: none) as numbered stones.
function drawPvLayer(size, pos, cand) {
  const layer = $('#pv')
  if (!layer) return
  clear(layer)
  const overlay = $('#analysis-overlay')
  if (overlay) overlay.classList.toggle('pv-shown', !!cand)
  if (!cand) { delete layer.dataset.pv; return }
  let colour = pos.to_move
  layer.dataset.pv = cand.pv.join(' ')
  cand.pv.forEach((v, k) => {
    const p = parseVertex(size, v)
    if (p) {
      layer.appendChild(svg('circle', {cx: 1 + p[0], cy: 1 + p[1], r: 0.46, class: `stone ${colour}`, fill: `url(#g-${colour})`, 'data-pv-move': v}))
      layer.appendChild(svg('text', {x: 1 + p[0], y: 1 + p[1] + 0.02, class: `num on-${colour}`, text: String(k + 1)}))
    }
    colour = colour === 'black' ? 'white' : 'black'
  })
}

export class AnalysisView {
  // ref: {kind: 'game'|'sgf', id} or null for the upload form.
  constructor(ref, ctx) {
    this.ref = ref
    this.conn = ctx.conn
    this.ctx = ctx
    this.root = $('#main')
    this.doc = null
    this.at = 0
    this.pv = null          // the candidate whose line is shown
    this.showOwnership = true
    this.state = null
    this.started = false
    current = this
    stylesheet()
    this.onKey = e => {
      if (!this.doc || (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName))) return
      const k = {ArrowLeft: -1, ArrowRight: 1}[e.key]
      if (k) this.go(this.at + k)
      else if (e.key === 'Home') this.go(0)
      else if (e.key === 'End') this.go(this.doc.moves.length)
      else return
      e.preventDefault()
    }
    document.addEventListener('keydown', this.onKey)
    this.render()
    if (ref) this.load()
  }

  leave() {
    document.removeEventListener('keydown', this.onKey)
    clearTimeout(this.poll)
    if (current === this) current = null
  }

  render() {
    const title = this.ref ? t(this.ref.kind === 'game' ? 'an_of_game' : 'an_of_sgf', {id: this.ref.id}) : t('an_upload')
    const head = el('div', {class: 'card'}, el('h2', {}, t('an_title'), ' — ', title,
      this.ref && this.ref.kind === 'game' ? [' ', el('a', {href: '#/game/' + this.ref.id}, '↩')] : null),
    el('div', {id: 'analysis-status', role: 'status', 'aria-live': 'polite'}),
    el('progress', {id: 'analysis-progress', max: 1, value: 0, hidden: true}))
    if (!this.ref) {
      replace(this.root, el('section', {id: 'analysis-view', class: 'analysis-view'}, head, this.uploadForm()))
      return
    }
    replace(this.root, el('section', {id: 'analysis-view', class: 'analysis-view'}, head,
      el('div', {class: 'analysis-layout'},
        el('div', {class: 'board-col'},
          el('div', {id: 'board-wrap'}, svg('svg', {id: 'board', role: 'img', 'aria-label': t('an_title')})),
          el('div', {class: 'controls analysis-nav'},
            el('button', {id: 'an-start', type: 'button', onclick: () => this.go(0)}, '« ', t('an_start')),
            el('button', {id: 'an-prev', type: 'button', onclick: () => this.go(this.at - 1)}, '◀ ', t('an_prev')),
            el('span', {id: 'an-move'}),
            el('button', {id: 'an-next', type: 'button', onclick: () => this.go(this.at + 1)}, t('an_next'), ' ▶'),
            el('button', {id: 'an-end', type: 'button', onclick: () => this.go(this.doc ? this.doc.moves.length : 0)}, t('an_end'), ' »')),
          el('figure', {class: 'card graph-card'},
            svg('svg', {id: 'analysis-graph', viewBox: '0 0 400 120', preserveAspectRatio: 'none', role: 'img', 'aria-label': t('an_graph')}),
            el('figcaption', {class: 'hint'}, t('an_graph')))),
        el('div', {class: 'side-col'},
          el('section', {class: 'card'}, el('h3', {}, t('an_mistakes')), el('ul', {id: 'an-mistakes', class: 'list'})),
          el('section', {class: 'card'},
            el('h3', {id: 'an-cand-title'}),
            el('div', {id: 'an-now', class: 'hint'}),
            el('table', {id: 'an-candidates', class: 'candidates'}),
            el('p', {class: 'hint'}, t('an_pv_hint')),
            el('label', {class: 'check'}, el('input', {id: 'an-ownership', type: 'checkbox', checked: this.showOwnership,
              onchange: e => { this.showOwnership = e.target.checked; this.draw() }}), ' ', t('an_ownership')))))))
  }

  uploadForm() {
    const file = el('input', {id: 'sgf-file', type: 'file', accept: '.sgf,application/x-go-sgf,text/plain'})
    const text = el('textarea', {id: 'sgf-text', rows: 6, 'aria-label': t('an_paste')})
    const error = el('div', {id: 'upload-error', class: 'error', role: 'alert'})
    const send = async () => {
      error.textContent = ''
      let sgf = text.value
      if (file.files && file.files[0]) sgf = await file.files[0].text()
      try {
        const ok = await this.upload(sgf)
        location.hash = `#/analysis/sgf/${ok.analysis.id}`
      } catch (e) { error.textContent = e.message }
    }
    return el('section', {class: 'card upload'},
      el('p', {class: 'hint'}, t('an_upload_hint')),
      el('label', {class: 'field'}, el('span', {}, t('an_file')), file),
      el('label', {class: 'field'}, el('span', {}, t('an_paste')), text),
      el('div', {class: 'controls'}, el('button', {id: 'sgf-send', type: 'button', onclick: send}, t('an_send'))),
      error)
  }

  // Sends the record in parts (analysis.upload); resolves with the last ok.
  async upload(sgf) {
    if (new Blob([sgf]).size > SGF_MAX) throw new Error(t('an_too_large'))
    let ok = null
    for (let k = 0; k === 0 || k < sgf.length; k += CHUNK) {
      const more = k + CHUNK < sgf.length
      ok = await this.conn.request('analysis.upload', {text: sgf.slice(k, k + CHUNK), more})
    }
    return ok
  }

  async load() {
    clearTimeout(this.poll)
    let r, body
    try {
      r = await fetch(`/api/analysis/${this.ref.kind}/${this.ref.id}`)
      body = await r.json()
    } catch (e) { return this.retry() }
    if (current !== this) return
    if (r.status === 200 && body.state === 'done') return this.show(body.analysis)
    if (r.status === 200) { this.progress(body); return this.retry() }
    if (r.status === 404 && this.ref.kind === 'game' && !this.started) return this.start()
    if (r.status === 404) return this.status('error', t('an_not_found'))
    this.retry()
  }

  retry() { if (current === this) this.poll = setTimeout(() => this.load(), POLL_MS) }

  async start() {
    this.started = true
    try {
      const ok = await this.conn.request('analysis.start', {game: this.ref.id})
      if (ok.state === 'done') return this.load()
      this.progress(ok)
      this.retry()
    } catch (e) { this.status('error', t('an_failed', {message: e.message})) }
  }

  status(state, text) {
    this.state = state
    const box = $('#analysis-status')
    if (!box) return
    box.dataset.state = state
    box.textContent = text
  }

  progress(m) {
    const bar = $('#analysis-progress')
    const running = m.state === 'running' && m.done > 0
    this.status(running ? 'running' : 'queued', running ? t('an_running', {done: m.done, total: m.total}) : t('an_queued'))
    if (bar) { bar.hidden = false; bar.max = m.total || 1; bar.value = m.done || 0 }
  }

  // A pushed message about some analysis: ours?
  heard(type, m) {
    if (!same(m.analysis, this.ref) || this.doc) return
    if (type === 'analysis.progress') this.progress(m)
    else if (type === 'analysis.done') this.load()
    else if (type === 'analysis.error') this.status('error', t('an_failed', {message: m.message}))
  }

  show(doc) {
    clearTimeout(this.poll)
    this.doc = doc
    this.at = Math.min(this.at, doc.moves.length)
    const bar = $('#analysis-progress')
    if (bar) bar.hidden = true
    this.status('done', t('an_done', {total: doc.positions.length, playouts: doc.playouts}))
    this.drawGraph()
    this.drawMistakes()
    this.draw()
  }

  go(k) {
    if (!this.doc) return
    this.at = Math.max(0, Math.min(this.doc.moves.length, k))
    this.pv = null
    this.draw()
  }

  draw() {
    const doc = this.doc, root = $('#board')
    if (!doc || !root) return
    const pos = doc.positions[this.at] || {candidates: []}
    const r = replay(doc.size, doc.setup, doc.moves, this.at)
    drawBoard(root, {size: doc.size, board: r.board, last: r.last, numbers: null, marks: {}, hover: null})
    root.dataset.position = String(this.at)
    root.appendChild(this.overlay(pos, r.board))
    $('#an-move').textContent = t('an_move', {n: this.at, total: doc.moves.length})
    $('#an-cand-title').textContent = t('an_candidates', {colour: colourName(pos.to_move)})
    $('#an-now').textContent = pos.winrate === undefined ? '' : t('an_winrate_now', {winrate: pct(pos.winrate), lead: signed(pos.lead)})
    this.drawCandidates(pos)
    const cursor = $('#graph-cursor')
    if (cursor) cursor.setAttribute('x1', this.graphX(this.at)), cursor.setAttribute('x2', this.graphX(this.at))
  }

  overlay(pos, board) {
    const hover = c => { this.pv = c; this.drawPv(pos) }
    return overlayGroup(this.doc.size, pos, board, this.showOwnership, hover)
  }

  drawPv(pos) { drawPvLayer(this.doc.size, pos, this.pv) }

  drawCandidates(pos) {
    const table = $('#an-candidates')
    replace(table, el('tr', {}, el('th', {}, t('an_cand_move')), el('th', {}, t('an_cand_visits')),
      el('th', {}, t('an_cand_winrate')), el('th', {}, t('an_cand_lead'))),
    pos.candidates.map(c => el('tr', {'data-candidate-row': c.move,
      onmouseenter: () => { this.pv = c; this.drawPv(pos) }, onmouseleave: () => { this.pv = null; this.drawPv(pos) }},
    el('td', {}, c.move), el('td', {}, String(c.visits)), el('td', {}, pct(c.winrate) + '%'), el('td', {}, signed(c.lead)))))
  }

  graphX(k) { const n = Math.max(1, this.doc.positions.length - 1); return 4 + (392 * k) / n }

  // Black's win rate as a line, the score lead as bars about the middle.
  drawGraph() {
    const root = $('#analysis-graph'), doc = this.doc
    if (!root) return
    clear(root)
    const ps = doc.positions
    const maxLead = Math.max(5, ...ps.map(p => Math.abs(p.lead)))
    const Y = w => 110 - 100 * w
    root.appendChild(svg('rect', {x: 0, y: 0, width: 400, height: 120, class: 'graph-bg',
      onclick: e => { const b = root.getBoundingClientRect(); this.go(Math.round(((e.clientX - b.left) / b.width * 400 - 4) / 392 * Math.max(1, ps.length - 1))) }}))
    root.appendChild(svg('line', {x1: 0, x2: 400, y1: Y(0.5), y2: Y(0.5), class: 'graph-mid'}))
    const bars = svg('g', {id: 'graph-lead'})
    const w = Math.max(0.5, 392 / Math.max(1, ps.length) * 0.7)
    ps.forEach((p, k) => {
      const h = (50 * p.lead) / maxLead
      bars.appendChild(svg('rect', {x: this.graphX(k) - w / 2, y: h > 0 ? Y(0.5) - h : Y(0.5), width: w, height: Math.abs(h),
        class: p.lead >= 0 ? 'lead black' : 'lead white'}))
    })
    root.appendChild(bars)
    root.appendChild(svg('polyline', {id: 'graph-winrate', points: ps.map((p, k) => `${this.graphX(k)},${Y(p.winrate)}`).join(' ')}))
    const dots = svg('g', {id: 'graph-points'})
    ps.forEach((p, k) => dots.appendChild(svg('circle', {cx: this.graphX(k), cy: Y(p.winrate), r: 1.2, 'data-point': k,
      'data-winrate': p.winrate, 'data-lead': p.lead, onclick: () => this.go(k)})))
    root.appendChild(dots)
    for (const m of mistakes(doc)) {
      root.appendChild(svg('circle', {cx: this.graphX(m.n), cy: Y(ps[m.n].winrate), r: 3.5, class: 'mistake', 'data-mistake': m.n,
        onclick: () => this.go(m.n)}))
    }
    root.appendChild(svg('line', {id: 'graph-cursor', x1: this.graphX(this.at), x2: this.graphX(this.at), y1: 0, y2: 120}))
    root.dataset.points = String(ps.length)
  }

  drawMistakes() {
    const list = $('#an-mistakes'), found = mistakes(this.doc)
    if (!found.length) { replace(list, el('li', {class: 'empty'}, t('an_no_mistakes'))); return }
    replace(list, found.map(m => el('li', {'data-mistake-move': m.n}, el('button', {type: 'button', class: 'link', onclick: () => this.go(m.n)},
      t('an_mistake', {n: m.n, colour: colourName(m.colour), drop: Math.round(m.drop * 100)})))))
  }
}

// ---------------------------------------------------------------- a live game

// The engine's view of a live game's position: its spectators see it where
// both players allow it (analysis.position), its players only say whether
// they allow it (analysis.allow).  Called by the game page after each
// drawing of its board.
const liveState = {game: null, view: null, allowed: null, on: false, position: null, moves: -1, asked: -1, key: ''}

export function liveAnalysis(view, board) {
  const g = view.g, box = $('#live-analysis')
  if (!box || !g) return
  const st = liveState
  st.view = view
  if (st.game !== g.id) {
    Object.assign(st, {game: g.id, allowed: null, on: false, position: null, moves: -1, asked: -1, key: ''})
    view.conn.request('analysis.allow', {game: g.id}).then(r => { if (st.game === r.game) { st.allowed = r; view.update() } }, () => {})
  }
  if (g.phase === 'over') { box.hidden = true; return }
  const n = g.moves.length, you = g.you || null
  const allowed = !!(st.allowed && st.allowed.black && st.allowed.white)
  if (!you && st.on && allowed && st.moves !== n && st.asked !== n) {
    st.asked = n
    view.conn.request('analysis.position', {game: g.id}).catch(e => { st.asked = -1; st.error = e.message })
  }
  const shown = !you && st.on && allowed && st.position && st.moves === n
  const svgBoard = $('#board')
  if (shown && svgBoard && svgBoard.dataset.live === '1') {
    const size = g.size
    svgBoard.appendChild(overlayGroup(size, st.position, board, true, c => drawPvLayer(size, st.position, c)))
  }
  const key = [g.id, you, JSON.stringify(st.allowed), st.on, shown ? st.moves : -1, n].join('|')
  if (key === st.key) return
  st.key = key
  box.hidden = false
  if (you) {
    const mine = !!(st.allowed && st.allowed[you])
    replace(box, el('h3', {}, t('live_title')),
      el('label', {class: 'check'}, el('input', {id: 'live-allow', type: 'checkbox', checked: mine,
        onchange: e => view.conn.request('analysis.allow', {game: g.id, allow: e.target.checked}).then(r => { st.allowed = r; view.update() }, () => {})}),
      ' ', t('live_allow')),
      el('p', {class: 'hint'}, t('live_allow_hint')))
    return
  }
  if (!allowed) { replace(box, el('h3', {}, t('live_title')), el('p', {id: 'live-status', class: 'hint', 'data-state': 'not-allowed'}, t('live_not_allowed'))); return }
  const pos = shown ? st.position : null
  replace(box, el('h3', {}, t('live_title')),
    el('button', {id: 'live-toggle', type: 'button', onclick: () => { st.on = !st.on; st.asked = -1; view.update() }}, t(st.on ? 'live_hide' : 'live_show')),
    st.on ? el('p', {id: 'live-status', class: 'hint', 'data-state': pos ? 'shown' : 'waiting'},
      pos ? t('live_at', {n, winrate: pct(pos.winrate), lead: signed(pos.lead)}) : t('live_waiting', {n})) : null)
}

function liveHeard(type, m) {
  const st = liveState
  if (m.game !== st.game || !st.view) return
  if (type === 'analysis.allowed') st.allowed = {game: m.game, black: m.black, white: m.white}
  else if (type === 'analysis.position') { st.position = m.position; st.moves = m.moves }
  if (st.view.g) st.view.update()
}

// The pushes reach the view on screen (registered once, by the app).
export function registerAnalysisEvents(conn) {
  for (const type of ['analysis.progress', 'analysis.done', 'analysis.error']) {
    conn.on(type, m => { if (current) current.heard(type, m) })
  }
  for (const type of ['analysis.allowed', 'analysis.position']) conn.on(type, m => liveHeard(type, m))
}

// The route's view: #/analysis, #/analysis/game/ID, #/analysis/sgf/ID; null
// when the hash is none of them.
export function analysisRoute(hash, ctx) {
  const m = /^#\/analysis(?:\/(game|sgf)\/(\d+))?$/.exec(hash)
  if (!m) return null
  return new AnalysisView(m[1] ? {kind: m[1], id: parseInt(m[2], 10)} : null, ctx)
}
