/**
 * What `react` resolves to in the component tests (vitest.config.ts, ADR 0155): the shipped
 * layer (compat.js) plus an `act`, which React exports from `react` and Preact from
 * `preact/test-utils`. Nothing else differs from what ships.
 *
 * Preact's own `act` holds every render until its callback settles. A browser renders a
 * microtask after an update (and React renders a click's update at once), so a test that clicked
 * and then waited for a timer inside one async `act` saw the page's own timers run against the old
 * DOM (a focus moved back in a `setTimeout` found nothing). Here an async callback's renders are
 * scheduled as in the browser; a synchronous callback keeps Preact's `act` as it is (everything
 * rendered, effects run, before `act` returns). Either way Preact's `act` runs the effects and
 * whatever is left when it ends.
 */
import { options } from 'preact'
import { act as preactAct } from 'preact/test-utils'
import compat from './compat.js'

export * from './compat.js'

const nextMicrotask = (render) => void Promise.resolve().then(render)

export function act(callback) {
  return preactAct(() => {
    const heldByAct = options.debounceRendering
    let held = null
    options.debounceRendering = (render) => {
      held = render
    }
    const result = callback()
    if (result && typeof result.then === 'function') {
      options.debounceRendering = nextMicrotask
      if (held) nextMicrotask(held)
    } else {
      options.debounceRendering = heldByAct
      if (held) heldByAct(held)
    }
    return result
  })
}

export default { ...compat, act }
