-- The study dashboard's figures (ADR 060): counters per unit kept in step by triggers, so that
-- GET /api/dashboard reads a few hundred rows instead of scanning 100,000 patients and 1,000,000
-- samples. Only counts, no patient's data: no audit trigger (the rows it counts are audited).
-- A row is (unit, metric, key) -> n; a metric's keys are a group id, a month, a status, a number
-- of days, an analyte. Only active (not deleted) patients and what belongs to them count.
CREATE TABLE IF NOT EXISTS "dashboard_counts" (
  "unit_id" integer NOT NULL,
  "metric" text NOT NULL,
  "key" text NOT NULL,
  "n" bigint NOT NULL,
  CONSTRAINT "dashboard_counts_pkey" PRIMARY KEY ("unit_id", "metric", "key")
);--> statement-breakpoint
-- Adds d to each 'metric|key' of keys in unit u (one upsert a key: safe under concurrent writers).
CREATE FUNCTION dashboard_add(u integer, keys text[], d integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k text;
BEGIN
  IF u IS NULL OR keys IS NULL OR d = 0 THEN
    RETURN;
  END IF;
  FOREACH k IN ARRAY keys LOOP
    INSERT INTO dashboard_counts AS c (unit_id, metric, key, n)
    VALUES (u, split_part(k, '|', 1), substr(k, strpos(k, '|') + 1), d)
    ON CONFLICT (unit_id, metric, key) DO UPDATE SET n = c.n + EXCLUDED.n;
  END LOOP;
END
$$;--> statement-breakpoint
-- Moves a row's contribution from (old unit, old keys) to (new unit, new keys), touching only the
-- keys that changed when the unit stays: a sample's update rewrites no counter it still counts in.
CREATE FUNCTION dashboard_move(old_unit integer, old_keys text[], new_unit integer, new_keys text[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF old_unit IS NOT DISTINCT FROM new_unit THEN
    PERFORM dashboard_add(old_unit, ARRAY(SELECT unnest(old_keys) EXCEPT SELECT unnest(new_keys)), -1);
    PERFORM dashboard_add(new_unit, ARRAY(SELECT unnest(new_keys) EXCEPT SELECT unnest(old_keys)), 1);
  ELSE
    PERFORM dashboard_add(old_unit, old_keys, -1);
    PERFORM dashboard_add(new_unit, new_keys, 1);
  END IF;
END
$$;--> statement-breakpoint
-- Out of norm as packages/shared/src/reference-ranges.ts isOutOfNormQualified judges it, with the
-- range chosen as modules/probes/queries.ts does (the laboratory's own range first, ADR 033).
CREATE FUNCTION dashboard_out_of_norm(v numeric, q jsonb, lab jsonb, analyte text, psex text)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
DECLARE
  mn numeric;
  mx numeric;
  bl numeric;
  c text;
  high numeric;
  lab_text text;
BEGIN
  IF v IS NULL THEN
    RETURN false;
  END IF;
  IF lab IS NOT NULL AND jsonb_typeof(lab) = 'object'
     AND (jsonb_typeof(lab->'min') = 'number' OR jsonb_typeof(lab->'max') = 'number') THEN
    mn := CASE WHEN jsonb_typeof(lab->'min') = 'number' THEN (lab->>'min')::numeric END;
    mx := CASE WHEN jsonb_typeof(lab->'max') = 'number' THEN (lab->>'max')::numeric END;
    lab_text := regexp_replace(btrim(coalesce(lab->>'text', '')), '^[([{]\s*', '');
    IF left(lab_text, 1) = '<' AND left(lab_text, 2) <> '<=' THEN
      bl := mx;
      mn := NULL;
      mx := NULL;
    END IF;
  ELSE
    SELECT r.min, r.max, r.below INTO mn, mx, bl
    FROM reference_ranges r
    WHERE r.kind = 'biochemistry' AND r.analyte = dashboard_out_of_norm.analyte
      AND (r.sex = psex OR r.sex IS NULL)
    ORDER BY r.sex IS NULL
    LIMIT 1;
    IF NOT FOUND THEN
      RETURN false;
    END IF;
  END IF;
  c := q->>'comparator';
  IF c IS NULL THEN
    RETURN (mn IS NOT NULL AND v < mn) OR (mx IS NOT NULL AND v > mx)
      OR (bl IS NOT NULL AND NOT v < bl);
  END IF;
  high := CASE
    WHEN c = '-' THEN coalesce(CASE WHEN jsonb_typeof(q->'upper') = 'number' THEN (q->>'upper')::numeric END, v)
    WHEN c LIKE '>%' THEN 'Infinity'::numeric
    ELSE v END;
  RETURN (mx IS NOT NULL AND high > mx)
    OR (bl IS NOT NULL AND (high > bl OR (high = bl AND c <> '<')))
    OR (mn IS NOT NULL AND CASE
          WHEN c = '<' THEN v <= mn
          WHEN c IN ('<=', '-') THEN high < mn
          ELSE false END);
END
$$;--> statement-breakpoint
-- What one sample counts in: its status, its days from drawing to results (Warsaw calendar days),
-- and per analyte with a value whether it is out of norm.
CREATE FUNCTION dashboard_probe_keys(p probes, psex text) RETURNS text[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  keys text[] := ARRAY['probe_status|' || p.status];
  a text;
  v numeric;
BEGIN
  IF p.results_at IS NOT NULL THEN
    keys := keys || ('result_days|' || ((p.results_at AT TIME ZONE 'Europe/Warsaw')::date - p.date_of_sample));
  END IF;
  FOREACH a IN ARRAY ARRAY['alt', 'ast', 'creatine', 'bilirubine'] LOOP
    v := CASE a WHEN 'alt' THEN p.alt WHEN 'ast' THEN p.ast WHEN 'creatine' THEN p.creatine ELSE p.bilirubine END;
    IF v IS NOT NULL THEN
      keys := keys || ('analyte_n|' || a);
      IF dashboard_out_of_norm(v, p.result_comparators->a, p.lab_ranges->a, a, psex) THEN
        keys := keys || ('analyte_out|' || a);
      END IF;
    END IF;
  END LOOP;
  RETURN keys;
END
$$;--> statement-breakpoint
CREATE FUNCTION dashboard_visit_keys(v visits) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v.cancelled_at IS NOT NULL THEN ARRAY[]::text[]
    WHEN v.out_of_window THEN ARRAY['visit_window|out'] ELSE ARRAY['visit_window|in'] END;
$$;--> statement-breakpoint
CREATE FUNCTION dashboard_alert_keys(a safety_alerts) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN a.acknowledged_at IS NULL THEN ARRAY['alerts_open|'] ELSE ARRAY[]::text[] END;
$$;--> statement-breakpoint
CREATE FUNCTION dashboard_inclusion_keys(i patient_inclusions) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['group|' || i.group_id, 'subgroup|' || i.group_id || ':' || coalesce(i.subgroup_id::text, '')];
$$;--> statement-breakpoint
-- Everything an active patient counts in, with sign d: the patient, the inclusion, and every
-- visit, sample and alert of theirs (a deleted, restored or moved patient takes them along).
CREATE FUNCTION dashboard_patient_apply(p patients, d integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF p.deleted_at IS NOT NULL THEN
    RETURN;
  END IF;
  PERFORM dashboard_add(p.unit_id, ARRAY['patients|',
    'recruit|' || to_char(p.created_at AT TIME ZONE 'Europe/Warsaw', 'YYYY-MM')], d);
  FOR r IN SELECT dashboard_inclusion_keys(i) AS k FROM patient_inclusions i WHERE i.patient_id = p.id LOOP
    PERFORM dashboard_add(p.unit_id, r.k, d);
  END LOOP;
  FOR r IN SELECT v.unit_id AS u, dashboard_visit_keys(v) AS k FROM visits v WHERE v.patient_id = p.id LOOP
    PERFORM dashboard_add(r.u, r.k, d);
  END LOOP;
  FOR r IN SELECT dashboard_probe_keys(s, p.sex) AS k FROM probes s WHERE s.patient_id = p.id LOOP
    PERFORM dashboard_add(p.unit_id, r.k, d);
  END LOOP;
  FOR r IN SELECT dashboard_alert_keys(a) AS k FROM safety_alerts a WHERE a.patient_id = p.id LOOP
    PERFORM dashboard_add(p.unit_id, r.k, d);
  END LOOP;
END
$$;--> statement-breakpoint
-- A deletion runs BEFORE: the cascade to patient_inclusions has not yet removed what it subtracts.
CREATE FUNCTION dashboard_patients_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM dashboard_patient_apply(NEW, 1);
    RETURN NULL;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM dashboard_patient_apply(OLD, -1);
    RETURN OLD;
  END IF;
  IF OLD.unit_id IS DISTINCT FROM NEW.unit_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
     OR OLD.sex IS DISTINCT FROM NEW.sex OR OLD.created_at IS DISTINCT FROM NEW.created_at THEN
    PERFORM dashboard_patient_apply(OLD, -1);
    PERFORM dashboard_patient_apply(NEW, 1);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER patients_dashboard AFTER INSERT OR UPDATE ON patients
  FOR EACH ROW EXECUTE FUNCTION dashboard_patients_count();--> statement-breakpoint
CREATE TRIGGER patients_dashboard_delete BEFORE DELETE ON patients
  FOR EACH ROW EXECUTE FUNCTION dashboard_patients_count();--> statement-breakpoint
-- A child row counts in the unit of its active patient (a visit in its own unit).
CREATE FUNCTION dashboard_children_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_unit integer;
  new_unit integer;
  old_keys text[] := ARRAY[]::text[];
  new_keys text[] := ARRAY[]::text[];
  psex text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    SELECT p.unit_id, p.sex INTO old_unit, psex FROM patients p
    WHERE p.id = OLD.patient_id AND p.deleted_at IS NULL;
    IF old_unit IS NOT NULL THEN
      CASE TG_TABLE_NAME
        WHEN 'probes' THEN old_keys := dashboard_probe_keys(OLD, psex);
        WHEN 'visits' THEN old_keys := dashboard_visit_keys(OLD); old_unit := OLD.unit_id;
        WHEN 'safety_alerts' THEN old_keys := dashboard_alert_keys(OLD);
        ELSE old_keys := dashboard_inclusion_keys(OLD);
      END CASE;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT p.unit_id, p.sex INTO new_unit, psex FROM patients p
    WHERE p.id = NEW.patient_id AND p.deleted_at IS NULL;
    IF new_unit IS NOT NULL THEN
      CASE TG_TABLE_NAME
        WHEN 'probes' THEN new_keys := dashboard_probe_keys(NEW, psex);
        WHEN 'visits' THEN new_keys := dashboard_visit_keys(NEW); new_unit := NEW.unit_id;
        WHEN 'safety_alerts' THEN new_keys := dashboard_alert_keys(NEW);
        ELSE new_keys := dashboard_inclusion_keys(NEW);
      END CASE;
    END IF;
  END IF;
  PERFORM dashboard_move(old_unit, old_keys, new_unit, new_keys);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER probes_dashboard AFTER INSERT OR UPDATE OR DELETE ON probes
  FOR EACH ROW EXECUTE FUNCTION dashboard_children_count();--> statement-breakpoint
CREATE TRIGGER visits_dashboard AFTER INSERT OR UPDATE OR DELETE ON visits
  FOR EACH ROW EXECUTE FUNCTION dashboard_children_count();--> statement-breakpoint
CREATE TRIGGER safety_alerts_dashboard AFTER INSERT OR UPDATE OR DELETE ON safety_alerts
  FOR EACH ROW EXECUTE FUNCTION dashboard_children_count();--> statement-breakpoint
CREATE TRIGGER patient_inclusions_dashboard AFTER INSERT OR UPDATE OR DELETE ON patient_inclusions
  FOR EACH ROW EXECUTE FUNCTION dashboard_children_count();--> statement-breakpoint
-- Counts everything again from the rows (the first fill, and after the reference ranges change,
-- which re-judges every result). Under a lock on the counters so no writer adds meanwhile.
CREATE FUNCTION dashboard_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE dashboard_counts IN EXCLUSIVE MODE;
  DELETE FROM dashboard_counts;
  INSERT INTO dashboard_counts (unit_id, metric, key, n)
  SELECT u, split_part(k, '|', 1), substr(k, strpos(k, '|') + 1), count(*)
  FROM (
    SELECT p.unit_id AS u, unnest(ARRAY['patients|',
      'recruit|' || to_char(p.created_at AT TIME ZONE 'Europe/Warsaw', 'YYYY-MM')]) AS k
    FROM patients p WHERE p.deleted_at IS NULL
    UNION ALL
    SELECT p.unit_id, unnest(dashboard_inclusion_keys(i))
    FROM patient_inclusions i JOIN patients p ON p.id = i.patient_id WHERE p.deleted_at IS NULL
    UNION ALL
    SELECT v.unit_id, unnest(dashboard_visit_keys(v))
    FROM visits v JOIN patients p ON p.id = v.patient_id WHERE p.deleted_at IS NULL
    UNION ALL
    SELECT p.unit_id, unnest(dashboard_probe_keys(s, p.sex))
    FROM probes s JOIN patients p ON p.id = s.patient_id WHERE p.deleted_at IS NULL
    UNION ALL
    SELECT p.unit_id, unnest(dashboard_alert_keys(a))
    FROM safety_alerts a JOIN patients p ON p.id = a.patient_id WHERE p.deleted_at IS NULL
  ) rows
  GROUP BY u, k;
END
$$;--> statement-breakpoint
CREATE FUNCTION dashboard_ranges_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rebuild();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER reference_ranges_dashboard AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reference_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_ranges_changed();--> statement-breakpoint
SELECT dashboard_rebuild();
