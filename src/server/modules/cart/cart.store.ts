/**
 * What every part of the basket works on: the database, this instance's caches (cart.caches.ts)
 * and the builders' design copier the basket was given (cart.types.ts `DesignCopier`). One per
 * `CartService`; the parts are functions that take it first.
 */
import type { Db } from '../../db/client.ts'
import type { BasketCaches } from './cart.caches.ts'
import { cartWithLinesRead } from './cart.lines.ts'
import type { DesignCopier } from './cart.types.ts'

export class BasketStore {
  /** The Cart page's read, built and named once (PostgreSQL plans it once per connection). */
  private pageRead?: ReturnType<typeof cartWithLinesRead>

  constructor(
    readonly db: Db,
    readonly caches: BasketCaches,
    readonly copyDesigns: DesignCopier,
  ) {}

  cartPageRead(): ReturnType<typeof cartWithLinesRead> {
    this.pageRead ??= cartWithLinesRead(this.db)
    return this.pageRead
  }
}
