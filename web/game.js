// game.js — one game: the board, both clocks, the move list, chat,
// requests, stone removal, the result and stepping through the record.
// Everything shown comes from `game.state` / `game.move` / `game.chat`
// (docs/protocol.md); the only client-side game logic is the replay used to
// show earlier positions.

import {el, clear, replace, $} from './dom.js'
import {t, getLang, colourName} from './i18n.js'
import {boardFromString, drawBoard, liveNumbers, parseVertex, replay, vertexName} from './board.js'
import {GameClock} from './clock.js'
import {countFromServer, countLines, countPosition, optionWords, ruleOptions, rulesName, timeWords} from './count.js'
import {Variations, sgfWithVariations} from './review.js'
import {liveAnalysis} from './analysis.js'

let current = null  // the GameView on screen, if any

const other = c => (c === 'black' ? 'white' : 'black')
const pref = (k, d) => { try { const v = localStorage.getItem(k); return v === null ? d : v === '1' } catch (e) { return d } }
const setPref = (k, v) => { try { localStorage.setItem(k, v ? '1' : '0') } catch (e) { /* ignore */ } }

export class GameView {
  constructor(id, ctx) {
    this.id = id
    this.ctx = ctx
    this.conn = ctx.conn
    this.root = $('#main')
    this.g = null
    this.viewN = null  // null: the live position; else the number of moves shown
    this.chat = []
    this.selected = []  // free handicap placement
    this.notFound = false
    this.resumed = false
    this.confirmResign = false
    this.showNumbers = pref('tengen.numbers', false)
    this.speakOn = pref('tengen.speak', true)
    this.soundOn = pref('tengen.sound', false)
    this.vars = new Variations()
    this.cursor = null      // the keyboard's point on the board
    this.online = this.conn.ready
    this.frozen = null      // the clocks as shown when the connection went
    this.clock = new GameClock()
    this.lastCall = {black: null, white: null}
    current = this
    this.onKey = e => {
      // ← → step through the moves, Home/End: first and last (not while typing).
      if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return
      const k = {ArrowLeft: -1, ArrowRight: 1}[e.key]
      if (k && this.vars.active()) {
        if (k < 0 && this.vars.shown === 0) this.leaveVariation()
        else { this.vars.step(k); this.update() }
      } else if (k) this.browse(this.shownN() + k)
      else if (e.key === 'Home') this.browse(0)
      else if (e.key === 'End') this.browse(null)
      else return
      e.preventDefault()
    }
    document.addEventListener('keydown', this.onKey)
    this.render()
    if (this.conn.ready) this.connected()
    this.timer = setInterval(() => this.tick(), 200)
  }

  connected() {
    this.conn.request('game.watch', {game: this.id}).catch(e => {
      if (e.code === 'not_found') { this.notFound = true; this.render() }
      // a busy server or account: ask again rather than stay "Loading…"
      else if ((e.code === 'rate_limited' || e.code === 'timeout') && current === this) setTimeout(() => { if (current === this && this.conn.ready) this.connected() }, 1000)
      this.error(e)
    })
  }

  // The page's connection (net.js): offline is shown on the board, and the
  // clocks stand still on screen until the server speaks again.
  connState(state) {
    const online = state === 'online'
    if (!online && this.online && this.g) {
      this.frozen = {black: this.clock.view('black'), white: this.clock.view('white')}
    }
    this.online = online
    const o = $('#offline')
    if (o) o.hidden = online
    if (this.g) this.update()
  }

  userChanged() {
    // `you` depends on who is logged in: watch again for a fresh game.state.
    if (this.conn.ready) this.conn.request('game.watch', {game: this.id}).catch(e => this.error(e))
  }

  leave() {
    clearInterval(this.timer)
    document.removeEventListener('keydown', this.onKey)
    if (this.conn.ready) this.conn.request('game.unwatch', {game: this.id}).catch(() => {})
    if (current === this) current = null
  }

  // An error shows for a while, never for the rest of the game.
  error(e) {
    const n = $('#game-error')
    if (!n) return
    n.textContent = e ? t('error', {message: e.message || String(e)}) : ''
    clearTimeout(this.errorTimer)
    if (e) this.errorTimer = setTimeout(() => { if (n.isConnected) n.textContent = '' }, 8000)
  }

  announce(text) {
    const n = $('#announce')
    if (n) n.textContent = text
  }

