/** The row of shop guarantees under the banner (e.g. "Free UK delivery over £50"). */
import { CheckIcon } from './icons.tsx'

export function GuaranteesBar({ guarantees }: { guarantees: readonly string[] }) {
  return (
    <section aria-label="Our guarantees" className="grt">
      <ul className="grt-list">
        {guarantees.map((g, i) => (
          <li key={i}>
            <CheckIcon />
            <span>{g}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
