// clock.js — both clocks counted down locally from the server's CLOCK
// object (docs/protocol.md), and the byo-yomi countdown calls of R2 as they
// fall due.  The server alone decides a loss on time: this is display.

// A --time SPEC into milliseconds: none | absolute:300 | byoyomi:600+5x30 |
// canadian:600+25/600 | periods:3600+15/600 | fischer:300+10[max600] |
// simple:10, with ",pass" after byoyomi and simple.
export function parseTimeSpec(spec) {
  const tc = {system: 'none', main: 0, period: 0, periods: 0, stones: 0, inc: 0, cap: 0, pass: false}
  if (!spec || typeof spec !== 'string') return tc
  let s = spec.trim()
  if (s.endsWith(',pass')) { tc.pass = true; s = s.slice(0, -5) }
  const [sys, arg = ''] = s.split(':')
  const sec = x => Math.round(parseFloat(x) * 1000) || 0
  tc.system = sys
  let m
  switch (sys) {
    case 'absolute': tc.main = sec(arg); break
    case 'simple': tc.period = sec(arg); tc.periods = 1; break
    case 'byoyomi':
      if ((m = /^([\d.]+)\+(\d+)x([\d.]+)$/.exec(arg))) {
        tc.main = sec(m[1]); tc.periods = +m[2]; tc.period = sec(m[3])
      }
      break
    case 'canadian': case 'periods':
      if ((m = /^([\d.]+)\+(\d+)\/([\d.]+)$/.exec(arg))) {
        tc.main = sec(m[1]); tc.stones = +m[2]; tc.period = sec(m[3])
      }
      break
    case 'fischer':
      if ((m = /^([\d.]+)\+([\d.]+)(?:max([\d.]+))?$/.exec(arg))) {
        tc.main = sec(m[1]); tc.inc = sec(m[2]); tc.cap = m[3] ? sec(m[3]) : 0
      }
      break
    default: tc.system = 'none'
  }
  return tc
}

// R2's calls for a period of periodMs (as tengen's tg_byoyomi_next_call):
// seconds-used calls when 30, 20, 10, 5 and 2 s remain (last period: 30, 20,
// 10), then in the last period the count k when 10 - k s remain.
export function byoyomiCalls(periodMs, last) {
  const calls = []
  for (const r of last ? [30, 20, 10] : [30, 20, 10, 5, 2]) {
    const at = periodMs - r * 1000
    if (at > 0) calls.push({at_ms: at, number: Math.round(at / 1000), count: false})
  }
  if (last) {
    for (let k = 1; k <= 10; k++) {
      const at = periodMs - (10 - k) * 1000
      if (at > 0) calls.push({at_ms: at, number: k, count: true})
    }
  }
  return calls.sort((a, b) => a.at_ms - b.at_ms)
}

export function formatMs(ms) {
  ms = Math.max(0, ms)
  const total = Math.ceil(ms / 1000)
  const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, s = total % 60
  const ss = String(s).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

export class GameClock {
  constructor() {
    this.clock = null
    this.tc = parseTimeSpec('none')
    this.at = 0
    this.fired = new Set()
    this.lastUsed = -1
    this.lastKey = ''
  }

  // A new CLOCK object from the server, received now.
  set(clock, spec, stopped) {
    this.clock = clock || null
    this.tc = parseTimeSpec(spec)
    this.at = performance.now()
    this.stopped = !!stopped
    this.lastUsed = -1
    this.lastKey = ''
  }

  // What colour's clock shows now: {text, ms, overtime, periods, stones, running, low}.
  view(colour, now = performance.now()) {
    const c = this.clock, tc = this.tc
    if (!c || tc.system === 'none' || !c[colour]) return {text: '', ms: 0, running: false, none: true}
    const p = c[colour]
    const running = !this.stopped && !c.paused && c.running === colour
    const e = running ? now - this.at : 0
    let main = p.main_ms || 0
    let overtime = !!p.overtime
    let periodLeft = p.period_ms || 0
    let periods = p.periods || 0
    let stones = p.stones || 0
    let rolled = 0
    let x = e
    if (!overtime) {
      if (tc.system === 'simple') {
        overtime = true; periodLeft = p.period_ms || tc.period; periods = 1
      } else if (x < main || !['byoyomi', 'canadian', 'periods'].includes(tc.system)) {
        main = Math.max(0, main - x); x = 0
      } else {
        x -= main; main = 0; overtime = true
        periodLeft = tc.period
        periods = tc.periods
        stones = tc.stones
      }
    }
    if (overtime) {
      if (tc.system === 'byoyomi' || tc.system === 'simple') {
        if (!periods && running) periods = 1
        while (x >= periodLeft && periods > 1) { x -= periodLeft; periods--; rolled++; periodLeft = tc.period }
      }
      periodLeft = Math.max(0, periodLeft - x)
    }
    const ms = overtime ? periodLeft : main
    let text
    if (!overtime) {
      text = formatMs(main)
      if (tc.system === 'byoyomi') text += ` +${tc.periods}×${Math.round(tc.period / 1000)}s`
      else if (tc.system === 'canadian' || tc.system === 'periods') text += ` +${tc.stones}/${formatMs(tc.period)}`
    } else if (tc.system === 'byoyomi' || tc.system === 'simple') {
      text = `${formatMs(periodLeft)} (${periods})`
    } else {
      text = `${formatMs(periodLeft)} /${stones}`
    }
    return {text, ms, overtime, periods, stones, running, rolled,
      usedInPeriod: overtime ? (tc.period || periodLeft) - periodLeft : -1,
      low: overtime ? periodLeft < 10000 : main < 10000 && !['byoyomi', 'canadian', 'periods'].includes(tc.system)}
  }

  // The byo-yomi calls due since the last call of this function for the
  // running player: [{number, count}].
  dueCalls(now = performance.now()) {
    const c = this.clock
    if (!c || this.stopped || c.paused || !c.running) return []
    if (this.tc.system !== 'byoyomi' && this.tc.system !== 'simple') return []
    const v = this.view(c.running, now)
    if (!v.overtime) return []
    const key = `${c.running}:${v.periods}`
    if (key !== this.lastKey) {
      // A new period: calls from its start (or, at the first tick after a
      // message, from the time already used, so old calls are not repeated).
      this.lastUsed = this.lastKey === '' ? v.usedInPeriod - 1 : -1
      this.lastKey = key
    }
    const calls = (v.rolled === 0 && Array.isArray(c.calls) && c.calls.length)
      ? c.calls : byoyomiCalls(this.tc.period || v.ms, v.periods <= 1)
    const due = calls.filter(k => k.at_ms > this.lastUsed && k.at_ms <= v.usedInPeriod)
    this.lastUsed = v.usedInPeriod
    return due.map(k => ({number: k.number, count: !!k.count, colour: c.running}))
  }
}
