CREATE TABLE "voice_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"voice_type" text NOT NULL,
	"pitch" double precision NOT NULL,
	"speed" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voice_settings_pitch_range" CHECK ("voice_settings"."pitch" between 0.5 and 2),
	CONSTRAINT "voice_settings_speed_range" CHECK ("voice_settings"."speed" between 0.5 and 2)
);
--> statement-breakpoint
ALTER TABLE "voice_settings" ADD CONSTRAINT "voice_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;