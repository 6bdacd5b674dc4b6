// quickmatch.js — the lobby's quick match (issue 52): the player says what
// they would play (board sizes, speeds, rated, a handicap, how far apart in
// rank), the server pairs them with another seeker (match.seek, docs/
// protocol.md) and the page goes to the game on match.found.  The seek
// belongs to this connection: it ends with it, so a reconnection shows it
// ended.

import {el, $} from './dom.js'
import {t} from './i18n.js'

// The server's standard speeds (server_quickmatch.c).
const SPEEDS = ['blitz', 'rapid', 'classical']
const SIZES = [19, 13, 9]
const GAPS = [0, 1, 2, 3, 5, 9, 40]

// What this page is seeking, across the lobby's renders.
const Q = {seeking: null, since: 0, note: '', timer: null}

let conn = null
let currentUser = () => null

// The card again where the lobby shows it.
function onChange() {
  const old = $('#quickmatch')
  const card = quickMatchCard(currentUser())
  if (old && card) old.replaceWith(card)
}

export function registerQuickMatch(c, user) {
  conn = c
  currentUser = user
  c.on('match.found', m => {
    stopWaiting('')
    location.hash = '#/game/' + m.game
  })
  c.on('match.cancelled', m => stopWaiting(t('qm_ended_' + (m.reason || 'cancelled'))))
  // a new connection: the old one's seek is gone with it
  c.on('welcome', () => { if (Q.seeking) stopWaiting(t('qm_ended_connection')) })
}

function stopWaiting(note) {
  Q.seeking = null
  Q.note = note
  if (Q.timer) clearInterval(Q.timer)
  Q.timer = null
  onChange()
}

function check(id, label, checked, attrs = {}) {
  return el('label', {class: 'field check'},
    el('input', Object.assign({id, type: 'checkbox', checked}, attrs)), el('span', {}, label))
}

function waitingCard() {
  const s = Q.seeking
  const secs = el('span', {id: 'qm-waited'}, '0')
  const tick = () => { secs.textContent = String(Math.floor((Date.now() - Q.since) / 1000)) }
  tick()
  if (Q.timer) clearInterval(Q.timer)
  Q.timer = setInterval(() => { if (document.body.contains(secs)) tick() }, 1000)
  const what = `${s.sizes.map(n => `${n}×${n}`).join(', ')} · ${s.speeds.map(v => t('qm_' + v)).join(', ')} · ` +
    (s.rated ? t('rated') : t('unrated')) + (s.rank ? ` · ${t('rank')} ${s.rank}` : '')
  return el('section', {id: 'quickmatch', class: 'card', 'data-state': 'seeking'},
    el('h2', {}, t('quick_match')),
    el('p', {class: 'hint', role: 'status'}, t('qm_waiting'), ' ', secs, ' s'),
    el('p', {class: 'hint'}, what),
    el('button', {id: 'qm-cancel', type: 'button', onclick: () => {
      conn.request('match.cancel').catch(() => {}).finally(() => stopWaiting(''))
    }}, t('qm_cancel')),
    el('div', {id: 'qm-error', class: 'error', role: 'alert'}))
}

// The quick match's card for the lobby (user: the signed-in player, or null).
export function quickMatchCard(user) {
  if (!user) { // logged out: the server dropped the seek with the session
    if (Q.timer) clearInterval(Q.timer)
    Q.seeking = null
    Q.timer = null
    return null
  }
  if (Q.seeking) return waitingCard()
  const sizes = SIZES.map(n => check(`qm-size-${n}`, `${n}×${n}`, n === 19))
  const speeds = SPEEDS.map(v => check(`qm-speed-${v}`, t('qm_' + v), v === 'rapid'))
  const rated = check('qm-rated', t('rated'), !user.guest,
    user.guest ? {disabled: true, title: t('qm_guest_unrated')} : {})
  const handicap = check('qm-handicap', t('qm_handicap'), true, {title: t('qm_handicap_help')})
  // a rated match is always even (the server rates even games only)
  const syncHandicap = () => { $('#qm-handicap', handicap).disabled = $('#qm-rated', rated).checked }
  rated.addEventListener('change', syncHandicap)
  const gap = el('select', {id: 'qm-gap'},
    GAPS.map(g => el('option', {value: g}, g === 40 ? t('qm_any_rank') : t('qm_ranks', {n: g}))))
  gap.value = '9'
  const err = el('div', {id: 'qm-error', class: 'error', role: 'alert'}, Q.note)
  const form = el('form', {id: 'quickmatch', class: 'card', 'data-state': 'idle', onsubmit: e => {
    e.preventDefault()
    const seek = {
      sizes: SIZES.filter(n => $(`#qm-size-${n}`).checked),
      speeds: SPEEDS.filter(v => $(`#qm-speed-${v}`).checked),
      rated: !user.guest && $('#qm-rated').checked,
      handicap: $('#qm-handicap').checked,
      max_rank_gap: parseInt(gap.value, 10)
    }
    if (!seek.sizes.length || !seek.speeds.length) {
      err.textContent = t('qm_choose')
      return
    }
    conn.request('match.seek', {seek}).then(ok => {
      // match.found may have come first (a seeker was waiting)
      if (location.hash.startsWith('#/game/')) return
      Q.seeking = ok.seek
      Q.since = Date.now()
      Q.note = ''
      onChange()
    }).catch(e => { err.textContent = t('error', {message: e.message}) })
  }},
  el('h2', {}, t('quick_match')),
  el('p', {class: 'hint'}, t('qm_help')),
  el('fieldset', {class: 'settings'},
    el('div', {class: 'field', role: 'group'}, el('span', {}, t('board_size')), ...sizes),
    el('div', {class: 'field', role: 'group'}, el('span', {}, t('qm_speed')), ...speeds),
    el('div', {class: 'field'}, el('span', {}, t('qm_game')), rated, handicap,
      el('label', {class: 'field'}, el('span', {}, t('qm_gap')), gap))),
  el('button', {id: 'qm-seek', type: 'submit'}, t('qm_seek')),
  err)
  syncHandicap()
  return form
}
