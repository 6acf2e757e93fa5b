CREATE TABLE "session_move_notices" (
	"session_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"told_starts_at" timestamp with time zone NOT NULL,
	"told_time_zone" text NOT NULL,
	"told_duration_minutes" integer NOT NULL,
	"mailed_at" timestamp with time zone NOT NULL,
	"owed_since" timestamp with time zone,
	CONSTRAINT "session_move_notices_session_id_student_id_pk" PRIMARY KEY("session_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "session_move_notices" ADD CONSTRAINT "session_move_notices_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_move_notices" ADD CONSTRAINT "session_move_notices_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_move_notices_owed_idx" ON "session_move_notices" USING btree ("mailed_at") WHERE "session_move_notices"."owed_since" is not null;