-- Search (decision 018). pg_trgm ships with PostgreSQL's contrib and with PGlite (loaded by db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "classes" drop column "search";--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("teacher_name", '')), 'B') || setweight(to_tsvector('english', coalesce("description", '')), 'C')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gist ("term" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "reviews_class_created_idx" ON "reviews" USING btree ("class_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "classes_search_idx" ON "classes" USING gin ("search");--> statement-breakpoint
-- The words of a class (3 to 40 characters, at least one letter), for the correction of misspelled words.
CREATE FUNCTION "class_search_words"("title" text, "description" text, "teacher_name" text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT DISTINCT w FROM regexp_split_to_table(lower(coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(teacher_name, '')), '[^[:alnum:]]+') AS w
    WHERE length(w) BETWEEN 3 AND 40 AND w ~ '[[:alpha:]]'
  $$;--> statement-breakpoint
CREATE FUNCTION "classes_collect_search_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO "search_terms" ("term")
      SELECT w FROM "class_search_words"(NEW."title", NEW."description", NEW."teacher_name") AS w
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
$$;--> statement-breakpoint
CREATE TRIGGER "classes_search_terms" AFTER INSERT OR UPDATE OF "title", "description", "teacher_name" ON "classes"
  FOR EACH ROW EXECUTE FUNCTION "classes_collect_search_terms"();--> statement-breakpoint
INSERT INTO "search_terms" ("term")
  SELECT DISTINCT w FROM "classes", "class_search_words"("classes"."title", "classes"."description", "classes"."teacher_name") AS w
  ON CONFLICT DO NOTHING;
