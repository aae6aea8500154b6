/**
 * A local stand-in for Ideal Postcodes' address search: `GET /v1/addresses?api_key=&query=&limit=`
 * answering the provider's JSON (`{ result: { hits, page, limit, total }, code: 2000, message }`)
 * from a few PAF-shaped addresses, and its errors (`401 { code: 4010 }` for a wrong key,
 * `402 { code: 4020 }` once the balance is used up, 404 for other paths). A query matches when
 * every word is in the address; `delayMs` makes it slow (time-out tests).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { IdealPostcodesAddress } from '../../src/server/modules/checkout/ideal-postcodes.ts'

export const STANDIN_ADDRESSES: IdealPostcodesAddress[] = [
  {
    id: 'paf_23747771',
    udprn: 23747771,
    postcode: 'SW1A 2AA',
    post_town: 'LONDON',
    line_1: 'Prime Minister & First Lord of the Treasury',
    line_2: '10 Downing Street',
    line_3: '',
    organisation_name: 'Prime Minister & First Lord of the Treasury',
    county: 'London',
    country: 'England',
  },
  {
    id: 'paf_8387729',
    udprn: 8387729,
    postcode: 'ID1 1QD',
    post_town: 'LONDON',
    line_1: 'Kingsley Hall',
    line_2: 'Powis Road',
    line_3: '',
    organisation_name: '',
    county: 'London',
    country: 'England',
  },
  {
    id: 'paf_52101011',
    udprn: 52101011,
    postcode: 'NE1 4ST',
    post_town: 'NEWCASTLE UPON TYNE',
    line_1: '3 Grey Street',
    line_2: '',
    line_3: '',
    organisation_name: '',
    county: 'Tyne and Wear',
    country: 'England',
  },
  {
    id: 'paf_11000001',
    udprn: 11000001,
    postcode: 'EH1 1YZ',
    post_town: 'EDINBURGH',
    line_1: 'Flat 2',
    line_2: '5 Royal Mile',
    line_3: 'Old Town',
    organisation_name: '',
    county: 'Midlothian',
    country: 'Scotland',
  },
]

export class IdealPostcodesStandIn {
  readonly apiKey = 'ak_standin_test_key'
  readonly requests: URL[] = []
  balance = Infinity
  delayMs = 0
  private server: Server | null = null
  url = ''

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://standin')
      this.requests.push(url)
      const send = (status: number, body: unknown) => {
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json' })
          res.end(JSON.stringify(body))
        }, this.delayMs)
      }
      if (req.method !== 'GET' || url.pathname !== '/v1/addresses')
        return send(404, { code: 4040, message: 'Resource not found' })
      if (url.searchParams.get('api_key') !== this.apiKey)
        return send(401, { code: 4010, message: 'Invalid Key. Provided api_key is not valid' })
      if (this.balance <= 0)
        return send(402, { code: 4020, message: 'Key Balance Depleted. Top up to continue' })
      this.balance -= 1
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 10) || 10)
      const words = (url.searchParams.get('query') ?? '').toLowerCase().split(/\s+/).filter(Boolean)
      const hits = STANDIN_ADDRESSES.filter((a) => {
        const hay = Object.values(a).join(' ').toLowerCase()
        return words.every((w) => hay.includes(w))
      })
      return send(200, {
        result: { hits: hits.slice(0, limit), page: 0, limit, total: hits.length },
        code: 2000,
        message: 'Success',
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  async stop() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }
}
