/**
 * The checkout page's service: where the site delivers, the delivery zone of an address, and
 * the card methods' pre-order check. Placing the order is the orders module's workflow
 * (orders/placement.workflow.ts); this service hands it the checkout's delivery rules.
 * Knows nothing of HTTP.
 */
import type { Db } from '../../db/client.ts'
import type { CartService } from '../cart/cart.service.ts'
import type { OrderPlacement, PlaceInput } from '../orders/placement.workflow.ts'
import type { Site } from '../sites/sites.service.ts'
import { deliveryCountries, zoneFor } from '../../../shared/checkout-rules.ts'

export class CheckoutService {
  constructor(
    private readonly db: Db,
    private readonly carts: CartService,
    /** The orders module's placement (the app sets it once both exist). */
    private readonly placement: () => OrderPlacement,
  ) {}

  /** The site's delivery zones (the names its delivery rates are grouped by). */
  private async zones(site: Site): Promise<string[]> {
    return [...new Set((await this.carts.rates(this.db, site.id)).map((r) => r.zone))]
  }

  /** The site's countries it delivers to (a delivery rate's zone serves them): all it offers. */
  async deliveryCountries(site: Site): Promise<Site['settings']['countries']> {
    return deliveryCountries(site.settings.countries, await this.zones(site))
  }

  /** The delivery zone serving this country (and postcode) on the site, or null. */
  async zoneOf(site: Site, country: string, postcode: string | null): Promise<string | null> {
    return zoneFor(await this.zones(site), country, postcode)
  }

  /**
   * The card's "pre-order" (§7 create-preorder-and-sagepay-session): everything placing would
   * check before the payment, nothing written but the basket's delivery zone.
   */
  prepare(input: PlaceInput) {
    return this.placement().prepare(input)
  }
}
