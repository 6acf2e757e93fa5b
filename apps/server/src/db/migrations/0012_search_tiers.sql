-- Search tiers (decision 018): the title-and-teacher vector a search lists first, and a GIN index on accepted classes only.
ALTER TABLE "classes" ADD COLUMN "search_primary" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("teacher_name", '')), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "classes_accepted_search_idx" ON "classes" USING gin ("search") WHERE "classes"."status" = 'accepted';--> statement-breakpoint
CREATE INDEX "classes_search_primary_idx" ON "classes" USING gin ("search_primary");--> statement-breakpoint
-- The walk of a large search tier (classes.repository.ts, searchTierQuery): accepted classes in
-- the order of popularity, each with its title-and-teacher vector, so the walk reads the index
-- alone (an index-only scan) and not a table row per class it passes. Written by hand: drizzle's
-- index builder has no INCLUDE.
CREATE INDEX "classes_accepted_popular_search_idx" ON "classes" USING btree ("enrollment_count" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("search_primary") WHERE "classes"."status" = 'accepted';
