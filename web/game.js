// game.js — one game: the board, both clocks, the move list, chat,
// requests, stone removal, the result and stepping through the record.
// Everything shown comes from `game.state` / `game.move` / `game.chat`
// (docs/protocol.md); the only client-side game logic is the replay used to
// show earlier positions.

import {el, clear, replace, $} from './dom.js'
import {t, getLang, colourName} from './i18n.js'
import {boardFromString, drawBoard, liveNumbers, parseVertex, replay} from './board.js'
import {GameClock} from './clock.js'

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
    this.clock = new GameClock()
    this.lastCall = {black: null, white: null}
    current = this
    this.onKey = e => {
      // ← → step through the moves, Home/End: first and last (not while typing).
      if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return
      const k = {ArrowLeft: -1, ArrowRight: 1}[e.key]
      if (k) this.browse(this.shownN() + k)
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
      this.error(e)
    })
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

  error(e) {
    const n = $('#game-error')
    if (n) n.textContent = e ? t('error', {message: e.message || String(e)}) : ''
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
    this.clock.set(g.clock, g.time, g.phase !== 'play' || g.paused)
    this.update()
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
    board.setAttribute('role', 'img')
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
    // 002 §4.3: where a move leaves both sides' chains without liberties,
    // the mover may remove its own; the box asks for it on the next move
    const own = el('input', {type: 'checkbox', id: 'own-capture', checked: this.ownCapture,
      onchange: e => { this.ownCapture = e.target.checked }})
    const chatInput = el('input', {id: 'chat-input', maxlength: 500, autocomplete: 'off', 'aria-label': t('chat')})
    root.appendChild(el('div', {class: 'game-view', 'data-game': this.id},
      el('div', {class: 'board-col'},
        bar('white'),
        el('div', {id: 'board-wrap'}, board),
        bar('black'),
        el('div', {id: 'nav-bar', class: 'nav-bar'},
          el('button', {id: 'nav-first', type: 'button', title: 'first', onclick: () => this.browse(0)}, t('first')),
          el('button', {id: 'nav-prev', type: 'button', title: 'previous', onclick: () => this.browse(this.shownN() - 1)}, t('prev')),
          el('span', {id: 'nav-pos'}),
          el('button', {id: 'nav-next', type: 'button', title: 'next', onclick: () => this.browse(this.shownN() + 1)}, t('next')),
          el('button', {id: 'nav-last', type: 'button', title: 'last', onclick: () => this.browse(null)}, t('last')),
          el('label', {class: 'check'}, numbers, ' ', t('move_numbers')),
          el('label', {class: 'check'}, speak, ' ', t('speak')))),
      el('div', {class: 'side-col'},
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
        el('div', {class: 'card'},
          el('div', {id: 'info', class: 'info'}),
          el('a', {id: 'sgf', href: `/api/games/${this.id}/sgf`, download: `tengen-${this.id}.sgf`}, t('download_sgf'))),
        el('section', {class: 'card'}, el('h3', {}, t('moves')), el('ol', {id: 'moves', class: 'moves'})),
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
    this.viewN = n === null || n === total ? null : n
    this.update()
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
    const g = this.g
    if (!v || !g || this.viewN !== null) return
    if (this.canPlay()) {
      const msg = {move: v, n: g.moves.length + 1}
      if (this.ownCapture && g.phase === 'play') msg.own = true
      this.ownCapture = false  // one move at a time
      this.send('game.move', msg).catch(() => {})
    } else if (g.phase === 'removal' && g.you && e.target.getAttribute('data-state') !== 'empty') {
      this.send('game.toggle', {point: v}).catch(() => {})
    } else if (g.phase === 'placement' && g.you === 'black') {
      const i = this.selected.indexOf(v)
      if (i >= 0) this.selected.splice(i, 1)
      else if (this.selected.length < g.handicap && e.target.getAttribute('data-state') === 'empty') this.selected.push(v)
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
    if (v && this.canPlay()) this.drawn.showHover(v)
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
    const you = g.you || null
    const size = g.size
    const live = this.viewN === null

    // --- the board
    let board, last, captures, numbers
    if (live) {
      board = boardFromString(size, g.board)
      last = g.last
      captures = g.captures || {black: 0, white: 0}
      numbers = this.showNumbers ? liveNumbers(size, board, g.moves) : null
    } else {
      const r = replay(size, g.setup, g.moves, this.viewN)
      board = r.board; last = r.last; captures = r.captures
      numbers = this.showNumbers ? r.numbers : null
    }
    const marks = {}
    if (live && g.phase === 'removal' && g.removal) {
      const a = you || 'black', b = other(a)
      const mine = new Set(g.removal[a] ? g.removal[a].dead : [])
      const theirs = new Set(g.removal[b] ? g.removal[b].dead : [])
      for (const v of g.removal.proposal || []) marks[v] = 'proposal'
      for (const v of theirs) marks[v] = 'dead-theirs'
      for (const v of mine) marks[v] = theirs.has(v) ? 'dead-both' : 'dead-mine'
    }
    for (const v of this.selected) marks[v] = 'selected'
    const svgBoard = $('#board')
    this.drawn = drawBoard(svgBoard, {size, board, last, numbers, marks, hover: this.canPlay() ? this.stoneColour() : null})
    svgBoard.dataset.live = live ? '1' : '0'
    svgBoard.dataset.moves = String(this.shownN())
    svgBoard.classList.toggle('playable', this.canPlay())

    // --- the players
    for (const c of ['black', 'white']) {
      const p = g[c] || {}
      replace($(`#name-${c}`), this.ctx.playerLink(p.name), p.engine ? ' ' + t('engine_tag') : '',
        you === c ? ' ★' : '')
      const pres = $(`#presence-${c}`)
      // `online` may be absent (unknown): then say nothing.
      pres.textContent = p.engine || typeof p.online !== 'boolean' ? '' : p.online ? t('online_tag') : t('offline_tag')
      pres.dataset.online = typeof p.online === 'boolean' ? (p.online ? '1' : '0') : ''
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
        const label = you ? (c === you ? t('dead_mine') : t('dead_theirs')) : t(c === 'black' ? 'dead_black' : 'dead_white')
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
      rm.appendChild(el('div', {}, el('b', {}, t('proposal'), ': '),
        el('span', {id: 'proposal', 'data-dead': prop.join(' ')}, prop.length ? prop.join(' ') : t('none'))))
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
      if (g.count && g.count.black) {
        const row = c => {
          const k = g.count[c]
          return el('div', {class: 'count'}, colourName(c), `: ${k.points} ${t('points')} (${t('stones_word')} ${k.stones}, ${t('territory')} ${k.territory}, ${t('prisoners')} ${k.prisoners})`)
        }
        // a free opening's count is against the predictions' mean, not the komi that stands for it
        const threshold = g.free_opening && g.free_opening.threshold
        res.appendChild(el('div', {id: 'count'}, row('black'), row('white'),
          el('div', {}, threshold ? `${t('threshold')} ${threshold}` : `${t('komi')} ${g.count.komi}`)))
      }
    }

    // --- information
    replace($('#info'),
      el('div', {}, el('b', {}, t('info_rules'), ': '), g.rules_text || g.rules || ''),
      el('div', {}, el('b', {}, t('komi'), ': '), String(g.komi)),
      g.handicap ? el('div', {}, el('b', {}, t('info_handicap'), ': '), `${g.handicap} (${t(g.handicap_placement || 'fixed')})`) : null,
      g.free_opening && g.free_opening.threshold ? el('div', {}, el('b', {}, t('threshold'), ': '), g.free_opening.threshold) : null,
      el('div', {}, el('b', {}, t('info_time'), ': '), g.time_text || g.time || ''),
      g.nigiri ? el('div', {}, el('b', {}, t('info_nigiri'), ': '), g.nigiri) : null)

    // --- moves
    const ol = $('#moves')
    clear(ol)
    const shown = this.shownN()
    for (const m of g.moves) {
      ol.appendChild(el('li', {'data-n': m.n, 'data-move': m.move, 'data-color': m.color,
        class: m.n === shown ? 'current' : null, onclick: () => this.browse(m.n)},
      `${m.color === 'black' ? '●' : '○'} ${m.move === 'pass' ? t('pass_word') : m.move}${m.own ? ' ' + t('own_word') : ''}`))
    }
    const cur = ol.querySelector('.current')
    if (cur && live) ol.scrollTop = ol.scrollHeight
    $('#nav-pos').textContent = t('move_of', {k: shown, n: g.moves.length})
    $('#nav-pos').dataset.shown = String(shown)

    const chan = $('#chat-channel')
    if (chan) chan.textContent = you ? t('chat_to_players') : t('chat_to_spectators')
    this.tick()
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
      const v = this.clock.view(c)
      const n = $(`#clock-${c}`)
      n.textContent = v.none ? '' : v.text
      n.dataset.ms = String(Math.round(v.ms || 0))
      n.dataset.running = v.running ? '1' : '0'
      n.dataset.overtime = v.overtime ? '1' : '0'
      if (v.periods !== undefined) n.dataset.periods = String(v.periods)
      n.classList.toggle('low', !!v.low && v.running)
      n.classList.toggle('running', !!v.running)
    }
    for (const call of this.clock.dueCalls()) {
      const words = call.count ? t('call_count', {n: call.number}) : t('call_seconds', {n: call.number})
      const node = $(`#call-${call.colour}`)
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
