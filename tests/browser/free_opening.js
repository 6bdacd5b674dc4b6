// free_opening.js — browser.js's game under the free-opening ruleset of
// 002 (issue 43): A opens a 9×9 challenge as the first player, B accepts;
// the four opening stones are placed by the seats 002 §5.2 names in their
// fixed colours (White, Black, White, Black); A seals W+7 after the third
// stone, and nothing B's page receives carries it until B has sealed W+8;
// the reveal gives B (who rates White higher) White, so the seats swap on
// both pages, and shows the threshold W+7.5; White moves first; in the
// corner Black takes the capture choice of 002 §4.3 with the page's box
// (B1 leaves White A1 and Black B1 C1 without liberties: Black's own go);
// both pass by 002 §7's gestures (a double tap on the board's edge, a tap
// on the prisoner pile), accept no dead stones, and the result is stated
// against the threshold ("Black wins by 3.5 stones": White 42.5 points,
// Black 38.5); the SGF records both predictions and the choice.
'use strict'

const assert = require('assert')

async function scenarioFreeOpening(base, A, B, ana, bo, h) {
  const {step, waitState, setDeadList, httpGet, openAndAccept} = h
  const framesToB = []
  let bSealed = false
  await step('free opening: B listens to every WebSocket frame it receives', async () => {
    B.on('websocket', ws => ws.on('framereceived', f => { if (!bSealed) framesToB.push(String(f.payload)) }))
    await B.goto(base + '/#/')
    await B.reload()
    await B.waitForSelector('#conn[data-state="online"]')
    await B.waitForFunction(n => { const u = document.querySelector('#user-name'); return u && u.textContent === n }, bo)
  })

  const id = await step('free opening: A opens a 9×9 challenge as the first player; B accepts', async () => {
    await A.goto(base + '/#/')
    await A.waitForSelector('#ch-rules')
    await A.selectOption('#ch-rules', 'free-opening')
    assert.ok(await A.isHidden('#ch-komi'), 'the komi field is hidden under free-opening')
    assert.strictEqual((await A.textContent('#ch-color option[value="white"]')).trim(), 'first player')
    return openAndAccept(base, A, B, ana, {select: {size: '9', rules: 'free-opening', color: 'white',
      'time-system': 'byoyomi'}})
  })
  await step('free opening: both pages open in the opening phase', async () => {
    for (const p of [A, B]) await waitState(p, '#status[data-phase="opening"]', 'the opening phase')
  })

  const place = async (page, vertex, colour) => {
    await page.waitForSelector('#board.playable')
    await page.click(`#board [data-vertex="${vertex}"]`)
    for (const p of [A, B]) await p.waitForSelector(`#board [data-stone="${vertex}"][data-color="${colour}"]`, {state: 'attached'})
  }

  await step('free opening: stone 1 (White) by A; stones 2 (Black) and 3 (White) by B', async () => {
    assert.strictEqual(await A.getAttribute('#fo-seat', 'data-seat'), 'first')
    assert.strictEqual(await B.getAttribute('#fo-seat', 'data-seat'), 'second')
    assert.ok(!(await B.$('#board.playable')), 'B may not place stone 1')
    await place(A, 'E5', 'white')
    await place(B, 'C3', 'black')
    await place(B, 'G7', 'white')
  })

  await step('free opening: A seals W+7; B sees only that A has sealed', async () => {
    await A.waitForSelector('#prediction-form')
    assert.ok(!(await B.$('#prediction-form')), 'B predicts only after the fourth stone')
    await A.waitForSelector('#fo-time-first:not(:empty)') // the prediction clock runs
    await A.selectOption('#prediction-side', 'W')
    await A.fill('#prediction-n', '7')
    await A.click('#prediction-seal')
    await waitState(A, '#prediction-mine[data-prediction="W+7"]', 'A\'s own prediction shown')
    await waitState(B, '#sealed-first[data-sealed="1"]', 'B seeing that A has sealed')
    assert.ok(!(await B.content()).includes('W+7'), 'B\'s page shows A\'s prediction')
  })

  await step('free opening: stone 4 (Black) by A; B seals W+8; nothing B received carried W+7', async () => {
    await place(A, 'D4', 'black')
    for (const p of [A, B]) await waitState(p, '#status[data-phase="prediction"]', 'the prediction phase')
    await B.waitForSelector('#prediction-form')
    const leaked = framesToB.filter(f => f.includes('W+7'))
    assert.strictEqual(leaked.length, 0, `A's prediction reached B before B sealed: ${leaked[0]}`)
    assert.ok(framesToB.some(f => f.includes('"free_opening"')), 'B received the free-opening state')
    await B.selectOption('#prediction-side', 'W')
    await B.fill('#prediction-n', '8')
    bSealed = true
    await B.click('#prediction-seal')
  })

  await step('free opening: the reveal — B takes White, the seats swap, threshold W+7.5', async () => {
    for (const p of [A, B]) {
      await waitState(p, '#status[data-phase="play"][data-to-move="white"]', 'play with White to move')
      await waitState(p, '#threshold[data-threshold="W+7.5"]', 'the threshold')
      assert.strictEqual(await p.getAttribute('#predictions', 'data-first'), 'W+7')
      assert.strictEqual(await p.getAttribute('#predictions', 'data-second'), 'W+8')
      assert.strictEqual(await p.getAttribute('#fo-first-colour', 'data-colour'), 'black')
      assert.ok((await p.textContent('#name-white')).includes(bo), `${p.label}: White is ${bo}`)
    }
    assert.strictEqual(await A.getAttribute('#status', 'data-you'), 'black')
    assert.strictEqual(await B.getAttribute('#status', 'data-you'), 'white')
  })

  await step('free opening: Black takes the capture choice with the page\'s box; its own B1 and C1 go, White A1 stays', async () => {
    const moves = [[B, 'A1', 'white'], [A, 'A2', 'black'], [B, 'B2', 'white'], [A, 'C1', 'black'],
      [B, 'C2', 'white'], [A, 'H8', 'black'], [B, 'D1', 'white']]
    for (const [page, v, colour] of moves) await place(page, v, colour)
    assert.ok(await B.isHidden('#own-capture-box') === false, 'White\'s page offers the capture choice')
    await A.waitForSelector('#board.playable')
    await A.check('#own-capture')
    await A.click('#board [data-vertex="B1"]')
    for (const p of [A, B]) {
      await waitState(p, '#moves li:last-child[data-move="B1"]', 'move 12 at B1')
      await p.waitForSelector('#board [data-stone="C1"]', {state: 'detached'})
      assert.ok(!(await p.$('#board [data-stone="B1"]')), `${p.label}: B1 stayed`)
      assert.ok(await p.$('#board [data-stone="A1"][data-color="white"]'), `${p.label}: A1 was taken`)
      assert.ok((await p.textContent('#moves li:last-child')).includes('(own)'))
    }
    assert.strictEqual(await A.isChecked('#own-capture'), false, 'the box is for one move')
  })

  await step('free opening: the gestures of 002 §7 — White double-taps the board\'s edge, Black taps its prisoner pile: both pass', async () => {
    await B.waitForSelector('#fo-gestures')
    await B.waitForSelector('#pass:not([disabled])')
    await B.dblclick('#board rect.wood', {position: {x: 4, y: 4}})
    await waitState(A, '#status[data-to-move="black"][data-you="black"]', 'Black to move after White\'s gesture')
    assert.strictEqual(await A.getAttribute('#moves li:last-child', 'data-move'), 'pass')
    await A.waitForSelector('#pass:not([disabled])')
    await A.click('#pile-black')
  })

  await step('free opening: no dead stones: Black wins by 3.5 stones', async () => {
    for (const p of [A, B]) await waitState(p, '#status[data-phase="removal"]', 'stone removal')
    await setDeadList(A, 'black', [])
    await setDeadList(B, 'white', [])
    await A.click('#accept')
    await waitState(B, '#stated-black[data-stated="1"]', 'B seeing that Black has accepted')
    await B.click('#accept')
    for (const p of [A, B]) {
      await waitState(p, '#result[data-result="B+3.5"]', 'B+3.5 against the threshold')
      assert.strictEqual((await p.textContent('#result-text')).trim(), 'Black wins by 3.5 stones')
    }
  })

  await step('free opening: the SGF records the opening, both predictions and the threshold', async () => {
    const r = await httpGet(`${base}/api/games/${id}/sgf`)
    assert.strictEqual(r.status, 200)
    for (const prop of ['RU[free-opening]', 'PF[W+7]', 'PS[W+8]', 'FC[B]', 'KM[-7.5]', ';W[ee]', ';B[cg]', ';W[gc]', ';B[df]',
      ';B[bi]CC[own]'])
      assert.ok(r.body.includes(prop), `the SGF lacks ${prop}: ${r.body}`)
  })
}

module.exports = {scenarioFreeOpening}
