import { useState, type ImgHTMLAttributes } from 'react';

/** What stands in for a missing or broken picture: a class's artwork or a person's photo. */
export const FALLBACK_IMAGES = {
  class: '/images/class-placeholder.svg',
  avatar: '/images/avatar-default.svg',
} as const;

export type FallbackKind = keyof typeof FALLBACK_IMAGES;

interface FallbackImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'onError'> {
  /** The uploaded or provider's picture; empty or null shows the fallback at once. */
  src: string | null | undefined;
  /** Which fallback: a class image or an avatar. */
  kind?: FallbackKind;
  alt: string;
}

/**
 * Every picture people upload (class images, photos) goes through here, so a missing, deleted or
 * unreachable image looks the same on every screen: the artwork of its kind, at the
 * size the layout reserved, never the browser's broken-image icon.
 */
export function FallbackImage({ src, kind = 'class', alt, ...props }: FallbackImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const usable = src && src !== failedSrc ? src : FALLBACK_IMAGES[kind];
  return (
    <img
      {...props}
      src={usable}
      alt={alt}
      data-fallback={usable === FALLBACK_IMAGES[kind] ? kind : undefined}
      // A picture in a page rendered on the server (decision 030) may have failed before the
      // page's scripts ran, and its error event with it: a broken image is complete with no size.
      ref={(image) => {
        if (image && src && usable === src && image.complete && image.naturalWidth === 0) setFailedSrc(src);
      }}
      onError={() => {
        if (src && usable === src) setFailedSrc(src);
      }}
    />
  );
}

/**
 * A person's photo, square at `size` pixels: the avatar artwork when there is none, and no
 * referrer sent (a provider's photo host need not learn which page shows it).
 */
export function Avatar({
  size,
  alt = '',
  ...props
}: Omit<FallbackImageProps, 'kind' | 'alt'> & { size: number; alt?: string }) {
  return <FallbackImage kind="avatar" alt={alt} width={size} height={size} referrerPolicy="no-referrer" {...props} />;
}
