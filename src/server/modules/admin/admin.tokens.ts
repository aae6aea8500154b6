/** Back-office tokens: created by the CLI or the back office, shown once, stored hashed, one site each, revocable. */
import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { sites } from '../sites/sites.tables.ts'
import { adminTokens } from './admin.tables.ts'

const PREFIX = 'shop_adm_'

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export type TokenCheck =
  | { ok: true; tokenId: number; siteId: number; name: string }
  | { ok: false; reason: 'missing' | 'unknown' | 'revoked' }

export class AdminTokens {
  constructor(private readonly db: Executor) {}

  /** Creates a token for the site with this host or code; returns the token (shown once). */
  async create(site: string, name: string): Promise<{ id: number; token: string; siteId: number }> {
    const [row] = await this.db
      .select({ id: sites.id })
      .from(sites)
      .where(eq(site.includes('.') || site === 'localhost' ? sites.host : sites.code, site))
    if (!row) throw new Error(`No site with host or code '${site}'.`)
    const token = PREFIX + randomBytes(32).toString('base64url')
    const [created] = await this.db
      .insert(adminTokens)
      .values({ siteId: row.id, name, tokenHash: hashToken(token) })
      .returning({ id: adminTokens.id })
    return { id: created!.id, token, siteId: row.id }
  }

  async revoke(id: number): Promise<boolean> {
    const rows = await this.db
      .update(adminTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(adminTokens.id, id), isNull(adminTokens.revokedAt)))
      .returning({ id: adminTokens.id })
    return rows.length > 0
  }

  list() {
    return this.db
      .select({
        id: adminTokens.id,
        site: sites.host,
        name: adminTokens.name,
        createdAt: adminTokens.createdAt,
        lastUsedAt: adminTokens.lastUsedAt,
        revokedAt: adminTokens.revokedAt,
      })
      .from(adminTokens)
      .innerJoin(sites, eq(sites.id, adminTokens.siteId))
      .orderBy(desc(adminTokens.id))
  }

  /** Checks an `Authorization: Bearer …` header value. */
  async check(header: string | undefined): Promise<TokenCheck> {
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? '')
    if (!match) return { ok: false, reason: 'missing' }
    const [row] = await this.db
      .select({
        id: adminTokens.id,
        siteId: adminTokens.siteId,
        name: adminTokens.name,
        revokedAt: adminTokens.revokedAt,
      })
      .from(adminTokens)
      .where(eq(adminTokens.tokenHash, hashToken(match[1]!)))
    if (!row) return { ok: false, reason: 'unknown' }
    if (row.revokedAt) return { ok: false, reason: 'revoked' }
    await this.db.update(adminTokens).set({ lastUsedAt: new Date() }).where(eq(adminTokens.id, row.id))
    return { ok: true, tokenId: row.id, siteId: row.siteId, name: row.name }
  }
}
