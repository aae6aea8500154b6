/** The audio sample player, shown when the product has an mp3Link. */
export function AudioPlayer({ src }: { src: string }) {
  return (
    <figure className="mt-4" data-testid="audio-sample">
      <figcaption className="text-base font-semibold">Audio sample</figcaption>
      <audio controls preload="none" src={src} className="mt-2 w-full max-w-md">
        <a href={src}>Download the audio sample</a>
      </audio>
    </figure>
  )
}
