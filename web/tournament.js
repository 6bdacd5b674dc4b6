// tournament.js — tournaments on the page (issue 52): #/tournaments lists
// them and lets an account organise one; #/tournament/ID shows one — its
// games' settings, registration, each round's boards (links to the games),
// the standings with their tie-breaks, the crosstable and the exports —
// and gives its organiser the pairing, the round's start and the results.
// The server's tournament.* requests and /api/tournaments (docs/protocol.md).

import {el, clear, $} from './dom.js'
import {t, STRINGS} from './i18n.js'
import {rulesName, timeWords} from './count.js'

Object.assign(STRINGS.en, {
  tournaments: 'Tournaments',
  no_tournaments: 'No tournaments yet.',
  new_tournament: 'Organise a tournament',
  tour_name: 'Name',
  tour_system: 'System',
  system_mcmahon: 'McMahon', system_swiss: 'Swiss', 'system_round-robin': 'Round robin',
  tour_rounds: 'Rounds',
  tour_lateness: 'Lateness allowed (min)',
  tour_handicap: 'Handicap',
  handicap_none: 'even games', handicap_rank: 'by rank difference', handicap_mcmahon: 'by McMahon score',
  tour_create: 'Create',
  tour_state_registration: 'registration open', tour_state_running: 'under way', tour_state_finished: 'finished',
  tour_round_of: 'round {round} of {rounds}',
  tour_players_n: '{n} players',
  tour_organiser: 'organised by {name}',
  tour_games: 'Games: {size}×{size}, {rules}, {time}; a player absent {min} min after the start loses',
  tour_join: 'Register', tour_leave: 'Withdraw', tour_rank: 'Your rank (e.g. 5k, 2d)',
  tour_registered: 'You are registered.',
  tour_players: 'Players',
  tour_round: 'Round {n}',
  tour_board: 'Board', tour_black: 'Black', tour_white: 'White', tour_result: 'Result',
  tour_byes: 'Bye: {names}',
  tour_not_started: 'paired, not started',
  tour_watch: 'watch',
  tour_standings: 'Standings',
  tour_place: 'Place', tour_player: 'Player', tour_score: 'Score', tour_wins: 'Wins',
  tour_crosstable: 'Crosstable',
  tour_corrections: 'Corrections',
  tour_exports: 'Standings page · OpenGotha XML · EGF · AGA · tournament file',
  tour_organise: 'Organiser',
  tour_pair: 'Pair round {n}', tour_repair: 'Pair round {n} again',
  tour_start: 'Start round {n}: the clocks begin',
  tour_set_result: 'Enter', tour_note: 'note (for a correction)',
  result_both_lose: 'both lose (双负)', result_replay: 'replay', result_jigo: 'jigo',
  result_b_adj: 'Black wins (adjudicated)', result_w_adj: 'White wins (adjudicated)',
  result_b_forfeit: 'Black wins (forfeit)', result_w_forfeit: 'White wins (forfeit)',
  result_b_late: 'Black wins (White absent)', result_w_late: 'White wins (Black absent)',
  result_both_lose_short: 'both lose',
  tour_of_game: '{name}, round {round}, board {board}',
  tour_registration_until: 'Registration closes (optional)',
  tour_registration_closes: 'registration closes {when}',
  tour_start_at: 'or at (optional)',
  tour_begins_at: 'begins {when}',
  tour_add_engine: 'Enter an engine', tour_engine_rank: 'its rank', tour_engine_playouts: 'playouts',
  tour_engine_tag: 'engine',
  tour_manual: 'Pair by hand: a board a line, "Black - White"',
  tour_manual_byes: 'byes (names, comma-separated)',
  tour_manual_pair: 'Pair round {n} by hand',
  tour_bar: 'McMahon bar (e.g. 3d)', tour_floor: 'McMahon floor (e.g. 20k)'
})
Object.assign(STRINGS.zh, {
  tournaments: '比赛',
  no_tournaments: '还没有比赛。',
  new_tournament: '组织比赛',
  tour_name: '名称',
  tour_system: '编排制度',
  system_mcmahon: '麦克马洪制', system_swiss: '积分编排（瑞士制）', 'system_round-robin': '循环赛',
  tour_rounds: '轮数',
  tour_lateness: '迟到判负（分钟）',
  tour_handicap: '让子',
  handicap_none: '分先', handicap_rank: '按段位差', handicap_mcmahon: '按麦克马洪分',
  tour_create: '创建',
  tour_state_registration: '报名中', tour_state_running: '进行中', tour_state_finished: '已结束',
  tour_round_of: '第 {round} 轮，共 {rounds} 轮',
  tour_players_n: '{n} 名棋手',
  tour_organiser: '组织者：{name}',
  tour_games: '对局：{size}×{size}，{rules}，{time}；开赛后 {min} 分钟未到者判负',
  tour_join: '报名', tour_leave: '退出', tour_rank: '段位（如 5k、2d）',
  tour_registered: '你已报名。',
  tour_players: '棋手',
  tour_round: '第 {n} 轮',
  tour_board: '台次', tour_black: '黑方', tour_white: '白方', tour_result: '结果',
  tour_byes: '轮空：{names}',
  tour_not_started: '已编排，未开始',
  tour_watch: '观战',
  tour_standings: '名次',
  tour_place: '名次', tour_player: '棋手', tour_score: '积分', tour_wins: '胜局',
  tour_crosstable: '对阵表',
  tour_corrections: '更正记录',
  tour_exports: '名次网页 · OpenGotha XML · EGF · AGA · 比赛文件',
  tour_organise: '组织者操作',
  tour_pair: '编排第 {n} 轮', tour_repair: '重新编排第 {n} 轮',
  tour_start: '开始第 {n} 轮：开钟',
  tour_set_result: '录入', tour_note: '说明（更正时）',
  result_both_lose: '双负', result_replay: '重赛', result_jigo: '和棋',
  result_b_adj: '黑胜（裁定）', result_w_adj: '白胜（裁定）',
  result_b_forfeit: '黑胜（判负）', result_w_forfeit: '白胜（判负）',
  result_b_late: '黑胜（白方迟到）', result_w_late: '白胜（黑方迟到）',
  result_both_lose_short: '双负',
  tour_of_game: '{name}，第 {round} 轮第 {board} 台',
  tour_registration_until: '报名截止（可选）',
  tour_registration_closes: '{when} 截止报名',
  tour_start_at: '或定时开始（可选）',
  tour_begins_at: '{when} 开始',
  tour_add_engine: '加入电脑棋手', tour_engine_rank: '段位', tour_engine_playouts: '计算量（playouts）',
  tour_engine_tag: '电脑',
  tour_manual: '人工编排：每行一台，“黑方 - 白方”',
  tour_manual_byes: '轮空（姓名，逗号分隔）',
  tour_manual_pair: '人工编排第 {n} 轮',
  tour_bar: '麦克马洪上限（如 3d）', tour_floor: '麦克马洪下限（如 20k）'
})

