import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where image bytes (and class materials' files) live. Keys are content addresses ("<sha256>.webp",
 * "m-<sha256>.pdf"), so writes are idempotent.
 */
export interface ImageStorage {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** A stream of the stored bytes, or null when the key is unknown. */
  get(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Removes the object stored under `key`; a key already gone is not an error (idempotent). */
  delete(key: string): Promise<void>;
  /** The address a browser loads the image from. */
  publicUrl(key: string): string;
}

export const UPLOAD_ROUTE_PREFIX = '/api/uploads/images/';
export const IMAGE_KEY_PATTERN = /^[a-f0-9]{64}(?:-\d+)?\.webp$/;
/**
 * A class material's file (decision 021), stored as uploaded under its content address. Never served
 * by the public image route: only GET /api/materials/:id/file reads it, for those allowed.
 */
export const MATERIAL_KEY_PATTERN = /^m-[a-f0-9]{64}\.(?:pdf|png|jpg|webp|gif)$/;
/** Any key the storage holds: an image or a material file. */
export function isStoredKey(key: string): boolean {
  return IMAGE_KEY_PATTERN.test(key) || MATERIAL_KEY_PATTERN.test(key);
}
/** Keys are content addresses, so a stored image never changes: browsers and CDNs may keep it. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Images in a local directory (UPLOAD_DIR), served by our own route. */
export function createLocalStorage(dir: string): ImageStorage {
  const fileOf = (key: string) => {
    if (!isStoredKey(key)) throw new Error(`invalid storage key ${key}`);
    return path.join(dir, key.slice(0, 2), key);
  };
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // A unique temporary name: two uploads of the same picture may be written at once.
      const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, bytes);
        await rename(tmp, file);
      } catch (error) {
        // A write cut short (disk full, file size limit) leaves no partial file behind.
        await rm(tmp, { force: true });
        throw error;
      }
    },
    async get(key) {
      if (!isStoredKey(key)) return null;
      // Open first, then measure and read through the open file: the collector may delete the
      // file at any moment, and a stream that opened a path later would fail with nobody listening.
      let file: FileHandle;
      try {
        file = await open(fileOf(key), 'r');
      } catch {
        return null;
      }
      try {
        const info = await file.stat();
        return { body: file.createReadStream(), size: info.size };
      } catch {
        await file.close();
        return null;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    publicUrl: (key) => `${UPLOAD_ROUTE_PREFIX}${key}`,
  };
}

const KEY_PROBE = '\u0000KEY\u0000';

/** The key a URL made from `template` (a URL with KEY_PROBE where the key goes) carries, or null. */
function keyFromTemplate(url: string, template: string): string | null {
  const [prefix, suffix] = template.split(KEY_PROBE) as [string, string];
  let candidate = url;
  if (prefix.startsWith('/')) {
    // Our own route: accept the path, or an absolute URL whose path it is.
    try {
      candidate = new URL(url, 'http://placeholder.invalid').pathname;
    } catch {
      return null;
    }
  }
  if (!candidate.startsWith(prefix) || !candidate.endsWith(suffix)) return null;
  const key = candidate.slice(prefix.length, candidate.length - suffix.length);
  return IMAGE_KEY_PATTERN.test(key) ? key : null;
}

/**
 * The storage key an image URL of ours points to, or null for anything else: the storage's public
 * URL (a bucket's CDN address included) or our own image route, which serves every storage.
 */
export function keyFromImageUrl(url: string, storage: ImageStorage): string | null {
  return (
    keyFromTemplate(url, storage.publicUrl(KEY_PROBE)) ?? keyFromTemplate(url, `${UPLOAD_ROUTE_PREFIX}${KEY_PROBE}`)
  );
}
