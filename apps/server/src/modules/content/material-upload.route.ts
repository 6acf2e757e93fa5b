import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import { ClassMaterial } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES, MATERIAL_FILE_FIELD } from '@skillhive/shared/rules/content';
import { MaterialFileFormBody } from '@skillhive/shared/rules/content-forms';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import { viewerOf } from '../../lib/authorize.ts';
import * as content from './content.service.ts';

/** POST /api/classes/:id/materials/file, the content module's one multipart route (decision 021). */
export async function materialUploadRoute(app: FastifyInstance, deps: content.ContentDeps) {
  const tags = ['content'];
  // Multipart only here, in a scope of its own: no other route of this module accepts it.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: deps.materialMaxBytes, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 50 },
    });
    const scoped = scope.withTypeProvider<ZodTypeProvider>();
    scoped.post(
      '/api/classes/:id/materials/file',
      {
        config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409, 413, 415, 429, 503] },
        schema: {
          tags,
          operationId: 'uploadMaterialFile',
          summary: `Upload a PDF or an image (PNG, JPEG, WebP, GIF) as a draft material: multipart with the field "title" first and the file in "${MATERIAL_FILE_FIELD}"; the type is read from the bytes (a program renamed .pdf is refused, 415), at most MATERIAL_MAX_MB (413); per teacher a rate limit (429) and a storage quota (413); refused before anything is stored (its teacher only)`,
          consumes: ['multipart/form-data'],
          params: IdParam,
          response: { 201: ClassMaterial },
        },
      },
      async (request, reply) => {
        const viewer = viewerOf(request);
        // Refused before a byte of the file is read.
        await content.assertTeachesClass(deps, viewer, request.params.id);
        // Counted before the body is read, as for images (decision 027).
        await deps.materialUploadsPerUser.consume(viewer.id);
        if (!request.isMultipart()) {
          throw new AppError(
            ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            `Send the file as multipart/form-data in the field "${MATERIAL_FILE_FIELD}"`,
          );
        }
        let title: unknown;
        let upload: { fileName: string; bytes: Buffer } | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field' && part.fieldname === 'title') title = part.value;
            else if (part.type === 'file' && part.fieldname === MATERIAL_FILE_FIELD && !upload) {
              upload = { fileName: part.filename, bytes: await part.toBuffer() };
            } else if (part.type === 'file') await part.toBuffer();
          }
        } catch (error) {
          if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(
              ErrorCode.PAYLOAD_TOO_LARGE,
              CONTENT_MESSAGES.fileTooLarge(Math.round((deps.materialMaxBytes / 1024 / 1024) * 10) / 10),
            );
          }
          throw error;
        }
        const fields = MaterialFileFormBody.safeParse({ title });
        if (!fields.success) {
          const message = fields.error.issues[0]?.message ?? CONTENT_MESSAGES.titleRequired;
          throw new AppError(ErrorCode.VALIDATION, message, { fields: { title: message } });
        }
        if (!upload || upload.bytes.length === 0) {
          throw new AppError(ErrorCode.VALIDATION, CONTENT_MESSAGES.fileRequired, {
            fields: { [MATERIAL_FILE_FIELD]: CONTENT_MESSAGES.fileRequired },
          });
        }
        const material = await content.createFileMaterial(deps, viewer, request.params.id, {
          title: fields.data.title,
          fileName: upload.fileName,
          bytes: upload.bytes,
        });
        return reply.status(201).send(material);
      },
    );
  });
}
