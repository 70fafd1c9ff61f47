-- Issue 7, auth hardening (ADR 016, ADR 003).
-- 1. Login throttle counters shared by every API node and kept across restarts. A row per key
--    (a SHA-256 digest: the attempted login may be a mistyped password, so it is never stored).
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	-- When the row means nothing any more (window and lock over); old rows are deleted by it.
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "login_throttle_expires_at_idx" ON "login_throttle" ("expires_at");--> statement-breakpoint
-- 2. Refresh tokens already rotated away, with the session (the family) they belong to: one
--    presented again ends that session.
CREATE TABLE "used_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL REFERENCES "sessions"("id") ON DELETE CASCADE,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- The token's own expiry: past it the token is refused anyway, and the row is deleted.
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "used_refresh_tokens_session_id_idx" ON "used_refresh_tokens" ("session_id");--> statement-breakpoint
CREATE INDEX "used_refresh_tokens_expires_at_idx" ON "used_refresh_tokens" ("expires_at");--> statement-breakpoint
-- 3. Look-alike logins: a skeleton (NFKC, lower case, a small table of look-alike characters,
--    packages/shared/src/login.ts has the same table) that must be unique. Computed here by the
--    database, so no insert can forget it.
CREATE FUNCTION "portal_login_skeleton"("login" text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	AS $$
	SELECT replace(replace(translate(
		lower(normalize(btrim("login"), NFKC)),
		'0οо1|iıӏіιаαерсухѕјԁһԛԝν',
		'ooolllllllaaepcyxsjdhqwv'),
		'rn', 'm'), 'vv', 'w')
$$;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_skeleton" text;--> statement-breakpoint
-- Existing look-alike pairs must not stop the upgrade: the first row (live before deleted, then
-- the oldest) keeps the bare skeleton, the others get "#<id>" appended, and keep it until their
-- login changes.
UPDATE "users" AS u SET "login_skeleton" = s.skeleton || CASE WHEN s.n > 1 THEN '#' || u.id ELSE '' END
FROM (
	SELECT id, portal_login_skeleton(login) AS skeleton,
		row_number() OVER (PARTITION BY portal_login_skeleton(login) ORDER BY (deleted_at IS NOT NULL), id) AS n
	FROM "users"
) AS s
WHERE s.id = u.id;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "login_skeleton" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_skeleton_key" ON "users" ("login_skeleton");--> statement-breakpoint
CREATE FUNCTION "users_set_login_skeleton"() RETURNS trigger
	LANGUAGE plpgsql
	AS $$
BEGIN
	IF TG_OP = 'INSERT' OR NEW.login IS DISTINCT FROM OLD.login THEN
		NEW.login_skeleton := portal_login_skeleton(NEW.login);
	END IF;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_login_skeleton" BEFORE INSERT OR UPDATE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "users_set_login_skeleton"();
