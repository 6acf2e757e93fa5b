import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_MAX_BYTES, UPLOAD_FIELD } from '@skillhive/shared/rules/constants';
import { UploadResponse } from '@skillhive/shared/contracts/uploads';
import { UPLOAD_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, notFound } from '../../lib/app-error.ts';
import { viewerOf } from '../../lib/authorize.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import { IMAGE_KEY_PATTERN, IMMUTABLE_CACHE_CONTROL, type ImageStorage } from './storage.public.ts';
import { openImage, uploadImage, type UploadLimits } from './uploads.service.ts';

/** Image uploads and our image route (DESIGN §1.11, §2). */
export async function uploadsRoutes(
  app: FastifyInstance,
  opts: { db: Db; storage: ImageStorage; limits: UploadLimits; uploadsPerUser: Limiter },
) {
  const { db, storage, limits, uploadsPerUser } = opts;

  // Registered in this plugin's scope only: no other route accepts multipart bodies.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024, headerPairs: 50 },
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/uploads/images',
    {
      config: { access: 'signed-in', errors: [400, 413, 415, 429, 503] },
      schema: {
        tags: ['uploads'],
        operationId: 'uploadImage',
        summary: `Upload a JPEG, PNG, WebP, GIF or AVIF image (multipart field "${UPLOAD_FIELD}", at most 5 MB and 40 megapixels); stored re-encoded as WebP. Per user: a rate limit (429) and a storage quota (413); a full processing queue answers 503 with Retry-After (any signed-in user)`,
        consumes: ['multipart/form-data'],
        response: { 200: UploadResponse },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      // Counted before the body is read: every attempt costs the server, accepted or not.
      await uploadsPerUser.consume(viewer.id);
      if (!request.isMultipart()) {
        throw new AppError(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          `Send the image as multipart/form-data in the field "${UPLOAD_FIELD}"`,
        );
      }
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== UPLOAD_FIELD) {
          throw new AppError(ErrorCode.VALIDATION, UPLOAD_MESSAGES.missing, {
            fields: { [UPLOAD_FIELD]: UPLOAD_MESSAGES.missing },
          });
        }
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.tooLarge);
        }
        throw error;
      }
      if (bytes.length === 0) {
        throw new AppError(ErrorCode.VALIDATION, UPLOAD_MESSAGES.missing, {
          fields: { [UPLOAD_FIELD]: UPLOAD_MESSAGES.missing },
        });
      }
      return { success: true as const, data: await uploadImage(db, storage, limits, viewer.id, bytes) };
    },
  );

  typed.get(
    '/api/uploads/images/:key',
    {
      config: { access: 'public', errors: [503] },
      schema: {
        tags: ['uploads'],
        operationId: 'getImage',
        summary: 'The bytes of an uploaded image (WebP), cacheable forever (public)',
        params: z.object({ key: z.string().max(100) }),
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      if (!IMAGE_KEY_PATTERN.test(key)) throw notFound('Image');
      const image = await openImage(storage, key);
      if (!image) throw notFound('Image');
      reply
        .header('content-type', 'image/webp')
        .header('cache-control', IMMUTABLE_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff');
      if (image.size > 0) reply.header('content-length', String(image.size));
      return reply.send(image.body);
    },
  );
}
