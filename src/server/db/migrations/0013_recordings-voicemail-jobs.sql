CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"held_by" text,
	"held_until" timestamp with time zone,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recordings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"call_id" uuid,
	"object_key" text NOT NULL,
	"state" text NOT NULL,
	"instance_id" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"retain_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voicemail_greetings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"object_key" text NOT NULL,
	"content_type" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"bytes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voicemails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"call_id" uuid,
	"from_number" text NOT NULL,
	"to_number" text NOT NULL,
	"object_key" text NOT NULL,
	"state" text NOT NULL,
	"instance_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"heard_at" timestamp with time zone,
	"retain_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "preferences" ADD COLUMN "record_calls" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_greetings" ADD CONSTRAINT "voicemail_greetings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemails" ADD CONSTRAINT "voicemails_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemails" ADD CONSTRAINT "voicemails_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recordings_user_started_idx" ON "recordings" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "recordings_call_idx" ON "recordings" USING btree ("call_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recordings_object_key_idx" ON "recordings" USING btree ("object_key");--> statement-breakpoint
CREATE INDEX "recordings_retain_until_idx" ON "recordings" USING btree ("retain_until");--> statement-breakpoint
CREATE INDEX "voicemails_user_created_idx" ON "voicemails" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "voicemails_object_key_idx" ON "voicemails" USING btree ("object_key");--> statement-breakpoint
CREATE INDEX "voicemails_retain_until_idx" ON "voicemails" USING btree ("retain_until");