/** The bench's one HTTP client call (node:http, not fetch: fetch refuses to send the Host header that picks the site). */
import http from 'node:http'

export interface Answer {
  status: number
  cookies: string[]
  text: string
  /** Statements the request ran (`x-db-queries`, sent with SERVER_TIMING), when the server says */
  queries: number | null
}

/** One request; a body is sent as JSON. */
export function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolveCall, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: body
          ? {
              ...headers,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            }
          : headers,
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => {
          const q = res.headers['x-db-queries']
          resolveCall({
            status: res.statusCode ?? 0,
            cookies: res.headers['set-cookie'] ?? [],
            text,
            queries: typeof q === 'string' ? Number(q) : null,
          })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
