import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  IMAGE_KEY_PATTERN,
  IMMUTABLE_CACHE_CONTROL,
  isStoredKey,
  MATERIAL_KEY_PATTERN,
  UPLOAD_ROUTE_PREFIX,
  type ImageStorage,
} from './storage.public.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, R2, ...); path-style addressing is used with it. */
  endpoint?: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where browsers load objects from (a CDN or the bucket's public address); else our own route. */
  publicUrl?: string | undefined;
}

/**
 * The object name of an image: the content address itself, so `publicUrl + key` is its address.
 * A class material's file goes under `materials/`, a prefix a bucket's public read must leave out
 * (docs/OPERATIONS.md): it is served only through GET /api/materials/:id/file.
 */
export function objectKeyFor(key: string): string {
  if (MATERIAL_KEY_PATTERN.test(key)) return `materials/${key}`;
  if (!IMAGE_KEY_PATTERN.test(key)) throw new Error(`invalid image key ${key}`);
  return key;
}

/** `S3_PUBLIC_URL + key` when set (with exactly one slash between), else our own image route. */
export function s3PublicUrl(base: string | undefined, key: string): string {
  if (!base) return `${UPLOAD_ROUTE_PREFIX}${key}`;
  return `${base.replace(/\/+$/, '')}/${key}`;
}

export function createS3Client(options: S3StorageOptions): S3Client {
  return new S3Client({
    region: options.region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    // Checksums only where S3 requires them: several S3-compatible services reject the SDK's
    // newer default trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
}

function toNodeStream(body: unknown): Readable {
  if (body instanceof Readable) return body;
  if (body && typeof (body as WebReadableStream).getReader === 'function') {
    return Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  }
  throw new Error('unexpected S3 object body');
}

function isMissingObject(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}

/**
 * Images in an S3-compatible bucket (DESIGN §2 scale-out): every app instance sees the same
 * images. Objects are written with immutable caching, as our own route serves them.
 */
export function createS3Storage(options: S3StorageOptions, client: S3Client = createS3Client(options)): ImageStorage {
  return {
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKeyFor(key),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: contentType,
          CacheControl: IMMUTABLE_CACHE_CONTROL,
        }),
      );
    },
    async get(key) {
      if (!isStoredKey(key)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKeyFor(key) }));
        if (!object.Body) return null;
        return { body: toNodeStream(object.Body), size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      try {
        // S3 answers 204 for a key it does not have; some compatible services answer 404.
        await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKeyFor(key) }));
      } catch (error) {
        if (!isMissingObject(error)) throw error;
      }
    },
    publicUrl: (key) => s3PublicUrl(options.publicUrl, key),
  };
}