// The results an organiser enters, as the server reads them.
const RESULTS = [
  ['B+R', () => t('black') + '+R'], ['W+R', () => t('white') + '+R'],
  ['B+A', () => t('result_b_adj')], ['W+A', () => t('result_w_adj')],
  ['B+F', () => t('result_b_forfeit')], ['W+F', () => t('result_w_forfeit')],
  ['B+L', () => t('result_b_late')], ['W+L', () => t('result_w_late')],
  ['both-lose', () => t('result_both_lose')], ['jigo', () => t('result_jigo')], ['replay', () => t('result_replay')]
]

const when = ms => new Date(ms).toLocaleString()
// the games a player was taken to (or found begun) from a tournament page
const sentTo = new Set()
// a datetime-local field's value as unix ms (0: empty)
const fieldTime = input => input.value ? new Date(input.value).getTime() || 0 : 0

function resultWords(r) {
  if (r === 'BL') return t('result_both_lose_short')
  if (r === 'replay') return t('result_replay')
  if (r === 'jigo') return t('result_jigo')
  return r || ''
}

async function getJSON(url) {
  const r = await fetch(url)
  const j = await r.json()
  if (!r.ok) throw Object.assign(new Error(j.message || r.statusText), {status: r.status})
  return j
}

function facts(x) {
  const g = x.games || {}
  return [t('system_' + x.system), t('tour_round_of', {round: x.round, rounds: x.rounds}),
    t('tour_players_n', {n: x.players}), t('tour_state_' + x.state), t('tour_organiser', {name: x.organiser})]
    .join(' · ') + (g.size ? ' · ' + `${g.size}×${g.size} ${rulesName(g.rules)}, ${timeWords(g.time)}` : '')
}

