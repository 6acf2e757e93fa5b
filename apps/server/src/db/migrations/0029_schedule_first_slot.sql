DROP INDEX "sections_start_slots_idx";--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "class_status" "class_status" DEFAULT 'pending' NOT NULL;--> statement-breakpoint
-- Hand-written (decision 053): each section carries its class's status, copied here for the
-- sections there are and by the triggers below from now on, whatever code path writes.
UPDATE "sections" s SET "class_status" = c."status" FROM "classes" c WHERE c."id" = s."class_id";--> statement-breakpoint
CREATE INDEX "sections_first_slot_idx" ON "sections" USING btree ("class_status",("start_slots"[1]),"next_starts_at") WHERE "sections"."status" = 'active' and "sections"."next_starts_at" is not null;--> statement-breakpoint
CREATE FUNCTION sections_copy_class_status() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    SELECT c.status INTO NEW.class_status FROM classes c WHERE c.id = NEW.class_id;
    RETURN NEW;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER sections_class_status BEFORE INSERT OR UPDATE OF class_id, class_status ON sections
  FOR EACH ROW EXECUTE FUNCTION sections_copy_class_status();
--> statement-breakpoint
CREATE FUNCTION classes_status_to_sections() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    UPDATE sections SET class_status = NEW.status WHERE class_id = NEW.id AND class_status <> NEW.status;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER classes_status_to_sections AFTER UPDATE OF status ON classes
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION classes_status_to_sections();
