/**
 * The payment simulators as a process of their own (`npm run simulators`; ADR 0195): one simulator
 * service that several shop instances point at with PAYMENTS_SIMULATOR_URL, so a payment started
 * through one instance is the same provider record on every other (the state stays in this
 * process's memory). Listens on PAYMENTS_SIMULATOR_HOST:PAYMENTS_SIMULATOR_PORT (127.0.0.1:3100 by
 * default); PAYMENTS_SIMULATOR_PUBLIC_URL is the origin the browser reaches it at behind a proxy.
 *
 * It starts with no Amazon Pay merchant key: each shop instance registers the public half of its
 * own at start (POST /__sim/control/amazon-keys). Closes cleanly on SIGTERM/SIGINT.
 */
import { ConfigError, loadSimulatorServiceSettings } from '../server/config.ts'
import { startSimulators } from './index.ts'

let settings: ReturnType<typeof loadSimulatorServiceSettings>
try {
  settings = loadSimulatorServiceSettings()
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}

let simulators: Awaited<ReturnType<typeof startSimulators>>
try {
  simulators = await startSimulators({
    host: settings.host,
    port: settings.port,
    ...(settings.publicUrl ? { publicOrigin: settings.publicUrl } : {}),
  })
} catch (err) {
  // A port in use or a host not on this machine: one line, as for a configuration error.
  const { code, message } = err as NodeJS.ErrnoException
  console.error(`payment simulators: cannot listen on ${settings.host}:${settings.port} (${code ?? message})`)
  process.exit(1)
}
const shown = simulators.publicOrigin === simulators.origin ? '' : ` (browser: ${simulators.publicOrigin})`
console.log(`payment simulators listening on ${simulators.origin}${shown} (test mode: no real payments)`)

let closing = false
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return
    closing = true
    simulators.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('payment simulators: close failed', err)
        process.exit(1)
      },
    )
  })
}
