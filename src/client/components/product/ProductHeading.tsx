/** Title, 'As Low As' price (only above 0), short description, data sheets and audio sample. */
import type { ProductDisplaySettings, ProductView } from '../../../shared/product.ts'
import { colourWord } from '../../../shared/spelling.ts'
import { useShared } from '../../lib/shared-props.ts'
import { Price } from '../Price.tsx'
import { AudioPlayer } from './AudioPlayer.tsx'
import { DataSheets } from './DataSheets.tsx'
import { Html, useDescriptionHtml } from './Description.tsx'

export function ProductTitle({
  product,
  settings,
}: {
  product: ProductView
  settings: ProductDisplaySettings
}) {
  const locale = useShared().site?.locale
  return (
    <div>
      <h1
        className="product-title"
        style={settings.titleColour ? { color: settings.titleColour } : undefined}
      >
        {product.name}
      </h1>
      {product.asLowAs > 0 ? (
        <p className="as-low-as" data-testid="as-low-as">
          As Low As <Price amount={product.asLowAs} />
        </p>
      ) : null}
      {product.colour ? (
        <p className="mt-1 text-gray-800" data-testid="product-colour">
          {colourWord(locale)}: <span className="font-semibold">{product.colour}</span>
        </p>
      ) : null}
    </div>
  )
}

export function ProductSummary({ product }: { product: ProductView }) {
  const fill = useDescriptionHtml(product.asLowAs)
  return (
    <>
      <Html html={fill(product.shortDescription)} className="mt-3" />
      <DataSheets files={product.files} />
      {product.mp3Link ? <AudioPlayer src={product.mp3Link} /> : null}
    </>
  )
}
