import type { Env } from '../../env.ts';
import { createS3Storage } from './s3-storage.ts';
import { createLocalStorage, type ImageStorage } from './storage.public.ts';

/** Local directory by default; an S3-compatible bucket when S3_BUCKET is set (DESIGN §2, §5). */
export function createStorage(env: Env): ImageStorage {
  if (env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) {
    return createS3Storage({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      publicUrl: env.S3_PUBLIC_URL,
    });
  }
  return createLocalStorage(env.uploadDir);
}
