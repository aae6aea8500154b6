/** A basket's payment attempts are one "order" for the payment service: `basket:<cart id>`. */
export const BASKET_ORDER_PREFIX = 'basket:'

export const basketOrderRef = (cartRef: string) => `${BASKET_ORDER_PREFIX}${cartRef}`
