ALTER TABLE "sections" ADD COLUMN "next_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "last_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "start_slots" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
CREATE INDEX "sections_class_next_start_idx" ON "sections" USING btree ("class_id","next_starts_at","enroll_closes_at","last_starts_at","start_slots","id") WHERE "sections"."status" = 'active' and "sections"."next_starts_at" is not null;--> statement-breakpoint
CREATE INDEX "sections_start_slots_idx" ON "sections" USING gin ("start_slots") WHERE "sections"."status" = 'active' and "sections"."next_starts_at" is not null;--> statement-breakpoint
CREATE INDEX "sections_next_start_idx" ON "sections" USING btree ("next_starts_at") WHERE "sections"."next_starts_at" is not null;--> statement-breakpoint
-- Hand-written (decision 053): the schedule summary of a section, from its published sessions that
-- start after `as_of`. Kept by statement triggers on every write of class_sessions (insert, edit,
-- publish, move to another section, delete, cascades), so no code path can forget it; the session
-- reminder job refreshes the sections whose next start has passed.
CREATE FUNCTION section_start_slot(starts_at timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ((extract(isodow FROM starts_at AT TIME ZONE 'UTC')::int - 1) * 96
    + extract(hour FROM starts_at AT TIME ZONE 'UTC')::int * 4
    + floor(extract(minute FROM starts_at AT TIME ZONE 'UTC') / 15)::int) $$;
--> statement-breakpoint
CREATE FUNCTION refresh_section_schedules(ids uuid[], as_of timestamptz) RETURNS integer
  LANGUAGE sql
  AS $$
    WITH summary AS (
      SELECT x.id,
        min(cs.starts_at) AS next_starts_at,
        max(cs.starts_at) AS last_starts_at,
        coalesce(array_agg(DISTINCT section_start_slot(cs.starts_at)::smallint
          ORDER BY section_start_slot(cs.starts_at)::smallint) FILTER (WHERE cs.id IS NOT NULL), '{}') AS start_slots
      FROM unnest(ids) AS x(id)
      LEFT JOIN class_sessions cs
        ON cs.section_id = x.id AND cs.published_at IS NOT NULL AND cs.starts_at > as_of
      GROUP BY x.id
    ), changed AS (
      UPDATE sections s
      SET next_starts_at = summary.next_starts_at, last_starts_at = summary.last_starts_at,
        start_slots = summary.start_slots
      FROM summary
      WHERE s.id = summary.id
        AND (s.next_starts_at IS DISTINCT FROM summary.next_starts_at
          OR s.last_starts_at IS DISTINCT FROM summary.last_starts_at
          OR s.start_slots <> summary.start_slots)
      RETURNING 1
    )
    SELECT count(*)::int FROM changed
  $$;
--> statement-breakpoint
CREATE FUNCTION class_sessions_refresh_schedules() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      PERFORM refresh_section_schedules(array(SELECT DISTINCT section_id FROM new_rows), now());
    ELSIF TG_OP = 'DELETE' THEN
      PERFORM refresh_section_schedules(array(SELECT DISTINCT section_id FROM old_rows), now());
    ELSE
      PERFORM refresh_section_schedules(
        array(SELECT section_id FROM new_rows UNION SELECT section_id FROM old_rows), now());
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER class_sessions_schedule_insert AFTER INSERT ON class_sessions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION class_sessions_refresh_schedules();
--> statement-breakpoint
CREATE TRIGGER class_sessions_schedule_update AFTER UPDATE ON class_sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION class_sessions_refresh_schedules();
--> statement-breakpoint
CREATE TRIGGER class_sessions_schedule_delete AFTER DELETE ON class_sessions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION class_sessions_refresh_schedules();
--> statement-breakpoint
SELECT refresh_section_schedules(array(SELECT id FROM sections), now());
