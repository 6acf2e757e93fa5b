/*
 * The demo classes' classroom (decisions 021, 041): sections in several time zones with weekly
 * sessions, past and upcoming, published; materials (a link, a PDF and a picture, stored through
 * the app's storage under their content address as uploads stores them); the students' progress;
 * and a refund request in each state. Like the seed, above the modules (decision 015). Everything
 * is a function of the class's place in the seed and of the seed's clock, so every run makes the
 * same data, at the same times relative to its start.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { fromLocalDateTime, toLocalDateTime, weeklyLocalTimes } from '@skillhive/shared/rules/time-zones';
import type { ImageStorage } from '../modules/uploads/storage.public.ts';
import type { Db } from './client.ts';
import { schema } from './client.ts';
import type { UploadRow } from './seed-fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The zones the demo sections run in, one after the other by class (a visitor sees each converted to theirs). */
export const DEMO_ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'Asia/Kolkata'] as const;

/** Weekly sessions per section: the first ones are over by the seed's clock, the rest to come. */
const WEEKS = 6;
const WEEKS_PAST = 3;

export interface ClassroomFile {
  key: string;
  fileName: string;
  contentType: 'application/pdf' | 'image/png';
  bytes: number;
}

/** A one-page PDF with a few lines of text (Helvetica, one of the fonts every reader has). */
export function outlinePdf(title: string, lines: string[]): Buffer {
  const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, '-').replace(/([\\()])/g, '\\$1');
  const text = [title, '', ...lines]
    .map((line, i) => `BT /F1 ${i === 0 ? 18 : 12} Tf 56 ${760 - i * 22} Td (${ascii(line)}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Stores a material's bytes under its content address, as the upload route does (decision 021). */
async function storeMaterial(
  storage: ImageStorage,
  bytes: Buffer,
  file: { fileName: string; contentType: ClassroomFile['contentType']; ownerId: string },
  uploadRows: UploadRow[],
): Promise<ClassroomFile> {
  const extension = file.contentType === 'application/pdf' ? 'pdf' : 'png';
  const key = `m-${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
  await storage.put(key, bytes, file.contentType);
  // A document has no pixel size: the columns are the image's (uploads' recordMaterialUpload).
  uploadRows.push({
    key,
    ownerId: file.ownerId,
    contentType: file.contentType,
    width: 0,
    height: 0,
    bytes: bytes.length,
  });
  return { key, fileName: file.fileName, contentType: file.contentType, bytes: bytes.length };
}

/**
 * Before the seed's transaction (storage may be a network call): each live class's outline (PDF)
 * and cheat sheet (PNG, rendered from the SVG `picture`), stored and collected as uploads of its teacher.
 */
export async function storeClassroomFiles(
  storage: ImageStorage,
  live: { key: string; title: string; teacherId: string; picture: Buffer }[],
  uploadRows: UploadRow[],
): Promise<Map<string, ClassroomFile[]>> {
  const slug = (title: string) =>
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  const entries = await Promise.all(
    live.map(async (cls) => {
      const weeks = Array.from({ length: WEEKS }, (_, k) => `Week ${k + 1}: ${weekTopic(k)}`);
      const pdf = outlinePdf(`${cls.title}: course outline`, weeks);
      const png = await sharp(cls.picture).png({ compressionLevel: 9 }).toBuffer();
      return [
        cls.key,
        await Promise.all([
          storeMaterial(
            storage,
            pdf,
            { fileName: `${slug(cls.title)}-outline.pdf`, contentType: 'application/pdf', ownerId: cls.teacherId },
            uploadRows,
          ),
          storeMaterial(
            storage,
            png,
            { fileName: `${slug(cls.title)}-cheat-sheet.png`, contentType: 'image/png', ownerId: cls.teacherId },
            uploadRows,
          ),
        ]),
      ] as const;
    }),
  );
  return new Map(entries);
}

function weekTopic(k: number): string {
  return ['Kick-off and set-up', 'Core ideas', 'Hands-on practice', 'Going further', 'Project clinic', 'Show and tell'][
    k
  ]!;
}

/**
 * 18:00 in the zone each week, from the local date `firstDay` days from `now`. Starting a day past
 * a week boundary (-20, then -13, -6, +1, …) makes the first WEEKS_PAST held and the rest to come
 * whatever the hour of the seed and the zone's offset.
 */
function weeklyStarts(zone: string, now: Date, firstDay: number, count: number): Date[] {
  const day = toLocalDateTime(new Date(now.getTime() + firstDay * DAY_MS), zone).slice(0, 10);
  return weeklyLocalTimes(`${day}T18:00`, count).flatMap((local) => fromLocalDateTime(local, zone) ?? []);
}

export interface LiveClass {
  id: string;
  title: string;
  /** The key of its files in storeClassroomFiles' answer. */
  fileKey: string;
  /** Its place among the live classes: picks its zone. */
  index: number;
}

export interface Classroom {
  /** The section each live class's enrollments go into (its first). */
  sectionOf: Map<string, string>;
  /** Published sessions per class, by start. */
  sessionsOf: Map<string, { id: string; startsAt: Date }[]>;
  /** Published materials per class. */
  materialsOf: Map<string, string[]>;
}

/**
 * In the seed's transaction, before any enrollment: a section per live class in its zone with six
 * published weekly sessions (three held, three to come), a link, a PDF and a picture. The first
 * live class also runs a second section in Tokyo (upcoming only) and has a draft session and a
 * draft material, so its teacher sees what students do not.
 */
export async function insertClassroom(
  tx: Db,
  input: { live: LiveClass[]; files: Map<string, ClassroomFile[]>; now: Date },
): Promise<Classroom> {
  const { now } = input;
  const sectionOf = new Map<string, string>();
  const sessionsOf = new Map<string, { id: string; startsAt: Date }[]>();
  const materialsOf = new Map<string, string[]>();
  const published = new Date(now.getTime() - (WEEKS_PAST + 1) * 7 * DAY_MS);
  for (const cls of input.live) {
    const zone = DEMO_ZONES[cls.index % DEMO_ZONES.length]!;
    const runs: { zone: string; starts: Date[]; capacity: number }[] = [
      { zone, starts: weeklyStarts(zone, now, 1 - 7 * WEEKS_PAST, WEEKS), capacity: 30 },
    ];
    if (cls.index === 0) runs.push({ zone: 'Asia/Tokyo', starts: weeklyStarts('Asia/Tokyo', now, 9, 4), capacity: 12 });
    const sessionRows: (typeof schema.classSessions.$inferInsert)[] = [];
    for (const [r, run] of runs.entries()) {
      const [section] = await tx
        .insert(schema.sections)
        .values({
          classId: cls.id,
          timeZone: run.zone,
          capacity: run.capacity,
          createdAt: new Date(published.getTime() + r * 1000),
        })
        .returning({ id: schema.sections.id });
      if (r === 0) sectionOf.set(cls.id, section!.id);
      run.starts.forEach((startsAt, k) =>
        sessionRows.push({
          classId: cls.id,
          sectionId: section!.id,
          position: sessionRows.length,
          title: `Week ${k + 1}: ${weekTopic(k)}`,
          startsAt,
          timeZone: run.zone,
          durationMinutes: 90,
          meetingUrl: `https://meet.example.com/skillhive-${cls.index + 1}-${r + 1}`,
          location: null,
          publishedAt: published,
        }),
      );
    }
    if (cls.index === 0) {
      const last = sessionRows[WEEKS - 1]!;
      sessionRows.push({
        ...last,
        position: sessionRows.length,
        title: 'Bonus: questions and answers (draft)',
        startsAt: new Date(last.startsAt!.getTime() + 7 * DAY_MS),
        publishedAt: null,
      });
    }
    const sessions = await tx.insert(schema.classSessions).values(sessionRows).returning({
      id: schema.classSessions.id,
      startsAt: schema.classSessions.startsAt,
      publishedAt: schema.classSessions.publishedAt,
    });
    sessionsOf.set(
      cls.id,
      sessions.filter((s) => s.publishedAt).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()),
    );

    const [pdf, png] = input.files.get(cls.fileKey)!;
    const materialRows: (typeof schema.classMaterials.$inferInsert)[] = [
      { title: 'Reading list', url: `https://example.com/skillhive/reading-list-${cls.index + 1}` },
      {
        title: 'Course outline',
        fileKey: pdf!.key,
        fileName: pdf!.fileName,
        contentType: pdf!.contentType,
        bytes: pdf!.bytes,
      },
      {
        title: 'Cheat sheet',
        fileKey: png!.key,
        fileName: png!.fileName,
        contentType: png!.contentType,
        bytes: png!.bytes,
      },
    ].map((row, position) => ({ ...row, classId: cls.id, position, publishedAt: published }));
    if (cls.index === 0) {
      materialRows.push({
        classId: cls.id,
        position: 3,
        title: 'Final project brief (draft)',
        url: 'https://example.com/skillhive/project-brief',
        publishedAt: null,
      });
    }
    const materials = await tx
      .insert(schema.classMaterials)
      .values(materialRows)
      .returning({ id: schema.classMaterials.id, publishedAt: schema.classMaterials.publishedAt });
    materialsOf.set(
      cls.id,
      materials.filter((m) => m.publishedAt).map((m) => m.id),
    );
  }
  return { sectionOf, sessionsOf, materialsOf };
}

