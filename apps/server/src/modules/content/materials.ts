import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { ClassMaterial } from '@skillhive/shared/contracts/content';
import { ACCEPTED_MATERIAL_TYPES, CONTENT_ITEMS_MAX, CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { LinkMaterialFormBody, UpdateMaterialBody } from '@skillhive/shared/rules/content-forms';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { recordMaterialUpload } from '../uploads/uploads.service.ts';
import { type ContentDeps, loadOwnedClass, loadOwnedMaterial, loadViewableClass } from './content-access.ts';
import { type ContentList, insertAtEnd, publishedAtAfter, reorder } from './content-lists.ts';
import { toMaterial } from './content-views.ts';
import * as repo from './content.repository.ts';

/** A class's materials: links and uploaded files, their publication, order and downloads. */

const MATERIALS: ContentList<
  repo.MaterialRow,
  Omit<Parameters<typeof repo.insertMaterial>[1], 'classId' | 'position'>
> = {
  count: repo.countMaterials,
  insert: repo.insertMaterial,
  listAll: (tx, classId) => repo.listMaterialsOfClass(tx, classId, { publishedOnly: false }),
  setOrder: repo.setMaterialOrder,
};

/** POST /api/classes/:id/materials: a link, as a draft. */
export async function createLinkMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  body: LinkMaterialFormBody,
): Promise<ClassMaterial> {
  await loadOwnedClass(deps.db, viewer, classId);
  return toMaterial(await insertAtEnd(deps, MATERIALS, classId, { title: body.title, url: body.url }), null);
}

const EXECUTABLE_TYPES = new Set([
  'application/x-elf',
  'application/x-msdownload',
  'application/x-mach-binary',
  'application/x-executable',
  'application/vnd.microsoft.portable-executable',
  'application/x-sharedlib',
  'application/java-archive',
  'application/x-msi',
  'application/wasm',
]);

const EXTENSION_OF: Record<(typeof ACCEPTED_MATERIAL_TYPES)[number], string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * What an uploaded material is, from its bytes (file-type), never from its name or the declared
 * type: a PDF or an image of ACCEPTED_MATERIAL_TYPES. A program (ELF, PE, Mach-O…) renamed .pdf
 * is named as such; anything else is "unsupported" (415).
 */
export async function sniffMaterial(bytes: Buffer): Promise<(typeof ACCEPTED_MATERIAL_TYPES)[number]> {
  const type = await fileTypeFromBuffer(bytes);
  if (type && (EXECUTABLE_TYPES.has(type.mime) || ['exe', 'elf', 'macho', 'dll'].includes(type.ext))) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, CONTENT_MESSAGES.fileExecutable);
  }
  if (!type || !(ACCEPTED_MATERIAL_TYPES as readonly string[]).includes(type.mime)) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, CONTENT_MESSAGES.fileUnsupported);
  }
  return type.mime as (typeof ACCEPTED_MATERIAL_TYPES)[number];
}

/** A download name that cannot break the header or lie about the type: the sniffed extension wins. */
export function safeFileName(name: string | undefined, mime: (typeof ACCEPTED_MATERIAL_TYPES)[number]): string {
  const base = (name ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '')
    .trim()
    .slice(0, 100);
  return `${base || 'material'}.${EXTENSION_OF[mime]}`;
}

/**
 * POST /api/classes/:id/materials/file: the route has counted the upload against the teacher's
 * rate and read at most MATERIAL_MAX_MB. Everything that can refuse it does so before a byte is
 * stored (decision 027): the sniffed type, the class's item cap, the teacher's storage quota
 * (recorded as their upload, which makes the file collectable when no material uses it). Then the
 * bytes are stored under their content address and the material added as a draft.
 */