export class TournamentsView {
  constructor(ctx) {
    this.ctx = ctx
    this.root = $('#main')
    this.list = []
    this.render()
    this.load()
  }

  async load() {
    try {
      this.list = (await getJSON('/api/tournaments')).tournaments || []
    } catch (e) {
      this.ctx.showError($('#tour-error'), e)
    }
    if (this.ctx.S.view !== this) return
    this.renderList()
  }

  tournamentUpdate() { this.load() }
  userChanged() { this.render(); this.renderList() }

  render() {
    const root = this.root
    clear(root)
    root.dataset.view = 'tournaments'
    const {S, conn} = this.ctx
    const field = (label, input) => el('label', {class: 'field'}, el('span', {}, label), input)
    const name = el('input', {id: 'tour-name', maxlength: 100, size: 24, required: true})
    const system = el('select', {id: 'tour-system'},
      ['mcmahon', 'swiss', 'round-robin'].map(s => el('option', {value: s}, t('system_' + s))))
    const rounds = el('input', {id: 'tour-rounds', type: 'number', min: 1, max: 20, value: 4, size: 4})
    const size = el('select', {id: 'tour-size'}, ['19', '13', '9'].map(v => el('option', {value: v}, `${v}×${v}`)))
    const rules = el('select', {id: 'tour-rules'},
      ['chinese', 'japanese', 'korean', 'aga', 'new-zealand'].map(p => el('option', {value: p}, t('preset_' + p))))
    const time = el('input', {id: 'tour-time', value: 'byoyomi:1800+3x30', size: 20, spellcheck: 'false'})
    const late = el('input', {id: 'tour-late', type: 'number', min: 0.1, max: 1440, step: 'any', value: 15, size: 5})
    const handicap = el('select', {id: 'tour-handicap'},
      ['none', 'rank', 'mcmahon'].map(h => el('option', {value: h}, t('handicap_' + h))))
    const until = el('input', {id: 'tour-until', type: 'datetime-local'})
    const bar = el('input', {id: 'tour-bar', size: 4, placeholder: '3d'})
    const floor = el('input', {id: 'tour-floor', size: 4, placeholder: '20k'})
    const barFields = el('div', {class: 'mcmahon-only'},
      el('label', {class: 'field'}, el('span', {}, t('tour_bar')), bar),
      el('label', {class: 'field'}, el('span', {}, t('tour_floor')), floor))
    system.addEventListener('change', () => { barFields.hidden = system.value !== 'mcmahon' })
    const form = el('form', {id: 'tour-form', class: 'card', onsubmit: e => {
      e.preventDefault()
      const settings = {name: name.value.trim(), system: system.value, rounds: parseInt(rounds.value, 10),
        handicap: handicap.value,
        games: {size: parseInt(size.value, 10), rules: rules.value, time: time.value.trim() || 'none',
          absence_s: Math.round(parseFloat(late.value) * 60)}}
      if (fieldTime(until)) settings.registration_until = fieldTime(until)
      if (system.value === 'mcmahon' && bar.value.trim()) settings.bar = bar.value.trim()
      if (system.value === 'mcmahon' && floor.value.trim()) settings.floor = floor.value.trim()
      this.ctx.showError($('#tour-form-error'))
      conn.request('tournament.create', {settings})
        .then(ok => { location.hash = '#/tournament/' + ok.tournament })
        .catch(err => this.ctx.showError($('#tour-form-error'), err))
    }},
    el('h2', {}, t('new_tournament')),
    field(t('tour_name'), name), field(t('tour_system'), system), barFields, field(t('tour_rounds'), rounds),
    field(t('board_size'), size), field(t('rules'), rules), field(t('time_spec'), time),
    field(t('tour_lateness'), late), field(t('tour_handicap'), handicap),
    field(t('tour_registration_until'), until),
    el('button', {id: 'tour-create', type: 'submit'}, t('tour_create')),
    el('div', {id: 'tour-form-error', class: 'error', role: 'alert'}))
    root.appendChild(el('div', {class: 'lobby'},
      el('div', {class: 'lists'},
        el('section', {class: 'card'}, el('h2', {}, t('tournaments')), el('ul', {id: 'tournaments', class: 'list'}),
          el('div', {id: 'tour-error', class: 'error', role: 'alert'}))),
      el('div', {class: 'forms'}, S.user && !S.user.guest ? form : el('p', {class: 'hint'}, t('need_login')))))
  }