/**
 * Progress, as students mark it: student s attended the held sessions k where (s + k) % 3 ≠ 0 (two
 * of three, so every review stands on attendance, decision 021) and finished the materials m
 * where (s + m) % 2 = 0.
 */
export async function insertProgress(
  tx: Db,
  classroom: Classroom,
  paid: { studentIndex: number; studentId: string; classId: string; paidAt: Date }[],
  now: Date,
): Promise<void> {
  const attendance: (typeof schema.sessionAttendance.$inferInsert)[] = [];
  const completions: (typeof schema.materialCompletions.$inferInsert)[] = [];
  for (const line of paid) {
    const held = (classroom.sessionsOf.get(line.classId) ?? []).filter(
      (s) => s.startsAt.getTime() < now.getTime() && s.startsAt.getTime() > line.paidAt.getTime(),
    );
    held.forEach((session, k) => {
      if ((line.studentIndex + k) % 3 !== 0) {
        attendance.push({
          sessionId: session.id,
          studentId: line.studentId,
          createdAt: new Date(session.startsAt.getTime() + 3600_000),
        });
      }
    });
    (classroom.materialsOf.get(line.classId) ?? []).forEach((materialId, m) => {
      if ((line.studentIndex + m) % 2 === 0) {
        completions.push({
          materialId,
          studentId: line.studentId,
          createdAt: new Date(line.paidAt.getTime() + DAY_MS),
        });
      }
    });
  }
  if (attendance.length > 0) await tx.insert(schema.sessionAttendance).values(attendance);
  if (completions.length > 0) await tx.insert(schema.materialCompletions).values(completions);
}
