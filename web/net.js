// net.js — the one WebSocket connection to /ws (docs/protocol.md): requests
// with ids answered by `ok`/`error`, events dispatched by type, reconnection
// with exponential backoff.  The app says what to do on each (re)connection
// through onOpen (hello, then re-subscribing to what the view shows).

const REQUEST_TIMEOUT_MS = 15000

export class Conn {
  constructor() {
    this.ws = null
    this.nextId = 1
    this.pending = new Map()
    this.handlers = new Map()
    this.backoff = 500
    this.ready = false
    this.waiters = []
    this.onOpen = async () => {}
    this.onState = () => {}
  }

  start() { this.connect() }

  connect() {
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws'
    let ws
    try { ws = new WebSocket(url) } catch (e) { this.retry(); return }
    this.ws = ws
    this.onState('connecting')
    ws.onopen = async () => {
      this.backoff = 500
      try {
        await this.onOpen()
      } catch (e) {
        console.warn('tengen: on open', e)
      }
      if (this.ws !== ws) return
      this.ready = true
      this.onState('online')
      const w = this.waiters
      this.waiters = []
      w.forEach(f => f())
    }
    ws.onmessage = ev => {
      let m
      try { m = JSON.parse(ev.data) } catch (e) { return }
      if (!m || typeof m.type !== 'string') return
      if ((m.type === 'ok' || m.type === 'error') && this.pending.has(m.id)) {
        const p = this.pending.get(m.id)
        this.pending.delete(m.id)
        clearTimeout(p.timer)
        if (m.type === 'ok') p.resolve(m)
        else p.reject(Object.assign(new Error(m.message || m.code), {code: m.code}))
        return
      }
      this.emit(m.type, m)
    }
    ws.onclose = () => {
      if (this.ws !== ws) return
      this.ready = false
      this.ws = null
      for (const [, p] of this.pending) {
        clearTimeout(p.timer)
        p.reject(Object.assign(new Error('disconnected'), {code: 'disconnected'}))
      }
      this.pending.clear()
      this.onState('offline')
      this.retry()
    }
    ws.onerror = () => {}
  }

  retry() {
    const delay = this.backoff * (0.75 + Math.random() * 0.5)
    this.backoff = Math.min(this.backoff * 2, 15000)
    setTimeout(() => this.connect(), delay)
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, [])
    this.handlers.get(type).push(fn)
  }

  emit(type, m) {
    for (const fn of this.handlers.get(type) || []) {
      try { fn(m) } catch (e) { console.error('tengen: handler for', type, e) }
    }
  }

  // Sends a request; resolves with the `ok` message, rejects with an Error
  // carrying `code`.  Before the connection is ready (hello answered) the
  // request waits, unless opts.early (hello itself).
  async request(type, fields = {}, opts = {}) {
    if (!opts.early && !this.ready) await new Promise(r => this.waiters.push(r))
    const ws = this.ws
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      throw Object.assign(new Error('disconnected'), {code: 'disconnected'})
    }
    const id = this.nextId++
    const msg = Object.assign({type, id}, fields)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(Object.assign(new Error('no answer from the server'), {code: 'timeout'}))
      }, REQUEST_TIMEOUT_MS)
      this.pending.set(id, {resolve, reject, timer})
      ws.send(JSON.stringify(msg))
    })
  }
}
