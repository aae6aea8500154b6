/**
 * Auth scenarios for the bench: the Log In page, and a page seen by a logged-in customer (the
 * session lookup plus the customer row behind the shared `auth.customer` prop). The customer is
 * logged in once, through the real form post, before measuring.
 */
import http from 'node:http'

interface AuthScenario {
  name: string
  url: string
  headers?: Record<string, string>
}

interface Answer {
  status: number
  location: string | undefined
  setCookie: string[]
}

/** node:http, not fetch: fetch refuses to send the Host header that picks the site. */
function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      res.resume()
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          setCookie: res.headers['set-cookie'] ?? [],
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

function remember(answer: Answer, jar: Map<string, string>) {
  for (const line of answer.setCookie) {
    const [pair] = line.split(';')
    const i = pair!.indexOf('=')
    jar.set(pair!.slice(0, i), pair!.slice(i + 1))
  }
}

/** Logs the demo customer in and returns the Cookie header of that session. */
export async function demoCustomerCookie(base: string, host: string): Promise<string> {
  const jar = new Map<string, string>()
  remember(await request(`${base}/login`, 'GET', { host, accept: 'text/html' }), jar)
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const body = JSON.stringify({ email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' })
  const res = await request(
    `${base}/login`,
    'POST',
    {
      host,
      cookie: cookie(),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    },
    body,
  )
  remember(res, jar)
  if (res.status !== 303 || res.location !== '/') throw new Error(`bench login failed: ${res.status}`)
  return cookie()
}

export async function authScenarios(
  base: string,
  host: string,
  inertiaHeaders: Record<string, string>,
): Promise<AuthScenario[]> {
  const cookie = await demoCustomerCookie(base, host)
  return [
    { name: 'login page, SSR HTML', url: `${base}/login`, headers: { host, accept: 'text/html' } },
    {
      name: 'home page, Inertia JSON, logged-in customer',
      url: `${base}/`,
      headers: { host, cookie, ...inertiaHeaders },
    },
  ]
}
