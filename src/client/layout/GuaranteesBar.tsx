/** The row of shop guarantees under the banner (e.g. "Free UK delivery over £50"). */
import { CheckIcon } from './icons.tsx'

export function GuaranteesBar({ guarantees }: { guarantees: readonly string[] }) {
  return (
    <section
      aria-label="Our guarantees"
      className="border-b border-gray-200 bg-gray-50 text-sm text-gray-800"
    >
      <ul className="mx-auto flex max-w-page flex-wrap justify-center gap-x-6 gap-y-1 px-4 py-1.5">
        {guarantees.map((g, i) => (
          <li key={i} className={`items-center gap-1.5 ${i > 0 ? 'hidden sm:flex' : 'flex'}`}>
            <CheckIcon className="text-green-700" />
            <span>{g}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
