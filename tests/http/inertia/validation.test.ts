import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createTestApp, inertiaHeaders, TestClient } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function formApp(options = {}) {
  return createTestApp(options, (a) => {
    a.get('/signup', (req, reply) => reply.inertia.render('Signup', { plans: ['basic'] }))
    a.post('/signup', (req, reply) => {
      req.inertia.setErrors({
        email: ['The email is required.', 'The email is invalid.'],
        'items.0.qty': 'Too many.',
      })
      return reply.inertia.back('/signup')
    })
    a.post('/login', (req, reply) => {
      req.inertia.setErrors({ email: 'Wrong password.' }, 'login')
      return reply.inertia.back('/signup')
    })
    a.get('/override', (req, reply) => reply.inertia.render('Signup', { errors: { custom: 'mine' } }))
  })
}

const referer = { referer: 'http://localhost:80/signup' }

describe('validation errors', () => {
  it('always sends errors, as {} when there are none, also on partial reloads', async () => {
    app = await formApp()
    const full = await app.inject({
      method: 'GET',
      url: '/signup',
      headers: inertiaHeaders({ version: '1' }),
    })
    expect(full.json().props.errors).toEqual({})
    const headers = inertiaHeaders({
      version: '1',
      partial: { component: 'Signup', only: ['plans'], except: ['errors'] },
    })
    const partial = await app.inject({ method: 'GET', url: '/signup', headers })
    expect(partial.json().props).toEqual({ plans: ['basic'], errors: {} })
  })

  it('carries errors through the redirect to the next page, first message per field, then forgets them', async () => {
    app = await formApp()
    const client = new TestClient(app)
    const post = await client.request({
      method: 'POST',
      url: '/signup',
      headers: { ...inertiaHeaders({ version: '1' }), ...referer },
    })
    expect(post.statusCode).toBe(303)
    expect(post.headers.location).toBe('/signup')
    const next = await client.get('/signup', inertiaHeaders({ version: '1' }))
    expect(next.json().props.errors).toEqual({ email: 'The email is required.', 'items.0.qty': 'Too many.' })
    const again = await client.get('/signup', inertiaHeaders({ version: '1' }))
    expect(again.json().props.errors).toEqual({})
  })

  it('sends all messages per field when configured', async () => {
    app = await formApp({ allErrorMessages: true })
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/signup', headers: referer })
    const next = await client.get('/signup', inertiaHeaders({ version: '1' }))
    expect(next.json().props.errors).toEqual({
      email: ['The email is required.', 'The email is invalid.'],
      'items.0.qty': ['Too many.'],
    })
  })

  it('nests errors under the error bag the visit names, including the bag "0"', async () => {
    app = await formApp()
    for (const bag of ['createUser', '0']) {
      const client = new TestClient(app)
      await client.request({
        method: 'POST',
        url: '/signup',
        headers: { ...inertiaHeaders({ version: '1', errorBag: bag }), ...referer },
      })
      const next = await client.get('/signup', inertiaHeaders({ version: '1', errorBag: bag }))
      expect(next.json().props.errors).toEqual({
        [bag]: { email: 'The email is required.', 'items.0.qty': 'Too many.' },
      })
    }
  })

  it('returns errors stored in a named bag under that name', async () => {
    app = await formApp()
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/login', headers: referer })
    const next = await client.get('/signup', inertiaHeaders({ version: '1' }))
    expect(next.json().props.errors).toEqual({ login: { email: 'Wrong password.' } })
  })

  it('lets a page override errors', async () => {
    app = await formApp()
    const res = await app.inject({
      method: 'GET',
      url: '/override',
      headers: inertiaHeaders({ version: '1' }),
    })
    expect(res.json().props.errors).toEqual({ custom: 'mine' })
  })

  it('survives the version-mismatch reload', async () => {
    app = await formApp()
    const client = new TestClient(app)
    await client.request({ method: 'POST', url: '/signup', headers: referer })
    const stale = await client.get('/signup', inertiaHeaders({ version: 'old' }))
    expect(stale.statusCode).toBe(409)
    const reload = await client.get('/signup')
    expect(reload.body).toContain('The email is required.')
  })
})
