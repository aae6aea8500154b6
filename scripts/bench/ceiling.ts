/** The machine's ceiling for the benchmark: a bare Fastify route with no plugins. */
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/', async () => ({ ok: true }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 4311) })
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
