#!/bin/sh
# The app's role for compose.yaml (docs/deploy.md): reads and writes data, cannot alter tables
# or the audit trail. The owner (POSTGRES_USER) migrates. Run once, on an empty volume.
set -eu
psql -v ON_ERROR_STOP=1 -v app_password="$PORTAL_APP_PASSWORD" \
  --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE ROLE portal_app LOGIN PASSWORD :'app_password';
GRANT portal_app TO CURRENT_USER;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL
