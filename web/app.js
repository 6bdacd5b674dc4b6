// app.js — the tengen serve page: connection, accounts, hash routes
// (#/ lobby, #/game/ID, #/player/NAME), the lobby and the player page.
// The game view is in game.js.  Protocol: docs/protocol.md.

import {el, clear, replace, $} from './dom.js'
import {t, getLang, setLang, colourName} from './i18n.js'
import {Conn} from './net.js'
import {GameView, registerGameEvents} from './game.js'
import {analysisRoute, registerAnalysisEvents} from './analysis.js'
import {rulesName, timeWords} from './count.js'
import {registerQuickMatch, quickMatchCard} from './quickmatch.js'
import {TournamentsView, TournamentView} from './tournament.js'

const PRESETS = ['chinese', 'japanese', 'korean', 'aga', 'new-zealand', 'tromp-taylor', 'ancient', 'free-opening']
const SYSTEMS = ['none', 'absolute', 'byoyomi', 'canadian', 'periods', 'fischer', 'simple']

export const S = {
  user: null,
  token: null,
  lobby: {challenges: new Map(), games: new Map(), engines: ['tengen'], loaded: false},
  finished: [],
  view: null
}
try { S.token = localStorage.getItem('tengen.token') } catch (e) { /* ignore */ }

export const conn = new Conn()
registerGameEvents(conn)
registerQuickMatch(conn, () => S.user)
registerAnalysisEvents(conn)

function saveToken(tok) {
  S.token = tok || null
  try {
    if (tok) localStorage.setItem('tengen.token', tok)
    else localStorage.removeItem('tengen.token')
  } catch (e) { /* ignore */ }
}

conn.onOpen = async () => {
  const fields = S.token ? {token: S.token} : {}
  try {
    const ok = await conn.request('hello', fields, {early: true})
    S.user = ok.user || null
    if (!S.user && S.token) saveToken(null)
  } catch (e) {
    S.user = null
    // a node that cannot read the sessions for a moment (its database is
    // coming back): the token is kept and hello asked again
    if (e && e.code === 'unavailable' && S.token) {
      setTimeout(() => { if (conn.onOpen) conn.onOpen() }, 1000)
      return
    }
  }
  renderHeader()
  if (S.view && S.view.connected) S.view.connected()
}
conn.onState = state => {
  const c = $('#conn')
  if (c) { c.dataset.state = state; c.textContent = t(state) }
  if (S.view && S.view.connState) S.view.connState(state)
}

// ---------------------------------------------------------------- header

function renderHeader() {
  const h = $('#header')
  clear(h)
  h.appendChild(el('a', {href: '#/', id: 'nav-lobby', class: 'brand'}, t('title')))
  h.appendChild(el('a', {href: '#/', class: 'nav'}, t('lobby')))
  h.appendChild(el('a', {href: '#/analysis', id: 'nav-analysis', class: 'nav'}, t('an_nav')))
  h.appendChild(el('a', {href: '#/tournaments', class: 'nav', id: 'nav-tournaments'}, t('tournaments')))
  const auth = el('div', {id: 'auth', 'data-user': S.user ? S.user.name : null})
  if (S.user) {
    auth.appendChild(el('span', {class: 'who'}, t('signed_in_as'), ' ',
      el('a', {id: 'user-name', href: '#/player/' + encodeURIComponent(S.user.name)}, S.user.name),
      S.user.guest ? ' ' + t('guest_tag') : ''))
    auth.appendChild(el('button', {id: 'logout', type: 'button', onclick: logout}, t('logout')))
  } else {
    // on a phone the form folds behind one button (style.css), so that the
    // header stays a line or two high
    auth.appendChild(el('button', {id: 'auth-toggle', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'auth-form',
      onclick: e => {
        const open = !auth.classList.contains('open')
        auth.classList.toggle('open', open)
        e.target.setAttribute('aria-expanded', open ? 'true' : 'false')
      }}, t('menu')))
    const name = el('input', {id: 'auth-name', autocomplete: 'username', placeholder: t('name'),
      'aria-label': t('name'), maxlength: 24, size: 10})
    const pw = el('input', {id: 'auth-password', type: 'password', autocomplete: 'current-password',
      placeholder: t('password'), 'aria-label': t('password'), size: 10})
    const form = el('form', {id: 'auth-form', onsubmit: e => { e.preventDefault(); account('login') }},
      name, pw,
      el('button', {id: 'login', type: 'submit'}, t('login')),
      el('button', {id: 'register', type: 'button', onclick: () => account('register')}, t('register')),
      el('button', {id: 'guest', type: 'button', onclick: () => account('guest')}, t('guest')))
    auth.appendChild(form)
  }
  auth.appendChild(el('span', {id: 'auth-error', class: 'error', role: 'alert'}))
  h.appendChild(auth)
  const sel = el('select', {id: 'lang', 'aria-label': t('language'), onchange: e => {
    setLang(e.target.value)
    renderHeader()
    if (S.view) S.view.render()
  }}, el('option', {value: 'en'}, 'English'), el('option', {value: 'zh'}, '中文'))
  sel.value = getLang()
  h.appendChild(sel)
  const state = conn.ready ? 'online' : conn.ws ? 'connecting' : 'offline'
  h.appendChild(el('span', {id: 'conn', 'data-state': state}, t(state)))
}

async function account(kind) {
  const err = $('#auth-error')
  err.textContent = ''
  try {
    let ok
    if (kind === 'guest') ok = await conn.request('guest')
    else {
      const name = $('#auth-name').value.trim(), password = $('#auth-password').value
      ok = await conn.request(kind, {name, password})
    }
    saveToken(ok.token)
    S.user = ok.user
    renderHeader()
    if (S.view && S.view.userChanged) S.view.userChanged()
  } catch (e) {
    err.textContent = t('error', {message: e.message})
  }
}

async function logout() {
  try { await conn.request('logout') } catch (e) { /* the token is dropped anyway */ }
  saveToken(null)
  S.user = null
  renderHeader()
  if (S.view && S.view.userChanged) S.view.userChanged()
}

// ---------------------------------------------------------------- helpers

export function playerLink(name, attrs = {}) {
  if (!name) return el('span', attrs, '?')
  return el('a', Object.assign({href: '#/player/' + encodeURIComponent(name)}, attrs), name)
}

export function showError(node, e) {
  if (node) node.textContent = e ? t('error', {message: e.message || String(e)}) : ''
}

function summaryItem(g) {
  return el('li', {'data-game': g.id, 'data-phase': g.phase},
    el('a', {href: '#/game/' + g.id, class: 'game-link'},
      `${g.size}×${g.size} `),
    playerLink(g.black, {class: 'black-name'}), g.black_rank ? ` (${g.black_rank})` : '',
    ` ${t('vs')} `, playerLink(g.white, {class: 'white-name'}), g.white_rank ? ` (${g.white_rank})` : '',
    g.rated === false ? ' · ' + t('unrated') : '',
    ' · ', rulesName(g.rules), g.handicap ? ` · H${g.handicap}` : '',
    typeof g.moves === 'number' ? ' · ' + t('moves_n', {n: g.moves}) : '',
    g.result ? el('span', {class: 'summary-result'}, ' · ' + g.result) : '',
    ' ', el('a', {href: '#/game/' + g.id, class: 'watch'}, t('watch')))
}

// A challenge's colour as its reader sees it: the challenger's own, or the
// one an acceptor would get (under free-opening, a seat).
function colourWords(c, mine) {
  const s = c.settings || {}
  const col = s.color || 'nigiri'
  if (col === 'nigiri') return t('colours_nigiri')
  const free = /^free-opening\b/.test(s.rules || '')
  if (free) {
    const challengerFirst = col === 'white'
    return t(mine === challengerFirst ? 'fo_seat_first' : 'fo_seat_second')
  }
  if (mine) return t('you_play_ch', {colour: colourName(col)})
  return t('you_would_play', {colour: colourName(col === 'black' ? 'white' : 'black')})
}

// ---------------------------------------------------------------- lobby

function settingsFields(prefix, withAbsence) {
  const id = k => `${prefix}-${k}`
  const field = (label, input, extra = {}) =>
    el('label', Object.assign({class: 'field'}, extra), el('span', {}, label), input)

  const sizeSel = el('select', {id: id('size')},
    ['19', '13', '9', 'other'].map(v => el('option', {value: v}, v === 'other' ? t('other') : `${v}×${v}`)))
  const sizeOther = el('input', {id: id('size-other'), type: 'number', min: 2, max: 25, value: 7,
    class: 'hidden', 'aria-label': t('board_size')})
  sizeSel.addEventListener('change', () => sizeOther.classList.toggle('hidden', sizeSel.value !== 'other'))

  const rules = el('select', {id: id('rules')}, PRESETS.map(p => el('option', {value: p}, t('preset_' + p))))
  const ruleOpts = el('input', {id: id('rules-opts'), placeholder: 'ko=simple tax=seki', size: 16})
  const komi = el('input', {id: id('komi'), type: 'number', step: 0.5, placeholder: t('komi_default'), size: 6})
  const handicap = el('select', {id: id('handicap')},
    [0, 2, 3, 4, 5, 6, 7, 8, 9].map(n => el('option', {value: n}, String(n))))
  const placement = el('select', {id: id('placement')},
    el('option', {value: 'fixed'}, t('fixed')), el('option', {value: 'free'}, t('free')))

  const sys = el('select', {id: id('time-system')}, SYSTEMS.map(s => el('option', {value: s}, t('sys_' + s))))
  const num = (k, v, step = 1) => el('input', {id: id('time-' + k), type: 'number', min: 0, step, value: v, size: 5})
  const tMain = num('main', 600, 'any'), tPeriods = num('periods', 5), tPeriod = num('period', 30, 'any')
  const tStones = num('stones', 25), tInc = num('inc', 10, 'any')
  const tPass = el('input', {id: id('time-pass'), type: 'checkbox'})
  const spec = el('input', {id: id('time'), value: 'none', size: 22, spellcheck: 'false'})
  const fMain = field(t('main_s'), tMain), fPeriods = field(t('periods_n'), tPeriods)
  const fPeriod = field(t('period_s'), tPeriod), fStones = field(t('stones_n'), tStones)
  const fInc = field(t('increment_s'), tInc)
  const fPass = el('label', {class: 'field check'}, tPass, el('span', {}, t('overtime_pass')))
  function syncTime() {
    const s = sys.value
    const show = {main: s !== 'none' && s !== 'simple', periods: s === 'byoyomi',
      period: ['byoyomi', 'canadian', 'periods', 'simple'].includes(s), stones: s === 'canadian' || s === 'periods',
      inc: s === 'fischer', pass: s === 'byoyomi' || s === 'simple'}
    fMain.classList.toggle('hidden', !show.main)
    fPeriods.classList.toggle('hidden', !show.periods)
    fPeriod.classList.toggle('hidden', !show.period)
    fStones.classList.toggle('hidden', !show.stones)
    fInc.classList.toggle('hidden', !show.inc)
    fPass.classList.toggle('hidden', !show.pass)
    const m = tMain.value || 0, p = tPeriod.value || 0
    let v
    switch (s) {
      case 'absolute': v = `absolute:${m}`; break
      case 'byoyomi': v = `byoyomi:${m}+${tPeriods.value || 1}x${p}`; break
      case 'canadian': v = `canadian:${m}+${tStones.value || 1}/${p}`; break
      case 'periods': v = `periods:${m}+${tStones.value || 1}/${p}`; break
      case 'fischer': v = `fischer:${m}+${tInc.value || 0}`; break
      case 'simple': v = `simple:${p}`; break
      default: v = 'none'
    }
    if (show.pass && tPass.checked) v += ',pass'
    spec.value = v
  }
  // Sensible figures for each system when it is chosen.
  const DEFAULTS = {absolute: [300], byoyomi: [600, 5, 30], canadian: [600, 25, 600],
    periods: [3600, 15, 600], fischer: [300, 10], simple: [10]}
  sys.addEventListener('change', () => {
    const d = DEFAULTS[sys.value]
    if (!d) return
    if (sys.value === 'simple') tPeriod.value = d[0]
    else tMain.value = d[0]
    if (sys.value === 'byoyomi') { tPeriods.value = d[1]; tPeriod.value = d[2] }
    if (sys.value === 'canadian' || sys.value === 'periods') { tStones.value = d[1]; tPeriod.value = d[2] }
    if (sys.value === 'fischer') tInc.value = d[1]
  })
  for (const i of [sys, tMain, tPeriods, tPeriod, tStones, tInc, tPass]) {
    i.addEventListener('input', syncTime)
    i.addEventListener('change', syncTime)
  }

  const colour = el('select', {id: id('color')},
    ['nigiri', 'black', 'white'].map(c => el('option', {value: c}, t(c))))
  // Under free-opening the choice is of a seat: the first player sits at
  // White until the predictions decide the colours (docs/protocol.md).
  const prediction = el('input', {id: id('prediction'), type: 'number', min: 0, max: 86400, size: 6,
    placeholder: t('prediction_default')})
  const fPrediction = field(t('prediction_s'), prediction)
  const fKomi = field(t('komi'), komi), fHandicap = field(t('handicap'), handicap)
  const fPlacement = field(t('placement'), placement)
  function syncRules() {
    const free = rules.value === 'free-opening'
    for (const f of [fKomi, fHandicap, fPlacement]) f.classList.toggle('hidden', free)
    fPrediction.classList.toggle('hidden', !free)
    const names = free ? {nigiri: t('lot'), black: t('second_player'), white: t('first_player')}
      : {nigiri: t('nigiri'), black: t('black'), white: t('white')}
    for (const o of colour.options) o.textContent = names[o.value]
  }
  rules.addEventListener('change', syncRules)
  const absence = el('input', {id: id('absence'), type: 'number', min: 10, max: 86400, value: 900, size: 6})
  const rated = el('input', {id: id('rated'), type: 'checkbox', checked: true})

  const node = el('fieldset', {class: 'settings'},
    field(t('board_size'), el('span', {}, sizeSel, sizeOther)),
    field(t('rules'), rules), field(t('rule_options'), ruleOpts),
    fKomi, fHandicap, fPlacement, fPrediction,
    field(t('time'), sys), fMain, fPeriods, fPeriod, fStones, fInc, fPass,
    field(t('time_spec'), spec),
    field(t('colour'), colour),
    withAbsence ? field(t('absence'), absence) : null,
    withAbsence ? el('label', {class: 'field check', title: t('rated_help')}, rated, el('span', {}, t('rated'))) : null)
  syncTime()
  syncRules()

  function read() {
    const s = {}
    s.size = sizeSel.value === 'other' ? parseInt(sizeOther.value, 10) : parseInt(sizeSel.value, 10)
    const opts = ruleOpts.value.trim()
    s.rules = opts ? `${rules.value} ${opts}` : rules.value
    const free = rules.value === 'free-opening'
    if (!free && komi.value.trim() !== '') s.komi = parseFloat(komi.value)
    const h = parseInt(handicap.value, 10)
    if (!free && h) { s.handicap = h; s.handicap_placement = placement.value }
    if (free && prediction.value.trim() !== '') s.prediction_s = parseInt(prediction.value, 10)
    s.time = spec.value.trim() || 'none'
    s.color = colour.value
    if (withAbsence && absence.value.trim() !== '') s.absence_s = parseInt(absence.value, 10)
    if (withAbsence && !rated.checked) s.rated = false
    return s
  }
  return {node, read}
}

class LobbyView {
  constructor() {
    this.root = $('#main')
    this.subscribed = false
    this.render()
    if (conn.ready) this.connected()
    this.loadFinished()
  }

  connected() {
    conn.request('lobby.subscribe').then(() => { this.subscribed = true }).catch(e => showError($('#lobby-error'), e))
  }

  leave() {
    if (this.subscribed && conn.ready) conn.request('lobby.unsubscribe').catch(() => {})
    this.subscribed = false
  }

  userChanged() { this.render() }

  async loadFinished() {
    try {
      const r = await fetch('/api/games?state=finished')
      const j = await r.json()
      S.finished = Array.isArray(j.games) ? j.games : []
    } catch (e) {
      S.finished = []
    }
    this.renderLists()
  }

  render() {
    const root = this.root
    clear(root)
    root.dataset.view = 'lobby'
    const ch = settingsFields('ch', true)
    const opponent = el('input', {id: 'ch-opponent', maxlength: 24, size: 12})
    const chForm = el('form', {id: 'challenge-form', class: 'card', onsubmit: e => {
      e.preventDefault()
      const msg = {settings: ch.read()}
      const o = opponent.value.trim()
      if (o) msg.opponent = o
      showError($('#challenge-error'))
      conn.request('challenge.create', msg).then(ok => {
        this.mine = ok.challenge
      }).catch(err => showError($('#challenge-error'), err))
    }},
    el('h2', {}, t('new_challenge')), ch.node,
    el('label', {class: 'field'}, el('span', {}, t('opponent')), opponent),
    el('button', {id: 'ch-create', type: 'submit'}, t('create')),
    el('div', {id: 'challenge-error', class: 'error', role: 'alert'}))

    const eng = settingsFields('eng', false)
    const engineSel = el('select', {id: 'eng-engine'})
    const kind = el('select', {id: 'eng-strength-kind'},
      el('option', {value: 'playouts'}, t('playouts')), el('option', {value: 'seconds'}, t('seconds')))
    const strength = el('input', {id: 'eng-strength', type: 'number', min: 0.1, step: 'any', value: 1000, size: 7})
    kind.addEventListener('change', () => { strength.value = kind.value === 'playouts' ? 1000 : 2 })
    const engForm = el('form', {id: 'engine-form', class: 'card', onsubmit: e => {
      e.preventDefault()
      const v = parseFloat(strength.value)
      const msg = {settings: eng.read(), engine: engineSel.value,
        strength: kind.value === 'playouts' ? {playouts: Math.round(v)} : {seconds: v}}
      showError($('#engine-error'))
      conn.request('engine.play', msg).then(ok => { location.hash = '#/game/' + ok.game })
        .catch(err => showError($('#engine-error'), err))
    }},
    el('h2', {}, t('play_engine')),
    el('label', {class: 'field'}, el('span', {}, t('engine')), engineSel),
    el('label', {class: 'field'}, el('span', {}, t('strength')), el('span', {}, strength, ' ', kind)),
    eng.node,
    el('button', {id: 'eng-play', type: 'submit'}, t('play')),
    el('div', {id: 'engine-error', class: 'error', role: 'alert'}))
    this.engineSel = engineSel

    const needLogin = S.user ? null : el('p', {class: 'hint', id: 'need-login'}, t('need_login'))
    root.appendChild(el('div', {class: 'lobby'},
      el('div', {class: 'lists'},
        el('section', {class: 'card'}, el('h2', {}, t('open_challenges')), el('ul', {id: 'challenges', class: 'list'}),
          el('div', {id: 'lobby-error', class: 'error', role: 'alert'})),
        el('section', {class: 'card'}, el('h2', {}, t('live_games')), el('ul', {id: 'live-games', class: 'list'})),
        el('section', {class: 'card'}, el('h2', {}, t('finished_games')), el('ul', {id: 'finished-games', class: 'list'}))),
      el('div', {class: 'forms'}, needLogin, quickMatchCard(S.user), chForm, engForm)))
    this.renderLists()
  }

  renderLists() {
    const engines = S.lobby.engines.length ? S.lobby.engines : ['tengen']
    if (this.engineSel && this.engineSel.options.length !== engines.length) {
      const cur = this.engineSel.value
      replace(this.engineSel, engines.map(n => el('option', {value: n}, n)))
      if (engines.includes(cur)) this.engineSel.value = cur
    }
    const me = S.user && S.user.name
    const cl = $('#challenges')
    if (!cl) return
    clear(cl)
    const challenges = [...S.lobby.challenges.values()].sort((a, b) => a.id - b.id)
    if (!challenges.length) cl.appendChild(el('li', {class: 'empty'}, t('no_challenges')))
    for (const c of challenges) {
      const s = c.settings || {}
      const mine = me && c.challenger === me
      const free = /^free-opening\b/.test(s.rules || '')
      const li = el('li', {'data-challenge': c.id, 'data-challenger': c.challenger},
        playerLink(c.challenger, {class: 'challenger'}),
        c.challenger_rank ? el('span', {class: 'rank'}, ` (${c.challenger_rank})`) : '', ' · ',
        s.rated === false ? t('unrated') + ' · ' : '',
        `${s.size || 19}×${s.size || 19} · ${rulesName(s.rules)}`,
        free ? ` · ${t('komi_from_predictions')}` : s.komi !== undefined ? ` · ${t('komi')} ${s.komi}` : '',
        s.handicap ? ` · H${s.handicap}${s.handicap_placement === 'free' ? ' ' + t('free') : ''}` : '',
        ` · ${timeWords(s.time)} · `, el('span', {class: 'colour-words'}, colourWords(c, mine)),
        c.opponent ? el('span', {class: 'for'}, ' · ', t('for_player', {name: c.opponent})) : '', ' ')
      if (mine) {
        li.appendChild(el('button', {type: 'button', class: 'cancel-challenge', 'data-action': 'cancel',
          onclick: () => conn.request('challenge.cancel', {challenge: c.id})
            .catch(e => showError($('#lobby-error'), e))}, t('cancel_challenge')))
      } else if (me && (!c.opponent || c.opponent === me)) {
        li.appendChild(el('button', {type: 'button', class: 'accept-challenge', 'data-action': 'accept',
          onclick: () => conn.request('challenge.accept', {challenge: c.id})
            .then(ok => { location.hash = '#/game/' + ok.game })
            .catch(e => showError($('#lobby-error'), e))}, t('accept_challenge')))
      }
      cl.appendChild(li)
    }
    const live = $('#live-games')
    clear(live)
    const games = [...S.lobby.games.values()].filter(g => g.phase !== 'over').sort((a, b) => b.id - a.id)
    if (!games.length) live.appendChild(el('li', {class: 'empty'}, t('no_games')))
    for (const g of games) live.appendChild(summaryItem(g))
    const fin = $('#finished-games')
    clear(fin)
    if (!S.finished.length) fin.appendChild(el('li', {class: 'empty'}, t('no_games')))
    for (const g of S.finished) fin.appendChild(summaryItem(g))
  }
}

conn.on('lobby', m => {
  S.lobby.challenges = new Map((m.challenges || []).map(c => [c.id, c]))
  S.lobby.games = new Map((m.games || []).map(g => [g.id, g]))
  if (Array.isArray(m.engines)) S.lobby.engines = m.engines
  S.lobby.loaded = true
  if (S.view instanceof LobbyView) S.view.renderLists()
})

conn.on('lobby.update', m => {
  const L = S.lobby
  if (m.challenge) L.challenges.set(m.challenge.id, m.challenge)
  if (m.challenge_removed !== undefined) L.challenges.delete(m.challenge_removed)
  if (m.game) {
    const g = m.game
    const isNew = !L.games.has(g.id)
    if (g.phase === 'over') {
      L.games.delete(g.id)
      S.finished = [g, ...S.finished.filter(f => f.id !== g.id)].slice(0, 200)
    } else {
      L.games.set(g.id, g)
    }
    // A game of mine has just begun (someone accepted my challenge): go to it.
    const me = S.user && S.user.name
    if (isNew && me && g.phase !== 'over' && (g.black === me || g.white === me) &&
        S.view instanceof LobbyView) {
      location.hash = '#/game/' + g.id
    }
  }
  if (S.view instanceof LobbyView) S.view.renderLists()
})

conn.on('tournament.update', m => {
  if (S.view && S.view.tournamentUpdate) S.view.tournamentUpdate(m)
})

// ---------------------------------------------------------------- player page

class PlayerView {
  constructor(name) {
    this.name = name
    this.root = $('#main')
    this.data = null
    this.error = null
    this.render()
    fetch('/api/players/' + encodeURIComponent(name)).then(async r => {
      const j = await r.json()
      if (!r.ok) throw new Error(j.message || j.error || r.status)
      this.data = j
    }).catch(e => { this.error = e }).then(() => this.render())
  }

  render() {
    const root = this.root
    clear(root)
    root.dataset.view = 'player'
    const card = el('section', {class: 'card', id: 'player'},
      el('h2', {}, t('player'), ': ', el('span', {id: 'player-name'}, this.name)))
    if (this.error) card.appendChild(el('p', {class: 'error'}, t('error', {message: this.error.message})))
    else if (!this.data) card.appendChild(el('p', {}, t('loading')))
    else {
      const p = this.data.player || {}
      const games = this.data.games || []
      let w = 0, l = 0
      for (const g of games) {
        const r = playerResult(g, this.name)
        if (r === 'won') w++
        else if (r === 'lost') l++
      }
      const rating = p.rating
      const dl = el('dl', {class: 'player-info'},
        el('dt', {}, t('name')), el('dd', {id: 'player-kind'}, p.name || this.name, ' · ', t(p.guest ? 'guest_player' : 'registered')),
        rating ? el('dt', {}, t('rank')) : null,
        rating ? el('dd', {id: 'player-rank', 'data-rank': rating.rank, 'data-rating': rating.rating.toFixed(1)},
          rating.rank.replace('?', ''), ' · ',
          t('rating_words', {r: Math.round(rating.rating), d: Math.round(rating.deviation), n: rating.games}),
          rating.provisional ? ' · ' + t('provisional') : '') : null,
        el('dt', {}, t('games')), el('dd', {id: 'player-record', 'data-won': w, 'data-lost': l},
          t('games_played', {n: games.length, w, l})))
      card.appendChild(dl)
      if (rating && rating.history && rating.history.length) card.appendChild(ratingChart(rating.history))
      card.appendChild(el('h3', {}, t('games')))
      const ul = el('ul', {class: 'list', id: 'player-games'})
      if (!games.length) ul.appendChild(el('li', {class: 'empty'}, t('no_games')))
      for (const g of games) {
        const li = summaryItem(g)
        const r = playerResult(g, this.name)
        li.dataset.outcome = r
        li.insertBefore(el('b', {class: `outcome ${r}`}, t(r === 'draw' ? 'draw_word' : r), ' '), li.firstChild)
        ul.appendChild(li)
      }
      card.appendChild(ul)
    }
    root.appendChild(card)
  }
}

// The rating after each rated game, with its deviation as a band: SVG,
// drawn from the numbers (no library).
function ratingChart(history) {
  const NS = 'http://www.w3.org/2000/svg'
  const W = 480, H = 160, PAD = 28
  const lo = Math.min(...history.map(h => h.rating - h.deviation))
  const hi = Math.max(...history.map(h => h.rating + h.deviation))
  const x = i => PAD + (history.length > 1 ? i * (W - 2 * PAD) / (history.length - 1) : (W - 2 * PAD) / 2)
  const y = v => H - PAD - (v - lo) * (H - 2 * PAD) / Math.max(1, hi - lo)
  const svg = document.createElementNS(NS, 'svg')
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`)
  svg.setAttribute('id', 'rating-chart')
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-label', t('rating_history_label', {n: history.length,
    from: Math.round(history[0].rating), to: Math.round(history[history.length - 1].rating)}))
  const node = (name, attrs) => {
    const n = document.createElementNS(NS, name)
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v)
    svg.appendChild(n)
    return n
  }
  const band = history.map((h, i) => `${x(i)},${y(h.rating + h.deviation)}`)
    .concat(history.map((h, i) => `${x(i)},${y(h.rating - h.deviation)}`).reverse())
  node('polygon', {points: band.join(' '), class: 'rating-band'})
  node('polyline', {points: history.map((h, i) => `${x(i)},${y(h.rating)}`).join(' '), class: 'rating-line'})
  history.forEach((h, i) => node('circle', {cx: x(i), cy: y(h.rating), r: 3, class: 'rating-point', 'data-game': h.game}))
  for (const v of [lo, hi]) {
    const label = node('text', {x: 2, y: y(v) + (v === lo ? -2 : 10), class: 'rating-axis'})
    label.textContent = String(Math.round(v))
  }
  return el('figure', {class: 'rating-figure'}, el('figcaption', {}, t('rating_history')), svg)
}

// 'won', 'lost', 'draw' or 'unfinished' for `name` in a GAME_SUMMARY
function playerResult(g, name) {
  const r = g.result || ''
  if (!r) return 'unfinished'
  const side = g.black === name ? 'B' : g.white === name ? 'W' : ''
  if (/^(0|Draw|Jigo)/i.test(r)) return 'draw'
  if (!/^[BW]\+/.test(r) || !side) return 'unfinished'
  return r[0] === side ? 'won' : 'lost'
}

// ---------------------------------------------------------------- router

function route() {
  if (S.view && S.view.leave) S.view.leave()
  S.view = null
  const h = location.hash || '#/'
  let m
  if ((m = /^#\/game\/(\d+)$/.exec(h))) S.view = new GameView(parseInt(m[1], 10), {S, conn, playerLink, showError})
  else if ((m = /^#\/player\/(.+)$/.exec(h))) S.view = new PlayerView(decodeURIComponent(m[1]))
  else if (/^#\/analysis/.test(h)) S.view = analysisRoute(h, {S, conn}) || new LobbyView()
  else if (h === '#/tournaments') S.view = new TournamentsView({S, conn, showError})
  else if ((m = /^#\/tournament\/(\d+)$/.exec(h))) S.view = new TournamentView(parseInt(m[1], 10), {S, conn, playerLink, showError})
  else S.view = new LobbyView()
  document.body.dataset.route = h
  // a new view opens at its top (a game at its board), wherever the last was scrolled
  window.scrollTo(0, 0)
}

setLang(getLang())
renderHeader()
window.addEventListener('hashchange', route)
route()
conn.start()
// For tests and debugging: the page's state (read only by convention).
window.tengen = {S, conn, colourName}