  sound() {
    if (!this.soundOn) return
    try {
      const A = this.audio || (this.audio = new (window.AudioContext || window.webkitAudioContext)())
      const o = A.createOscillator(), gain = A.createGain(), at = A.currentTime
      o.type = 'triangle'
      o.frequency.setValueAtTime(900, at)
      o.frequency.exponentialRampToValueAtTime(300, at + 0.06)
      gain.gain.setValueAtTime(0.3, at)
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.09)
      o.connect(gain).connect(A.destination)
      o.start(at)
      o.stop(at + 0.1)
    } catch (e) { /* no audio */ }
  }

  send(type, fields = {}) {
    this.error(null)
    return this.conn.request(type, Object.assign({game: this.id}, fields)).catch(e => { this.error(e); throw e })
  }

  // ------------------------------------------------------------ events

  onState(g) {
    const before = this.g
    if (before && before.phase === 'removal' && g.phase === 'play') this.resumed = true
    if (g.phase !== 'play') this.resumed = false
    if (g.phase !== 'placement') this.selected = []
    this.g = g
    this.frozen = null
    this.stateAt = Date.now()  // the free opening's prediction countdowns run from here
    if (!Array.isArray(g.moves)) g.moves = []
    if (this.viewN !== null && this.viewN >= g.moves.length) this.viewN = null  // after an undo
    this.clock.set(g.clock, g.time, g.phase !== 'play' || g.paused)
    this.update()
  }

  onMove(m) {
    const g = this.g
    if (!g) return
    if (m.n !== g.moves.length + 1) { this.userChanged(); return }  // out of step: resync
    g.moves.push({n: m.n, color: m.color, move: m.move, own: !!m.own})
    if (m.board) g.board = m.board
    if (m.captures) g.captures = m.captures
    g.to_move = m.to_move || other(m.color)
    g.last = m.move
    if (m.clock) g.clock = m.clock
    if (m.warning && g.warnings) g.warnings[m.color] = (g.warnings[m.color] || 0) + 1
    this.resumed = false
    this.frozen = null
    this.clock.set(g.clock, g.time, g.phase !== 'play' || g.paused)
    this.update()
    const who = colourName(m.color)
    if (m.move === 'pass') this.announce(t('announce_pass', {colour: who}))
    else {
      const n = Array.isArray(m.captured) ? m.captured.length : 0
      this.announce(t('announce_move', {colour: who, move: m.move}) + (n ? t('announce_captures', {n}) : ''))
      this.sound()
    }
  }

  onChat(m) {
    this.chat.push(m)
    const log = $('#chat-log')
    if (log) { log.appendChild(this.chatLine(m)); log.scrollTop = log.scrollHeight }
  }

  // ------------------------------------------------------------ rendering

  render() {
    const root = this.root
    clear(root)
    root.dataset.view = 'game'
    if (this.notFound) {
      root.appendChild(el('section', {class: 'card'}, el('p', {id: 'game-error', class: 'error'}, t('not_found'))))
      return
    }
    const board = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
    board.id = 'board'
    board.setAttribute('role', 'application')
    board.setAttribute('tabindex', '0')
    board.setAttribute('aria-roledescription', t('board_label', {n: this.g ? this.g.size : 19}))
    board.setAttribute('aria-label', t('board_label', {n: this.g ? this.g.size : 19}))
    board.addEventListener('keydown', e => this.boardKey(e))
    board.addEventListener('click', e => this.boardClick(e))
    board.addEventListener('dblclick', e => this.boardGesture(e))
    board.addEventListener('pointermove', e => this.boardHover(e))
    board.addEventListener('pointerleave', () => this.drawn && this.drawn.hideHover())
    const bar = c => el('div', {id: `bar-${c}`, class: `player-bar ${c}`, 'data-color': c},
      el('span', {class: `stone-icon ${c}`}),
      el('span', {class: 'pname', id: `name-${c}`}),
      el('span', {class: 'presence', id: `presence-${c}`}),
      el('span', {class: 'caps', id: `pile-${c}`, onclick: () => this.pileGesture(c)}, t('captures'), ' ', el('b', {id: `captures-${c}`}, '0')),
      el('span', {class: 'warns', id: `warnings-${c}`}),
      el('span', {class: 'call', id: `call-${c}`, 'aria-live': 'polite'}),
      el('span', {class: 'clock', id: `clock-${c}`}))
    const numbers = el('input', {type: 'checkbox', id: 'move-numbers', checked: this.showNumbers,
      onchange: e => { this.showNumbers = e.target.checked; setPref('tengen.numbers', this.showNumbers); this.update() }})
    const speak = el('input', {type: 'checkbox', id: 'speak', checked: this.speakOn,
      onchange: e => { this.speakOn = e.target.checked; setPref('tengen.speak', this.speakOn) }})
    const sound = el('input', {type: 'checkbox', id: 'sound', checked: this.soundOn,
      onchange: e => { this.soundOn = e.target.checked; setPref('tengen.sound', this.soundOn); this.sound() }})
    // 002 §4.3: where a move leaves both sides' chains without liberties,
    // the mover may remove its own; the box asks for it on the next move
    const own = el('input', {type: 'checkbox', id: 'own-capture', checked: this.ownCapture,
      onchange: e => { this.ownCapture = e.target.checked }})
    const chatInput = el('input', {id: 'chat-input', maxlength: 500, autocomplete: 'off', 'aria-label': t('chat')})
    root.appendChild(el('div', {class: 'game-view', 'data-game': this.id},
      el('div', {class: 'board-col'},
        bar('white'),
        el('div', {id: 'board-wrap'}, board,
          el('div', {id: 'offline', class: 'offline', hidden: this.online, role: 'status'}, t('offline_board'))),
        bar('black'),
        el('div', {id: 'nav-bar', class: 'nav-bar'},
          el('button', {id: 'nav-first', type: 'button', title: 'first', onclick: () => this.browse(0)}, t('first')),
          el('button', {id: 'nav-prev', type: 'button', title: 'previous', onclick: () => this.browse(this.shownN() - 1)}, t('prev')),
          el('span', {id: 'nav-pos'}),
          el('button', {id: 'nav-next', type: 'button', title: 'next', onclick: () => this.browse(this.shownN() + 1)}, t('next')),
          el('button', {id: 'nav-last', type: 'button', title: 'last', onclick: () => this.browse(null)}, t('last')),
          el('label', {class: 'check'}, numbers, ' ', t('move_numbers')),
          el('label', {class: 'check'}, speak, ' ', t('speak')),
          el('label', {class: 'check'}, sound, ' ', t('sound'))),
        el('section', {id: 'variation', class: 'card', hidden: true}),
        el('section', {id: 'score', class: 'card score', hidden: true, 'aria-label': t('count_title')})),
      el('div', {class: 'side-col'},
        el('div', {id: 'announce', class: 'sr-only', 'aria-live': 'polite', role: 'status'}),
        el('div', {id: 'cursor-live', class: 'sr-only', 'aria-live': 'polite'}),
        el('div', {id: 'status', class: 'card status', 'aria-live': 'polite'}),
        el('div', {id: 'request-box'}),
        el('div', {id: 'free-opening', class: 'card', hidden: true}),
        el('div', {id: 'controls', class: 'controls'},
          el('button', {id: 'pass', type: 'button', onclick: () => this.send('game.move', {move: 'pass', n: this.g.moves.length + 1}).catch(() => {})}, t('pass')),
          el('button', {id: 'resign', type: 'button', onclick: () => this.resignClick()}, t('resign')),
          el('button', {id: 'resign-confirm', type: 'button', class: 'danger', hidden: true,
            onclick: () => { this.confirmResign = false; this.send('game.resign').catch(() => {}); this.update() }}, t('resign_confirm')),
          el('button', {id: 'undo', type: 'button', onclick: () => this.send('game.request', {what: 'undo'}).catch(() => {})}, t('undo')),
          el('button', {id: 'pause', type: 'button', onclick: () => this.send('game.request', {what: this.g.paused ? 'resume' : 'pause'}).catch(() => {})}, t('pause')),
          el('button', {id: 'cancel-game', type: 'button', onclick: () => this.send('game.cancel').catch(() => {})}, t('cancel_game')),
          el('button', {id: 'claim', type: 'button', onclick: () => this.send('game.claim').catch(() => {})}, t('claim')),
          el('button', {id: 'place', type: 'button', onclick: () => this.send('game.place', {points: this.selected}).catch(() => {})}, t('place')),
          el('label', {id: 'own-capture-box', class: 'check', title: t('own_capture_hint')}, own, ' ', t('own_capture'))),
        el('div', {id: 'game-error', class: 'error', role: 'alert'}),
        el('div', {id: 'removal', class: 'card', hidden: true}),
        el('div', {id: 'result', class: 'card result', hidden: true}),
        el('section', {id: 'live-analysis', class: 'card', hidden: true}),
        el('div', {class: 'card'},
          el('div', {id: 'info', class: 'info'}),
          el('a', {id: 'sgf', href: `/api/games/${this.id}/sgf`, download: `tengen-${this.id}.sgf`}, t('download_sgf')),
          el('a', {id: 'sgf-variations', href: '#', hidden: true, download: `tengen-${this.id}-variations.sgf`,
            onclick: e => this.downloadVariations(e)}, t('download_sgf_vars')),
          el('a', {id: 'analyse-link', href: '#/analysis/game/' + this.id, hidden: true}, t('analyse_game'))),
        el('section', {class: 'card'}, el('h3', {id: 'moves-title'}, t('moves')),
          el('ol', {id: 'moves', class: 'moves', tabindex: '0', 'aria-labelledby': 'moves-title'})),
        el('section', {class: 'card chat'}, el('h3', {}, t('chat')),
          el('ul', {id: 'chat-log', class: 'chat-log'}, this.chat.map(m => this.chatLine(m))),
          el('form', {id: 'chat-form', onsubmit: e => {
            e.preventDefault()
            const text = chatInput.value.trim()
            if (!text) return
            this.send('game.chat', {text}).then(() => { chatInput.value = '' }).catch(() => {})
          }}, el('span', {id: 'chat-channel', class: 'hint'}), chatInput,
          el('button', {id: 'chat-send', type: 'submit'}, t('send')))))))
    this.update()
  }

  chatLine(m) {
    return el('li', {'data-channel': m.channel, class: `chat-${m.channel}`},
      el('span', {class: 'chan'}, `[${t('chat_' + m.channel)}] `),
      el('b', {class: 'from'}, m.from || '?'), ': ',
      el('span', {class: 'text'}, m.text || ''))
  }

  shownN() { return this.viewN === null ? (this.g ? this.g.moves.length : 0) : this.viewN }

  browse(n) {
    if (!this.g) return
    const total = this.g.moves.length
    if (n !== null) n = Math.max(0, Math.min(total, n))
    // The last move of a live game is the live position (dead stones,
    // voided moves and all, as the server has it).
    this.vars.leave()
    this.viewN = n === null || n === total ? null : n
    this.update()
  }

  // Review: a finished game, or any game while an earlier move is shown.
  reviewing() { return !!this.g && (this.viewN !== null || this.g.phase === 'over' || this.vars.active()) }

  variationAt(v) {
    const g = this.g
    const at = this.vars.active() ? this.vars.current.at : this.shownN()
    if (!this.vars.play(g, at, v)) return
    this.update()
  }

  leaveVariation() {
    const at = this.vars.current ? this.vars.current.at : null
    this.vars.leave()
    this.browse(at)
  }

  discardVariation() {
    const at = this.vars.current ? this.vars.current.at : null
    this.vars.discard()
    this.browse(at)
  }

  downloadVariations(e) {
    e.preventDefault()
    const text = sgfWithVariations(this.g, this.vars.lines)
    const a = document.createElement('a')
    a.href = URL.createObjectURL(new Blob([text], {type: 'application/x-go-sgf'}))
    a.download = `tengen-${this.id}-variations.sgf`
    document.body.appendChild(a)
    a.click()
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove() }, 1000)
  }

  // The keyboard on the board: arrows move a cursor, Enter or Space acts
  // at it as a click would.
  boardKey(e) {
    const g = this.g
    if (!g) return
    const d = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[e.key]
    const size = g.size
    let p = parseVertex(size, this.cursor)
    if (d) {
      if (!p) p = parseVertex(size, g.last) || [Math.floor(size / 2), Math.floor(size / 2)]
      else p = [Math.max(0, Math.min(size - 1, p[0] + d[0])), Math.max(0, Math.min(size - 1, p[1] + d[1]))]
      this.cursor = vertexName(size, p[0], p[1])
      this.update()
      const hit = $(`#board [data-vertex="${this.cursor}"]`)
      const state = hit ? hit.getAttribute('data-state') : 'empty'
      const n = $('#cursor-live')
      if (n) n.textContent = t('cursor_at', {v: this.cursor, what: t(state === 'empty' ? 'empty_point' : state + '_stone')})
    } else if ((e.key === 'Enter' || e.key === ' ') && p) {
      const hit = $(`#board [data-vertex="${this.cursor}"]`)
      if (hit) this.actAt(this.cursor, hit.getAttribute('data-state'))
    } else return
    e.preventDefault()
    e.stopPropagation()
  }

  canPlay() {
    const g = this.g
    if (!g || this.viewN !== null || g.paused || !g.you) return false
    // an opening stone has the colour of its number; its placer is a seat
    if (g.phase === 'opening') return !!(g.free_opening && g.free_opening.placer === g.you)
    return g.phase === 'play' && g.you === g.to_move
  }

  // The colour a click would place.
  stoneColour() { return this.g.phase === 'opening' ? this.g.to_move : this.g.you }

  boardClick(e) {
    const v = e.target && e.target.getAttribute && e.target.getAttribute('data-vertex')
    if (v) this.actAt(v, e.target.getAttribute('data-state'))
  }

  actAt(v, state) {
    const g = this.g
    if (!v || !g) return
    if (this.reviewing()) { if (state === 'empty' || this.vars.active()) this.variationAt(v); return }
    if (this.canPlay()) {
      const msg = {move: v, n: g.moves.length + 1}
      if (this.ownCapture && g.phase === 'play') msg.own = true
      this.ownCapture = false  // one move at a time
      this.send('game.move', msg).catch(() => {})
    } else if (g.phase === 'removal' && g.you && state !== 'empty') {
      this.send('game.toggle', {point: v}).catch(() => {})
    } else if (g.phase === 'placement' && g.you === 'black') {
      const i = this.selected.indexOf(v)
      if (i >= 0) this.selected.splice(i, 1)
      else if (this.selected.length < g.handicap && state === 'empty') this.selected.push(v)
      this.update()
    }
  }

  // The free opening's gestures (002 §7) where they fit a screen: a
  // double tap on the board's edge, or a tap on your own prisoner pile,
  // passes — which under this ruleset asks to end the game, and answers
  // the opponent's request with agreement.
  gestures() { return !!(this.g && this.g.free_opening && this.canPlay() && this.g.phase === 'play') }
  boardGesture(e) {
    const target = e.target
    if (!this.gestures() || !target || target.getAttribute('data-vertex')) return
    if (!target.classList.contains('wood') && !target.classList.contains('coord')) return
    this.send('game.move', {move: 'pass', n: this.g.moves.length + 1}).catch(() => {})
  }
  pileGesture(c) {
    if (this.gestures() && c === this.g.you) this.send('game.move', {move: 'pass', n: this.g.moves.length + 1}).catch(() => {})
  }

  boardHover(e) {
    if (!this.drawn) return
    const v = e.target && e.target.getAttribute && e.target.getAttribute('data-vertex')
    if (v && (this.canPlay() || this.reviewing())) this.drawn.showHover(v)
    else this.drawn.hideHover()
  }

  resignClick() {
    this.confirmResign = !this.confirmResign
    this.update()
    if (this.confirmResign) {
      setTimeout(() => { if (this.confirmResign) { this.confirmResign = false; this.update() } }, 5000)
    }
  }

  update() {
    const g = this.g
    if (!$('#board')) return
    if (!g) { $('#status').textContent = t('loading'); return }
    $('#analyse-link').hidden = g.phase !== 'over'
    const you = g.you || null
    const size = g.size
    const live = this.viewN === null

    // --- the board
    let board, last, captures, numbers
    const variation = this.vars.active()
    if (variation) {
      const r = this.vars.position(g)
      board = r.board; last = r.last; numbers = r.numbers
      captures = replay(size, g.setup, g.moves, this.vars.current.at).captures
    } else if (live) {
      board = boardFromString(size, g.board)
      last = g.last
      captures = g.captures || {black: 0, white: 0}
      numbers = this.showNumbers ? liveNumbers(size, board, g.moves) : null
    } else {
      const r = replay(size, g.setup, g.moves, this.viewN)
      board = r.board; last = r.last; captures = r.captures
      numbers = this.showNumbers ? r.numbers : null
    }
    const marks = {}, disputed = new Set()
    let count = null
    if (live && !variation && g.phase === 'removal' && g.removal) {
      const a = you || 'black', b = other(a)
      const mine = new Set(g.removal[a] ? g.removal[a].dead : [])
      const theirs = new Set(g.removal[b] ? g.removal[b].dead : [])
      for (const v of g.removal.proposal || []) marks[v] = 'proposal'
      for (const v of theirs) marks[v] = 'dead-theirs'
      for (const v of mine) marks[v] = theirs.has(v) ? 'dead-both' : 'dead-mine'
      for (const v of mine) if (!theirs.has(v)) disputed.add(v)
      for (const v of theirs) if (!mine.has(v)) disputed.add(v)
      count = countPosition(g, board, [...mine])
    } else if (live && !variation && g.phase === 'over' && g.count && g.count.black) {
      for (const v of g.dead || []) marks[v] = 'dead'
      count = countFromServer(g)
    }
    for (const v of this.selected) marks[v] = 'selected'
    const svgBoard = $('#board')
    const hover = this.canPlay() ? this.stoneColour() : this.reviewing() ? (variation ? this.vars.position(g).colour
      : Variations.colourAfter(g, this.shownN())) : null
    this.drawn = drawBoard(svgBoard, {size, board, last, numbers, marks, disputed, hover,
      owner: count ? count.owner : null, cursor: this.cursor})
    svgBoard.dataset.live = live && !variation ? '1' : '0'
    svgBoard.dataset.moves = String(this.shownN())
    svgBoard.dataset.variation = variation ? String(this.vars.shown) : ''
    svgBoard.classList.toggle('playable', this.canPlay())
    this.updateScore(count)
    this.updateVariation()
    liveAnalysis(this, board)

    // --- the players
    for (const c of ['black', 'white']) {
      const p = g[c] || {}
      replace($(`#name-${c}`), this.ctx.playerLink(p.name),
        p.rank ? el('span', {class: 'rank', id: `rank-${c}`}, ` (${p.rank})`) : '',
        p.engine ? ' ' + t('engine_tag') : '', you === c ? ' ★' : '')
      const pres = $(`#presence-${c}`)
      // `online` may be absent (unknown), and while this page is offline
      // nobody is known to be online: then say nothing.
      const known = this.online && !p.engine && typeof p.online === 'boolean'
      pres.textContent = !known ? '' : p.online ? t('online_tag') : t('offline_tag')
      pres.dataset.online = known ? (p.online ? '1' : '0') : ''
      $(`#captures-${c}`).textContent = String(captures[c] || 0)
      const w = g.warnings ? g.warnings[c] || 0 : 0
      $(`#warnings-${c}`).textContent = w ? `${t('warnings')} ${w}` : ''
      const mover = g.phase === 'opening' && g.free_opening ? g.free_opening.placer : g.phase === 'play' ? g.to_move : null
      $(`#bar-${c}`).classList.toggle('to-move', mover === c)
    }

    // --- status
    const st = $('#status')
    st.dataset.phase = g.phase
    st.dataset.toMove = g.phase === 'play' ? g.to_move : ''
    st.dataset.you = you || ''
    let text
    if (g.phase === 'play') {
      if (g.paused) text = t('paused')
      else if (you && you === g.to_move) text = t('your_turn', {colour: colourName(g.to_move)})
      else text = t('to_move', {colour: colourName(g.to_move)})
    } else if (g.phase === 'opening' && g.free_opening) {
      const fo = g.free_opening
      const n = fo.next_stone, colour = colourName(g.to_move)
      text = fo.placer && fo.placer === you ? t('phase_opening_you', {n, colour})
        : t('phase_opening', {n, colour, who: t(fo.placer === fo.first ? 'first_word' : 'second_word')})
    } else text = t('phase_' + g.phase)
    const lines = [el('div', {id: 'status-text'}, text)]
    const lm = g.moves[g.moves.length - 1]
    if (g.phase === 'play' && lm && lm.move === 'pass') lines.push(el('div', {id: 'status-pass'}, t('passed', {colour: colourName(lm.color)})))
    // after a dispute: C9's claimer of dead stones moves first, or (002 §6.3) play goes on in turn
    const inTurn = / dispute=turn\b/.test(g.rules_text || '')
    if (this.resumed) lines.push(el('div', {id: 'status-resumed'}, t(inTurn ? 'resumed_in_turn' : 'resumed', {colour: colourName(g.to_move)})))
    lines.push(el('div', {class: 'hint'}, you ? t('you_are', {colour: colourName(you)}) : t('spectator')))
    replace(st, lines)
    document.title = `${g.black ? g.black.name : ''} – ${g.white ? g.white.name : ''} · tengen`

    // --- request
    const rb = $('#request-box')
    clear(rb)
    if (g.request && g.phase !== 'over') {
      const r = g.request
      const box = el('div', {id: 'request', class: 'card request', 'data-what': r.what, 'data-by': r.by},
        t('request_' + r.what, {colour: colourName(r.by)}), ' ')
      if (you && r.by !== you) {
        box.appendChild(el('button', {id: 'request-accept', type: 'button',
          onclick: () => this.send('game.answer', {what: r.what, accept: true}).catch(() => {})}, t('yes')))
        box.appendChild(el('button', {id: 'request-decline', type: 'button',
          onclick: () => this.send('game.answer', {what: r.what, accept: false}).catch(() => {})}, t('no')))
      } else if (you) box.appendChild(el('span', {class: 'hint'}, t('waiting_answer')))
      rb.appendChild(box)
    }

    // --- controls (players only)
    const playing = !!you && g.phase !== 'over'
    const show = (id, on) => { $('#' + id).hidden = !on }
    const realMoves = g.moves.length
    show('pass', playing && g.phase === 'play')
    show('own-capture-box', playing && g.phase === 'play' && !!g.capture_choice)
    $('#own-capture').checked = !!this.ownCapture
    $('#pass').disabled = !this.canPlay()
    show('resign', playing && !this.confirmResign)
    show('resign-confirm', playing && this.confirmResign)
    show('undo', playing && g.phase === 'play' && realMoves > 0 && !g.request)
    show('pause', playing && g.phase === 'play' && !g.request)
    $('#pause').textContent = g.paused ? t('resume') : t('pause')
    show('cancel-game', playing && realMoves < 2 && ['play', 'placement', 'opening'].includes(g.phase))
    const opp = you ? g[other(you)] : null
    show('claim', playing && g.phase === 'play' && (g.time || 'none') === 'none' && opp && !opp.engine && opp.online === false)
    show('place', playing && g.phase === 'placement' && you === 'black')
    $('#place').textContent = t('place', {n: this.selected.length, k: g.handicap})
    $('#place').disabled = this.selected.length !== g.handicap

    this.updateFreeOpening()

    // --- stone removal
    const rm = $('#removal')
    rm.hidden = g.phase !== 'removal'
    clear(rm)
    if (g.phase === 'removal' && g.removal) {
      const list = (c) => {
        const d = (g.removal[c] && g.removal[c].dead) || []
        // named for whose list it is: the stones this player marked dead
        const label = you ? (c === you ? t('list_you') : t('list_they')) : t(c === 'black' ? 'list_black' : 'list_white')
        const stated = !!(g.removal[c] && g.removal[c].stated)
        return el('div', {class: 'dead-list'},
          el('b', {}, label, ': '),
          el('span', {id: `dead-${c}`, 'data-dead': d.join(' '), 'data-mine': you === c ? '1' : '0'}, d.length ? d.join(' ') : t('none')),
          el('div', {id: `stated-${c}`, 'data-stated': stated ? '1' : '0', class: 'hint'},
            colourName(c), ' ', stated ? t('stated') : t('not_stated')))
      }
      const order = you ? [you, other(you)] : ['black', 'white']
      for (const c of order) rm.appendChild(list(c))
      const prop = g.removal.proposal || []
      rm.appendChild(el('div', {}, el('b', {}, t('server_proposal'), ': '),
        el('span', {id: 'proposal', 'data-dead': prop.join(' ')}, prop.length ? prop.join(' ') : t('none'))))
      const lb = new Set(g.removal.black.dead), lw = new Set(g.removal.white.dead)
      const dis = [...lb].filter(v => !lw.has(v)).concat([...lw].filter(v => !lb.has(v)))
      rm.appendChild(el('div', {}, el('b', {}, t('disputed'), ': '),
        el('span', {id: 'disputed', 'data-dead': dis.join(' ')}, dis.length ? dis.join(' ') : t('none'))))
      if (you) rm.appendChild(el('p', {class: 'hint', id: 'removal-hint'}, t('removal_hint')))
      if (you) {
        rm.appendChild(el('div', {class: 'controls'},
          el('button', {id: 'accept', type: 'button', onclick: () => this.send('game.accept').catch(() => {})}, t('accept')),
          el('button', {id: 'concede', type: 'button', onclick: () => this.send('game.concede').catch(() => {})}, t('concede')),
          el('button', {id: 'use-proposal', type: 'button', onclick: () => this.useProposal()}, t('use_proposal'))))
      }
    }

    // --- result
    const res = $('#result')
    res.hidden = g.phase !== 'over'
    clear(res)
    if (g.phase === 'over') {
      res.dataset.result = g.result || ''
      res.dataset.reason = g.reason || ''
      const words = getLang() === 'zh' ? (g.result_text_zh || g.result_text) : g.result_text
      res.appendChild(el('div', {id: 'result-points', class: 'big'}, `${t('result')}: ${g.result || '?'}`))
      if (words) res.appendChild(el('div', {id: 'result-text'}, words))
      if (g.reason) res.appendChild(el('div', {id: 'result-reason', class: 'hint'}, t('reason_' + g.reason)))
      if (g.dead && g.dead.length) {
        res.appendChild(el('div', {id: 'agreed-dead', 'data-dead': g.dead.join(' ')}, el('b', {}, t('agreed_dead'), ': '), g.dead.join(' ')))
      }
    }

    // --- information
    const opts = ruleOptions(g.rules_text)
    const details = el('details', {id: 'rules-details'}, el('summary', {}, t('rules_details')),
      el('ul', {}, Object.entries(opts).filter(([k]) => k !== 'komi').map(([k, v]) => el('li', {}, optionWords(k, v)))),
      el('div', {class: 'hint'}, g.rules_text || ''))
    replace($('#info'),
      el('div', {}, el('b', {}, t('info_rules'), ': '), el('span', {id: 'rules-name'}, rulesName(g.rules)), details),
      el('div', {}, el('b', {}, t('komi'), ': '), g.free_opening && !g.free_opening.threshold ? t('komi_from_predictions') : String(g.komi)),
      g.handicap ? el('div', {}, el('b', {}, t('info_handicap'), ': '), `${g.handicap} (${t(g.handicap_placement || 'fixed')})`) : null,
      g.free_opening && g.free_opening.threshold ? el('div', {}, el('b', {}, t('threshold'), ': '), g.free_opening.threshold) : null,
      el('div', {}, el('b', {}, t('info_time'), ': '), el('span', {id: 'time-words', title: g.time || ''}, timeWords(g.time))),
      g.nigiri ? el('div', {}, el('b', {}, t('info_nigiri'), ': '), g.nigiri) : null)

    // --- moves
    // the list is built again after a game.state, and grows by a move after
    // a game.move: a long game's move is drawn without rebuilding its list
    const ol = $('#moves')
    const shown = this.shownN()
    if (this.listFor !== g || ol.children.length > g.moves.length) { clear(ol); this.listFor = g }
    for (const m of g.moves.slice(ol.children.length)) {
      ol.appendChild(el('li', {'data-n': m.n, 'data-move': m.move, 'data-color': m.color, onclick: () => this.browse(m.n)},
        el('span', {class: 'mn'}, String(m.n)), ' ',
        `${m.color === 'black' ? '●' : '○'} ${m.move === 'pass' ? t('pass_word') : m.move}${m.own ? ' ' + t('own_word') : ''}`))
    }
    const was = ol.querySelector('li.current')
    if (was) was.classList.remove('current')
    if (shown > 0 && ol.children[shown - 1]) ol.children[shown - 1].classList.add('current')
    // keep the current move in view, scrolling the list only (not the page)
    const cur = ol.querySelector('.current')
    if (cur) {
      const top = cur.offsetTop - ol.offsetTop, bottom = top + cur.offsetHeight
      if (top < ol.scrollTop) ol.scrollTop = top
      else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight
    } else if (live) ol.scrollTop = ol.scrollHeight
    $('#nav-pos').textContent = t('move_of', {k: shown, n: g.moves.length})
    $('#nav-pos').dataset.shown = String(shown)

    const chan = $('#chat-channel')
    if (chan) chan.textContent = you ? t('chat_to_players') : t('chat_to_spectators')
    this.tick()
  }

  // The count under the board: the page's own during stone removal (with
  // the viewer's list), the server's when the game was counted.
  updateScore(count) {
    const box = $('#score')
    box.hidden = !count
    if (!count) { clear(box); return }
    const g = this.g
    const title = count.estimated ? t(g.you ? 'count_live' : 'count_spectator') : t('count_final')
    box.dataset.estimated = count.estimated ? '1' : '0'
    box.dataset.black = String(count.black.points)
    box.dataset.white = String(count.white.points)
    box.dataset.komi = String(count.komi)
    box.dataset.handicap = String(count.handicap_points)
    box.dataset.dame = String(count.dame)
    box.dataset.scoring = count.scoring
    const lines = countLines(count, g.size)
    box.dataset.diff = String(lines.find(l => l.id === 'count-diff').diff)
    replace(box, el('h3', {}, title, ` (${t('scoring_' + count.scoring)})`),
      lines.map(l => el('div', {id: l.id, class: 'count-line', 'data-points': l.points}, l.text)))
  }

  updateVariation() {
    const box = $('#variation'), v = this.vars
    const link = $('#sgf-variations')
    if (link) link.hidden = !v.lines.length
    const reviewing = this.reviewing()
    box.hidden = !reviewing
    if (!reviewing) return
    const items = []
    if (v.active()) {
      const line = v.current
      items.push(el('div', {}, t('var_from', {n: line.at})),
        el('ol', {id: 'variation-moves', class: 'var-moves'}, line.moves.map((m, k) =>
          el('li', {'data-move': m.move, 'data-color': m.color, class: k + 1 === v.shown ? 'current' : null,
            onclick: () => { v.shown = k + 1; this.update() }}, `${m.color === 'black' ? '●' : '○'} ${m.move}`))),
        el('div', {class: 'controls'},
          el('button', {id: 'var-back', type: 'button', onclick: () => this.leaveVariation()}, t('var_back')),
          el('button', {id: 'var-discard', type: 'button', onclick: () => this.discardVariation()}, t('var_discard'))))
    } else items.push(el('p', {class: 'hint'}, t('variation_hint')))
    if (v.lines.length) {
      items.push(el('ul', {id: 'variation-lines', class: 'list'}, v.lines.map(line =>
        el('li', {}, el('button', {type: 'button', class: 'link', onclick: () => {
          v.current = line; v.shown = line.moves.length; this.viewN = line.at === this.g.moves.length ? null : line.at; this.update()
        }}, `${t('variation')} ${t('var_from', {n: line.at})}: ${line.moves.map(m => m.move).join(' ')}`)))))
    }
    replace(box, el('h3', {}, t('variation')), items)
  }

  // The free opening (002 §5.2-5.3): who is first, the sealed predictions
  // (the server sends a player's own prediction to that player alone until
  // both are in), then both, the threshold and the colours.
  updateFreeOpening() {
    const g = this.g, box = $('#free-opening'), fo = g.free_opening
    box.hidden = !fo
    if (!fo) return
    const you = g.you || null
    const seat = you ? (you === fo.first ? 'first' : 'second') : null
    const lines = [el('h3', {}, t('fo_title'))]
    if (seat) lines.push(el('div', {id: 'fo-seat', 'data-seat': seat}, t('fo_you_are', {who: t(seat + '_word')})))
    if (!fo.revealed) {
      const canPredict = seat && !fo.mine && g.phase !== 'over' &&
        (g.phase === 'prediction' || (seat === 'first' && g.moves.length >= 3))
      if (canPredict) {
        const side = el('select', {id: 'prediction-side'},
          el('option', {value: 'W'}, t('white')), el('option', {value: 'B'}, t('black')),
          el('option', {value: '0'}, t('fo_even')))
        const n = el('input', {id: 'prediction-n', type: 'number', min: 0, max: 1000, step: 0.5, value: 0, size: 5})
        side.addEventListener('change', () => { n.disabled = side.value === '0' })
        lines.push(el('form', {id: 'prediction-form', onsubmit: e => {
          e.preventDefault()
          const k = parseFloat(n.value)
          const p = side.value === '0' || !(k > 0) ? '0' : `${side.value}+${k}`
          this.send('game.predict', {prediction: p}).catch(() => {})
        }}, el('div', {class: 'hint'}, t('fo_predict')), side, ' ', t('fo_ahead'), ' ', n, ' ', t('fo_stones'), ' ',
        el('button', {id: 'prediction-seal', type: 'submit'}, t('fo_seal'))))
      }
      if (fo.mine) lines.push(el('div', {id: 'prediction-mine', 'data-prediction': fo.mine}, t('fo_mine', {p: fo.mine})))
      for (const k of ['first', 'second']) {
        lines.push(el('div', {id: `sealed-${k}`, 'data-sealed': fo.sealed[k] ? '1' : '0', class: 'hint'},
          t(fo.sealed[k] ? 'fo_sealed' : 'fo_waiting', {who: t(k + '_word')}),
          el('span', {id: `fo-time-${k}`, class: 'fo-time'})))
      }
    } else {
      const tcol = fo.threshold.startsWith('B') ? 'black' : 'white'
      lines.push(el('div', {id: 'predictions', 'data-first': fo.predictions.first, 'data-second': fo.predictions.second},
        t('fo_predictions', {a: fo.predictions.first, b: fo.predictions.second})))
      lines.push(el('div', {id: 'fo-first-colour', 'data-colour': fo.first}, t('fo_first_is', {colour: colourName(fo.first)})))
      lines.push(el('div', {id: 'threshold', 'data-threshold': fo.threshold},
        fo.threshold === '0' ? t('fo_threshold_even') : t('fo_threshold', {t: fo.threshold, colour: colourName(tcol)})))
      if (you && g.phase === 'play') lines.push(el('div', {class: 'hint', id: 'fo-gestures'}, t('fo_gestures')))
    }
    replace(box, lines)
  }

  async useProposal() {
    // Toggle chains until my dead list equals the proposal (each toggle
    // answers with a fresh game.state; give up after a few rounds).
    for (let round = 0; round < 40; round++) {
      const g = this.g
      if (!g || g.phase !== 'removal' || !g.you) return
      const mine = new Set(g.removal[g.you].dead)
      const prop = new Set(g.removal.proposal || [])
      const diff = [...prop].find(v => !mine.has(v)) || [...mine].find(v => !prop.has(v))
      if (!diff) return
      const before = this.g
      try { await this.send('game.toggle', {point: diff}) } catch (e) { return }
      for (let k = 0; k < 20 && this.g === before; k++) await new Promise(r => setTimeout(r, 50))
    }
  }

  tick() {
    const g = this.g
    if (!g || !$('#clock-black')) return
    const fo = g.free_opening
    for (const k of ['first', 'second']) {
      const n = $(`#fo-time-${k}`)
      const ms = fo && fo.prediction_ms ? fo.prediction_ms[k] : null
      if (!n) continue
      if (typeof ms !== 'number' || g.phase === 'over') { n.textContent = ''; continue }
      const left = Math.max(0, ms - (Date.now() - this.stateAt))
      const s = Math.ceil(left / 1000)
      n.textContent = ' · ' + t('fo_time_left', {s: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`})
      n.dataset.ms = String(left)
    }
    for (const c of ['black', 'white']) {
      const v = this.frozen ? Object.assign({}, this.frozen[c], {running: false}) : this.clock.view(c)
      const n = $(`#clock-${c}`)
      n.textContent = v.none ? '' : v.text
      n.dataset.ms = String(Math.round(v.ms || 0))
      n.dataset.running = v.running ? '1' : '0'
      n.dataset.overtime = v.overtime ? '1' : '0'
      if (v.periods !== undefined) n.dataset.periods = String(v.periods)
      n.classList.toggle('low', !!v.low && v.running)
      n.classList.toggle('running', !!v.running)
    }
    for (const call of this.frozen ? [] : this.clock.dueCalls()) {
      const words = call.count ? t('call_count', {n: call.number}) : t('call_seconds', {n: call.number})
      const node = $(`#call-${call.colour}`)
      if (!g.you || g.you === call.colour) this.announce(words)
      if (node) {
        node.textContent = words
        node.dataset.call = String(call.number)
        clearTimeout(this.lastCall[call.colour])
        this.lastCall[call.colour] = setTimeout(() => { node.textContent = '' }, 2500)
      }
      if (this.speakOn && (!g.you || g.you === call.colour) && 'speechSynthesis' in window) {
        try {
          const u = new SpeechSynthesisUtterance(words)
          u.lang = getLang() === 'zh' ? 'zh-CN' : 'en-US'
          window.speechSynthesis.speak(u)
        } catch (e) { /* no voice */ }
      }
    }
  }
}

export function registerGameEvents(conn) {
  conn.on('game.state', m => { if (current && m.game && m.game.id === current.id) current.onState(m.game) })
  conn.on('game.move', m => { if (current && m.game === current.id) current.onMove(m) })
  conn.on('game.chat', m => { if (current && m.game === current.id) current.onChat(m) })
}
