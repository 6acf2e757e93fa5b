import { eq } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import { keyFromImageUrl } from '../src/modules/uploads/storage.public.ts';
import { createUser, type TestContext, type TestUser } from './harness.ts';
import { uploadPicture } from './upload-fixtures.ts';

/**
 * Set-up shared by the class suites (classes.test.ts, class-revisions.test.ts): the same cast of
 * callers and pictures, class rows inserted directly, and reads of what the class routes stored.
 */

/** Who calls the class routes; `owner` teaches the classes under test. */
export type ClassRole = 'anonymous' | 'student' | 'owner' | 'otherTeacher' | 'admin';
export type ClassActors = Record<Exclude<ClassRole, 'anonymous'>, TestUser>;

export interface ClassCast {
  actors: ClassActors;
  /** A picture the owner uploaded, for class bodies, and its storage key, for inserted classes. */
  imageUrl: string;
  imageKey: string;
  /** Another picture of the owner's, for edits that change the image. */
  secondImageUrl: string;
}

/** Signs up a student, the owning teacher, another teacher and an admin; the owner uploads two pictures. */
export async function createClassCast(ctx: TestContext): Promise<ClassCast> {
  const actors: ClassActors = {
    student: await createUser(ctx, 'student', { name: 'Sam Student' }),
    owner: await createUser(ctx, 'teacher', { name: 'Olivia Owner' }),
    otherTeacher: await createUser(ctx, 'teacher', { name: 'Otto Other' }),
    admin: await createUser(ctx, 'admin', { name: 'Ada Admin' }),
  };
  const imageUrl = await uploadPicture(ctx, actors.owner, [30, 90, 160]);
  const imageKey = keyFromImageUrl(imageUrl, ctx.storage)!;
  const secondImageUrl = await uploadPicture(ctx, actors.owner, [200, 60, 20]);
  return { actors, imageUrl, imageKey, secondImageUrl };
}

/**
 * A class of `teacher` straight into the database (set-up only; the classes API is tested through
 * its routes): the teacher's columns come from the user, the rest as given. Answers its id.
 */
export async function insertClassRow(
  ctx: Pick<TestContext, 'db'>,
  teacher: Pick<TestUser, 'id' | 'name' | 'email'>,
  values: Omit<typeof schema.classes.$inferInsert, 'teacherId' | 'teacherName' | 'teacherEmail'>,
): Promise<string> {
  const [row] = await ctx.db
    .insert(schema.classes)
    .values({ teacherId: teacher.id, teacherName: teacher.name, teacherEmail: teacher.email, ...values })
    .returning({ id: schema.classes.id });
  return row!.id;
}

/** The class's row as stored. */
export async function storedClass(ctx: Pick<TestContext, 'db'>, id: string) {
  const [row] = await ctx.db.select().from(schema.classes).where(eq(schema.classes.id, id));
  return row;
}

/** The audit entries about a class (or a revision): what was done and by whom. */
export async function auditOf(ctx: Pick<TestContext, 'db'>, targetId: string) {
  return ctx.db
    .select({ action: schema.auditLog.action, actorId: schema.auditLog.actorId, details: schema.auditLog.details })
    .from(schema.auditLog)
    .where(eq(schema.auditLog.targetId, targetId));
}