  renderList() {
    const ul = $('#tournaments')
    if (!ul) return
    clear(ul)
    if (!this.list.length) ul.appendChild(el('li', {class: 'empty'}, t('no_tournaments')))
    for (const x of [...this.list].sort((a, b) => b.id - a.id)) {
      ul.appendChild(el('li', {'data-tournament': x.id, 'data-state': x.state},
        el('a', {href: '#/tournament/' + x.id, class: 'tour-link'}, x.name), ' · ', facts(x)))
    }
  }
}

export class TournamentView {
  constructor(id, ctx) {
    this.id = id
    this.ctx = ctx
    this.root = $('#main')
    this.x = null
    this.render()
    this.load()
    if (ctx.conn.ready) this.connected()
  }

  // the lobby's messages carry tournament.update; what changed before the
  // subscription (or while the connection was down) is read once it holds
  connected() { this.ctx.conn.request('lobby.subscribe').then(() => this.load()).catch(() => {}) }
  leave() { if (this.ctx.conn.ready) this.ctx.conn.request('lobby.unsubscribe').catch(() => {}) }
  userChanged() { this.render() }
  tournamentUpdate(m) { if (m.tournament === this.id) this.load() }

  // Reads may cross (a join's answer and the lobby's update each read): the
  // answer of a read begun after another's wins, never an older one.
  async load() {
    const seq = this.readSeq = (this.readSeq || 0) + 1
    try {
      const x = (await getJSON('/api/tournaments/' + this.id)).tournament
      if (seq < (this.shownSeq || 0)) return
      this.shownSeq = seq
      this.x = x
      this.error = null
    } catch (e) {
      if (seq < (this.shownSeq || 0)) return
      this.error = e
      // the API's budget an address (many players behind one address): read again soon
      if (e.status === 429 && this.ctx.S.view === this) setTimeout(() => { if (this.ctx.S.view === this) this.load() }, 1000)
    }
    if (this.ctx.S.view !== this) return // left meanwhile: the page is another view's
    if (!this.x) return this.render()
    // a round has just begun: a player goes to the board, as in the lobby
    // (once a game; not when the page is opened on a round already begun)
    const me = this.ctx.S.user && this.ctx.S.user.name
    const x = this.x
    const rd = x && x.round ? x.rounds_list[x.round - 1] : null
    const mine = me && rd && rd.started
      ? rd.games.find(b => b.game && !b.result && (b.black === me || b.white === me)) : null
    const first = !this.loaded
    this.loaded = true
    if (mine && !sentTo.has(mine.game)) {
      sentTo.add(mine.game)
      if (!first) { location.hash = '#/game/' + mine.game; return }
    }
    this.render()
  }

