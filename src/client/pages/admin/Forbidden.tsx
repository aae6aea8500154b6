/** Back office: a page the role may not see (403), or an order that does not exist (404). */
import { Head, Link } from '@inertiajs/react'
import AdminLayout from '../../admin/AdminLayout.tsx'

export default function Forbidden({ message, title }: { message: string; title?: string }) {
  const heading = title ?? 'Not allowed'
  return (
    <div>
      <Head title={`${heading} - Shop back office`} />
      <h1 className="text-xl font-semibold">{heading}</h1>
      <p className="mt-3">{message}</p>
      <p className="mt-4">
        <Link href="/admin/orders" className="underline">
          Back to orders
        </Link>
      </p>
    </div>
  )
}

Forbidden.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
