import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

export const DISPLAY_MAX_WIDTH = 1600;
export const THUMB_WIDTH = 480;

export interface ProcessedImage {
  key: string;
  thumbKey: string;
  display: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/** The thumbnail stored beside a display image (`<sha256>.webp` → `<sha256>-480.webp`). */
export function thumbKeyOf(key: string): string {
  return key.replace(/\.webp$/, `-${THUMB_WIDTH}.webp`);
}

/**
 * libvips threads per sharp pipeline. With `pipelines` run at once (UPLOAD_CONCURRENCY), the
 * threads together stay about the number of cores, leaving the event loop and database a share.
 */
export function limitSharpThreads(pipelines: number): void {
  sharp.concurrency(Math.max(1, Math.floor(availableParallelism() / pipelines)));
}

/**
 * Re-encodes an image to WebP: orientation applied, metadata (EXIF, GPS, ICC) dropped, at most
 * 1600 px wide, plus a 480 px thumbnail. Keys are the SHA-256 of the display bytes.
 */
export async function processImage(input: Buffer, limitInputPixels: number): Promise<ProcessedImage> {
  const base = sharp(input, { limitInputPixels, failOn: 'error', animated: false }).rotate();
  const display = await base
    .clone()
    .resize({ width: DISPLAY_MAX_WIDTH, withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer({ resolveWithObject: true });
  const thumb = await base
    .clone()
    .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer();
  const hash = createHash('sha256').update(display.data).digest('hex');
  return {
    key: `${hash}.webp`,
    thumbKey: thumbKeyOf(`${hash}.webp`),
    display: display.data,
    thumb,
    width: display.info.width,
    height: display.info.height,
  };
}

/** The MIME type the bytes themselves declare (magic numbers), or null when unknown (SVG, HTML, text...). */
export async function detectImageType(bytes: Buffer): Promise<string | null> {
  const type = await fileTypeFromBuffer(bytes);
  return type?.mime ?? null;
}

/**
 * Width and height as the file's header declares them, read without decoding any pixels, so a
 * decompression bomb (a tiny file declaring a huge canvas) is measured before it can be expanded.
 */
export async function readDeclaredSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { width: metadata.width, height: metadata.height };
}

/** sharp's message when limitInputPixels stops a decode. */
export function isPixelLimitError(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}
