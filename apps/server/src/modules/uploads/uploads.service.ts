import type { UploadResponse } from '@skillhive/shared/contracts/uploads';
import { ACCEPTED_IMAGE_TYPES, UPLOAD_MAX_PIXELS } from '@skillhive/shared/rules/constants';
import { UPLOAD_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import { detectImageType, isPixelLimitError, processImage, readDeclaredSize } from './image-processing.ts';
import type { ProcessingQueue } from './processing-queue.ts';
import { lockOwnerUploads, sumOwnerBytes, upsertUpload, uploadExists } from './uploads.repository.ts';
import { keyFromImageUrl, type ImageStorage } from './storage.public.ts';

const STORED_TYPE = 'image/webp';

const tooManyPixels = () => new AppError(ErrorCode.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.tooManyPixels);
const unreadable = (cause: unknown) => new AppError(ErrorCode.VALIDATION, UPLOAD_MESSAGES.unreadable, { cause });
const overQuota = () => new AppError(ErrorCode.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.quotaExceeded);

/** What bounds one user's uploads and the server's image work (UPLOAD_QUOTA_MB, UPLOAD_CONCURRENCY). */
export interface UploadLimits {
  /** Bytes of stored images a user may own; the upload that crosses it is the last one accepted. */
  quotaBytes: number;
  queue: ProcessingQueue;
  now: () => Date;
}

/**
 * Accepts an image (DESIGN §2 "images"): the type is read from the bytes, never from the name or
 * the declared type; the declared size is checked before any pixel is decoded (a picture of more
 * than 40 megapixels is refused with 413, like a file over 5 MB); a caller whose stored images
 * already fill the quota is refused with 413 before decoding too; the picture is re-encoded to WebP
 * without metadata in the bounded processing queue, recorded as the caller's upload and stored
 * under its content address.
 */
export async function uploadImage(
  db: Db,
  storage: ImageStorage,
  limits: UploadLimits,
  ownerId: string,
  bytes: Buffer,
): Promise<UploadResponse['data']> {
  const type = await detectImageType(bytes);
  if (!type || !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type)) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.unsupported);
  }

  let declared: { width: number; height: number };
  try {
    declared = await readDeclaredSize(bytes);
  } catch (error) {
    throw unreadable(error);
  }
  if (declared.width * declared.height > UPLOAD_MAX_PIXELS) throw tooManyPixels();
  // Cheap refusal before any CPU is spent; the check that counts is repeated under a lock below.
  if ((await sumOwnerBytes(db, ownerId, 'image')) >= limits.quotaBytes) throw overQuota();

  const image = await limits.queue.run(async () => {
    try {
      // limitInputPixels again: the decoder itself refuses anything the header understated.
      return await processImage(bytes, UPLOAD_MAX_PIXELS);
    } catch (error) {
      if (isPixelLimitError(error)) throw tooManyPixels();
      throw unreadable(error);
    }
  });

  // The row first, then the files: every stored file has a row the collector can find (a failed
  // write leaves an unused row it removes). Under the owner's lock, concurrent uploads of one user
  // see each other's rows, so the quota is overshot by at most the one image that crosses it.
  await db.transaction(async (tx) => {
    await lockOwnerUploads(tx, ownerId);
    if ((await sumOwnerBytes(tx, ownerId, 'image')) >= limits.quotaBytes) throw overQuota();
    await upsertUpload(tx, {
      key: image.key,
      ownerId,
      contentType: STORED_TYPE,
      width: image.width,
      height: image.height,
      bytes: image.display.length,
      createdAt: limits.now(),
    });
  });
  try {
    await storage.put(image.key, image.display, STORED_TYPE);
    await storage.put(image.thumbKey, image.thumb, STORED_TYPE);
  } catch (error) {
    throw new AppError(ErrorCode.UNAVAILABLE, 'The image could not be stored. Please try again.', { cause: error });
  }
  return {
    display_url: storage.publicUrl(image.key),
    thumb_url: storage.publicUrl(image.thumbKey),
    width: image.width,
    height: image.height,
  };
}

/**
 * Records a class material's file as its teacher's upload before its bytes are stored (decision
 * 027), under the same rules as an image: refused with 413 once the teacher's stored materials
 * reach MATERIAL_QUOTA_MB (checked under the owner's lock, so concurrent uploads overshoot it by at
 * most the one file that crosses it); the row makes the file collectable once no material uses it.
 */
export async function recordMaterialUpload(
  db: Db,
  file: { key: string; ownerId: string; contentType: string; bytes: number; quotaBytes: number; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOwnerUploads(tx, file.ownerId);
    if ((await sumOwnerBytes(tx, file.ownerId, 'material')) >= file.quotaBytes) {
      throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.materialQuotaExceeded);
    }
    await upsertUpload(tx, {
      key: file.key,
      ownerId: file.ownerId,
      contentType: file.contentType,
      // A document has no pixel size; the columns are the image's.
      width: 0,
      height: 0,
      bytes: file.bytes,
      createdAt: file.now,
    });
  });
}

/**
 * The storage key of an image URL that is one of our uploads, or null: other modules (classes)
 * store only pictures that went through uploadImage.
 */
export async function resolveUploadedImageKey(db: Db, storage: ImageStorage, url: string): Promise<string | null> {
  const key = keyFromImageUrl(url, storage);
  if (!key) return null;
  return (await uploadExists(db, key)) ? key : null;
}

/** The stored bytes of an image, for our image route. */
export async function openImage(storage: ImageStorage, key: string) {
  try {
    return await storage.get(key);
  } catch (error) {
    throw new AppError(ErrorCode.UNAVAILABLE, 'The image could not be loaded. Please try again.', { cause: error });
  }
}