  request(type, fields, errNode) {
    this.ctx.showError(errNode)
    return this.ctx.conn.request(type, Object.assign({tournament: this.id}, fields))
      .then(() => this.load())
      .catch(e => this.ctx.showError(errNode, e))
  }

  // The parts a person types into or presses are made once and kept across
  // renders (every join, pairing or result elsewhere renders the page again):
  // what was typed stays, an error stays beside its form, the focus stays,
  // and a press is not lost to a button replaced between its mouse-down and
  // mouse-up.  key names the part with what its handlers depend on.
  keep(key, make) {
    this.used.add(key)
    let node = this.kept.get(key)
    if (!node) this.kept.set(key, node = make())
    return node
  }

  render() {
    const root = this.root
    const focused = document.activeElement
    this.kept = this.kept || new Map()
    this.used = new Set()
    clear(root)
    root.dataset.view = 'tournament'
    const x = this.x
    if (!x) {
      root.appendChild(el('div', {class: 'card'}, this.error ? t('error', {message: this.error.message}) : t('connecting')))
      return
    }
    this.renderTournament(x)
    for (const key of [...this.kept.keys()]) if (!this.used.has(key)) this.kept.delete(key)
    if (focused && focused !== document.activeElement && root.contains(focused)) focused.focus()
  }