export async function createFileMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  input: { title: string; fileName: string | undefined; bytes: Buffer },
): Promise<ClassMaterial> {
  await loadOwnedClass(deps.db, viewer, classId);
  const mime = await sniffMaterial(input.bytes);
  // Checked again under the list's lock when the row is added; a file stored by an upload that
  // then loses that race is collected with the unused uploads.
  if ((await repo.countMaterials(deps.db, classId)).n >= CONTENT_ITEMS_MAX) throw conflict(CONTENT_MESSAGES.tooMany);
  const fileKey = `m-${createHash('sha256').update(input.bytes).digest('hex')}.${EXTENSION_OF[mime]}`;
  await recordMaterialUpload(deps.db, {
    key: fileKey,
    ownerId: viewer.id,
    contentType: mime,
    bytes: input.bytes.length,
    quotaBytes: deps.materialQuotaBytes,
    now: deps.now(),
  });
  // The bytes before the material: a row never points at a file that is not there (network I/O
  // outside any transaction).
  try {
    await deps.storage.put(fileKey, input.bytes, mime);
  } catch (error) {
    throw new AppError(ErrorCode.UNAVAILABLE, 'The file could not be stored. Please try again.', { cause: error });
  }
  const row = await insertAtEnd(deps, MATERIALS, classId, {
    title: input.title,
    fileKey,
    fileName: safeFileName(input.fileName, mime),
    contentType: mime,
    bytes: input.bytes.length,
  });
  return toMaterial(row, null);
}

export async function updateMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  id: string,
  body: UpdateMaterialBody,
): Promise<ClassMaterial> {
  const row = await deps.db.transaction(async (tx) => {
    const material = await loadOwnedMaterial(tx, viewer, id, true);
    if (body.url !== undefined && material.fileKey) {
      throw new AppError(ErrorCode.VALIDATION, 'An uploaded file has no address to change; upload a new file instead', {
        fields: { url: 'An uploaded file has no address to change' },
      });
    }
    return repo.updateMaterial(tx, id, {
      title: body.title,
      ...(body.url !== undefined ? { url: body.url } : {}),
      updatedAt: deps.now(),
    });
  });
  return toMaterial(row, null);
}

export async function publishMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  id: string,
  published: boolean,
): Promise<ClassMaterial> {
  const row = await deps.db.transaction(async (tx) => {
    const material = await loadOwnedMaterial(tx, viewer, id, true);
    return repo.updateMaterial(tx, id, {
      publishedAt: publishedAtAfter(published, material, deps.now()),
      updatedAt: deps.now(),
    });
  });
  return toMaterial(row, null);
}

/** DELETE /api/materials/:id; its file goes too when no other material shares those bytes. */
export async function deleteMaterial(deps: ContentDeps, viewer: Viewer, id: string): Promise<{ deletedCount: number }> {
  const material = await loadOwnedMaterial(deps.db, viewer, id);
  const deletedCount = await repo.deleteMaterial(deps.db, id);
  if (material.fileKey && !(await repo.fileKeyInUse(deps.db, material.fileKey))) {
    try {
      await deps.storage.delete(material.fileKey);
    } catch {
      // An orphaned file costs disk, not correctness; the material is gone either way.
    }
  }
  return { deletedCount };
}

export async function reorderMaterials(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  ids: string[],
): Promise<ClassMaterial[]> {
  const rows = await reorder(deps, viewer, MATERIALS, classId, ids);
  return rows.map((row) => toMaterial(row, null));
}

/**
 * GET /api/materials/:id/file: for a paid student (published materials), the teacher and admins.
 * Anyone else is refused exactly as for the class's content.
 */
export async function openMaterialFile(deps: ContentDeps, viewer: Viewer, id: string) {
  if (!enrollments.isUuid(id)) throw notFound('Material');
  const material = await repo.findMaterial(deps.db, id);
  if (!material || !material.fileKey || !material.contentType) throw notFound('Material');
  const { role } = await loadViewableClass(deps.db, viewer, material.classId);
  if (role === 'student' && !material.publishedAt) throw notFound('Material');
  let stored;
  try {
    stored = await deps.storage.get(material.fileKey);
  } catch (error) {
    throw new AppError(ErrorCode.UNAVAILABLE, 'The file could not be loaded. Please try again.', { cause: error });
  }
  if (!stored) throw notFound('Material');
  return { ...stored, contentType: material.contentType, fileName: material.fileName ?? 'material' };
}
