-- The public "students enrolled" counts paid enrolments only (decision 003): recount every class.
UPDATE "classes" SET "enrollment_count" = coalesce(
  (SELECT count(*) FROM "enrollments" e WHERE e."class_id" = "classes"."id" AND e."status" = 'paid'), 0
);
