/** Step 1 (§2): the payment method, chosen by radio; sagepay is the default. */
import type { CheckoutPageProps } from '../../shared/checkout.ts'

export function PaymentMethodStep({
  methods,
  provider,
  onChoose,
  error,
}: {
  methods: CheckoutPageProps['paymentMethods']
  provider: string
  onChoose: (id: string) => void
  error: React.ReactNode
}) {
  return (
    <fieldset>
      <legend className="sr-only">Payment method</legend>
      {methods.map((m) => (
        <label key={m.id} className="flex items-start gap-2 py-1">
          <input
            type="radio"
            name="payment_method"
            value={m.id}
            checked={provider === m.id}
            onChange={() => onChoose(m.id)}
          />
          {m.img ? (
            <img src={m.img} alt={m.label} className="h-6 w-auto shrink-0" width={60} height={24} />
          ) : null}
          <span>
            <span className="font-medium">{m.label}</span>
            {m.detail ? <span className="block text-sm text-gray-700">{m.detail}</span> : null}
          </span>
        </label>
      ))}
      {error}
    </fieldset>
  )
}