  renderTournament(x) {
    const root = this.root
    root.dataset.state = x.state
    root.dataset.round = x.round
    const {S, playerLink} = this.ctx
    const me = S.user && !S.user.guest ? S.user.name : null
    const g = x.games || {}
    const parts = [el('h1', {id: 'tour-title'}, x.name),
      el('p', {class: 'facts', id: 'tour-facts'}, facts(x)),
      el('p', {class: 'facts'}, t('tour_games', {size: g.size || 19, rules: rulesName(g.rules), time: timeWords(g.time),
        min: Math.round((g.absence_s || 900) / 60)}),
      x.registration_until ? ' · ' + t('tour_registration_closes', {when: when(x.registration_until)}) : '')]

    // registration
    const mine = me && x.players_list.find(p => p.name === me && !p.withdrawn)
    if (me && x.state !== 'finished') {
      const regErr = this.keep('reg-error', () => el('div', {id: 'tour-reg-error', class: 'error', role: 'alert'}))
      if (mine) {
        parts.push(this.keep('registered', () => el('div', {class: 'card', id: 'tour-registration'},
          el('p', {}, t('tour_registered')),
          el('button', {type: 'button', id: 'tour-leave', onclick: () => this.request('tournament.leave', {}, regErr)},
            t('tour_leave')))))
      } else {
        parts.push(this.keep('register', () => {
          const rank = el('input', {id: 'tour-rank', size: 5, placeholder: '5k', 'aria-label': t('tour_rank')})
          return el('form', {class: 'card', id: 'tour-registration', onsubmit: e => {
            e.preventDefault()
            const fields = rank.value.trim() ? {rank: rank.value.trim()} : {}
            this.request('tournament.join', fields, regErr)
          }}, el('label', {class: 'field'}, el('span', {}, t('tour_rank')), rank),
          el('button', {type: 'submit', id: 'tour-join'}, t('tour_join')))
        }))
      }
      parts[parts.length - 1].appendChild(regErr)
    }

    // the organiser's panel
    const n = x.round
    const lastRound = n ? x.rounds_list[n - 1] : null
    const organiser = me && me === x.organiser
    if (organiser && x.state !== 'finished') {
      const orgErr = this.keep('org-error', () => el('div', {id: 'tour-org-error', class: 'error', role: 'alert'}))
      const panel = el('div', {class: 'card', id: 'tour-organise'}, el('h2', {}, t('tour_organise')))
      if (lastRound && !lastRound.started) {
        panel.appendChild(this.keep(`start:${n}`, () => {
          const at = el('input', {id: 'tour-start-at', type: 'datetime-local', 'aria-label': t('tour_start_at')})
          return el('div', {class: 'round-start'},
            el('button', {type: 'button', id: 'tour-pair', onclick: () => this.request('tournament.pair', {}, orgErr)},
              t('tour_repair', {n})), ' ',
            el('button', {type: 'button', id: 'tour-start', onclick: () =>
              this.request('tournament.start', fieldTime(at) ? {at: fieldTime(at)} : {}, orgErr)}, t('tour_start', {n})),
            el('label', {class: 'field'}, el('span', {}, t('tour_start_at')), at))
        }))
      } else if (n < x.rounds) {
        panel.appendChild(this.keep(`pair:${n + 1}`, () =>
          el('button', {type: 'button', id: 'tour-pair', onclick: () => this.request('tournament.pair', {}, orgErr)},
            t('tour_pair', {n: n + 1}))))
      }
      // the organiser's own pairing of the round to come (or again, before it begins)
      if (!lastRound || !lastRound.started ? true : n < x.rounds) {
        const next = lastRound && !lastRound.started ? n : n + 1
        panel.appendChild(this.keep(`manual:${next}`, () => {
          const lines = el('textarea', {id: 'tour-manual', rows: 3, cols: 28, 'aria-label': t('tour_manual'),
            placeholder: 'ana - bo'})
          const byes = el('input', {id: 'tour-manual-byes', size: 20, 'aria-label': t('tour_manual_byes'),
            placeholder: t('tour_manual_byes')})
          return el('form', {class: 'manual-pairing', onsubmit: e => {
            e.preventDefault()
            const pairs = lines.value.split('\n').map(l => l.trim()).filter(Boolean)
              .map(l => l.split(/\s+-\s+|\s*,\s*/).map(w => w.trim()))
            const bye = byes.value.split(',').map(w => w.trim()).filter(Boolean)
            this.request('tournament.pair', {pairs, byes: bye}, orgErr)
          }}, el('label', {class: 'field'}, el('span', {}, t('tour_manual')), lines), ' ', byes, ' ',
          el('button', {type: 'submit', id: 'tour-manual-pair'}, t('tour_manual_pair', {n: next})))
        }))
      }
      // an engine of the server's table takes part
      const engines = (S.lobby && S.lobby.engines && S.lobby.engines.length) ? S.lobby.engines : ['tengen']
      panel.appendChild(this.keep(`engine:${engines.join(',')}`, () => {
        const engine = el('select', {id: 'tour-engine', 'aria-label': t('engine')}, engines.map(e => el('option', {value: e}, e)))
        const erank = el('input', {id: 'tour-engine-rank', size: 4, value: '1k', 'aria-label': t('tour_engine_rank')})
        const eplayouts = el('input', {id: 'tour-engine-playouts', type: 'number', min: 1, max: 100000, value: 1000, size: 7,
          'aria-label': t('tour_engine_playouts')})
        return el('form', {class: 'engine-entry', onsubmit: e => {
          e.preventDefault()
          this.request('tournament.join', {engine: engine.value, rank: erank.value.trim(),
            playouts: parseInt(eplayouts.value, 10) || 1000}, orgErr)
        }}, el('span', {}, t('tour_add_engine'), ' '), engine, ' ', erank, ' ', eplayouts, ' ',
        el('button', {type: 'submit', id: 'tour-engine-add'}, t('tour_join')))
      }))
      panel.appendChild(orgErr)
      parts.push(panel)
    }

    // the rounds, newest first
    for (const rd of [...x.rounds_list].reverse()) {
      const rows = rd.games.map(b => {
        const cells = [el('td', {}, String(b.board)),
          el('td', {class: 'black-name'}, playerLink(b.black)), el('td', {class: 'white-name'}, playerLink(b.white)),
          el('td', {}, b.handicap > 1 ? `H${b.handicap} · ${b.komi}` : String(b.komi)),
          el('td', {class: 'result', 'data-result': b.result}, resultWords(b.result)),
          el('td', {}, b.game ? el('a', {href: '#/game/' + b.game, class: 'watch'}, t('tour_watch')) : '')]
        if (organiser && rd.started) {
          cells.push(this.keep(`result:${rd.number}:${b.board}`, () => {
            const sel = el('select', {class: 'result-choice', 'aria-label': t('tour_result')},
              RESULTS.map(([v, words]) => el('option', {value: v}, words())))
            const note = el('input', {class: 'result-note', size: 12, placeholder: t('tour_note'), 'aria-label': t('tour_note')})
            const err = el('span', {class: 'error', role: 'alert'})
            return el('td', {}, sel, ' ', note, ' ', el('button', {type: 'button', class: 'set-result',
              onclick: () => this.request('tournament.result', {round: rd.number, board: b.board, result: sel.value,
                note: note.value.trim() || undefined}, err)}, t('tour_set_result')), err)
          }))
        }
        return el('tr', {'data-board': b.board, 'data-game': b.game || null}, cells)
      })
      parts.push(el('section', {class: 'card tour-round', 'data-round': rd.number},
        el('h2', {}, t('tour_round', {n: rd.number}), rd.started ? '' : ` (${t('tour_not_started')}` +
          (rd.start_at ? ', ' + t('tour_begins_at', {when: when(rd.start_at)}) : '') + ')'),
        el('table', {class: 'tour-table'},
          el('thead', {}, el('tr', {}, [t('tour_board'), t('tour_black'), t('tour_white'), t('komi'), t('tour_result'), '']
            .map(h => el('th', {scope: 'col'}, h)))),
          el('tbody', {}, rows)),
        rd.byes.length ? el('p', {}, t('tour_byes', {names: rd.byes.join(', ')})) : ''))
    }

    // the standings
    if (x.standings.length) {
      const tb = x.tiebreaks || []
      parts.push(el('section', {class: 'card', id: 'tour-standings'}, el('h2', {}, t('tour_standings')),
        el('table', {class: 'tour-table'},
          el('thead', {}, el('tr', {}, [t('tour_place'), t('tour_player'), t('tour_wins'), ...tb.map(s => s.toUpperCase())]
            .map(h => el('th', {scope: 'col'}, h)))),
          el('tbody', {}, x.standings.map(s => el('tr', {'data-player': s.name, 'data-place': s.place},
            el('td', {}, String(s.place)), el('td', {}, playerLink(s.name)), el('td', {class: 'wins'}, String(s.wins)),
            s.tiebreaks.map(v => el('td', {}, String(v))))))),
        el('p', {class: 'exports'}, ...['standings.html', 'opengotha.xml', 'egf.txt', 'aga.txt', 'tournament.json']
          .flatMap((f, i) => [i ? ' · ' : '', el('a', {href: `/api/tournaments/${x.id}/${f}`}, f)]))))
    }
    if (x.crosstable) {
      parts.push(el('section', {class: 'card'}, el('h2', {}, t('tour_crosstable')),
        el('pre', {id: 'tour-crosstable', class: 'crosstable'}, x.crosstable)))
    }
    if (x.corrections.length) {
      parts.push(el('section', {class: 'card', id: 'tour-corrections'}, el('h2', {}, t('tour_corrections')),
        el('ul', {}, x.corrections.map(c => el('li', {}, `${t('tour_round', {n: c.round})}, ${t('tour_board')} ${c.board}: ` +
          `${resultWords(c.from)} → ${resultWords(c.to)}`, c.note ? ` (${c.note})` : '')))))
    }
    parts.push(el('section', {class: 'card'}, el('h2', {}, t('tour_players')),
      el('ul', {id: 'tour-players', class: 'list'}, x.players_list.map(p =>
        el('li', {'data-player': p.name}, p.engine ? p.name : playerLink(p.name), ` (${p.rank})`,
          p.engine ? ` · ${t('tour_engine_tag')} (${p.engine.playouts} ${t('tour_engine_playouts')})` : '',
          p.withdrawn ? ' · ' + t('tour_leave') : '')))))
    root.appendChild(el('div', {class: 'tournament'}, parts))
  }
}
