-- The dashboard's out-of-norm rate per analyte includes the drug concentrations (ADR 060): a
-- concentration counts under 'medicine_{id}' when it can be judged, that is when the laboratory
-- sent a range with it or the study has one for the drug (data/reference-ranges.json has one for
-- amlodipine only); a concentration without any range is not counted at all. Kept by triggers on
-- probe_medicines (the value) and probes (the laboratory's range and qualifier), as the others.
-- Out of norm as packages/shared/src/reference-ranges.ts isOutOfNormQualified judges it, the range
-- chosen as modules/probes/queries.ts does; NULL when there is no range to judge by.
CREATE FUNCTION dashboard_judge(v numeric, q jsonb, lab jsonb, range_kind text, analyte text, psex text)
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
    RETURN NULL;
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
    WHERE r.kind = range_kind AND r.analyte = dashboard_judge.analyte
      AND (r.sex = psex OR r.sex IS NULL)
    ORDER BY r.sex IS NULL
    LIMIT 1;
    IF NOT FOUND THEN
      RETURN NULL;
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
-- The biochemistry's judgement is now the same function (one rule for both).
CREATE OR REPLACE FUNCTION dashboard_out_of_norm(v numeric, q jsonb, lab jsonb, analyte text, psex text)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(dashboard_judge(v, q, lab, 'biochemistry', analyte, psex), false);
$$;--> statement-breakpoint
-- What one concentration counts in: 'analyte_n|medicine_{id}' when it can be judged, and
-- 'analyte_out|medicine_{id}' when it is out of norm.
CREATE FUNCTION dashboard_medicine_keys(m probe_medicines, p probes, psex text)
RETURNS text[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  k text := 'medicine_' || m.medicine_id;
  judged boolean;
BEGIN
  IF m.concentration IS NULL THEN
    RETURN ARRAY[]::text[];
  END IF;
  judged := dashboard_judge(m.concentration, p.result_comparators->k, p.lab_ranges->k, 'drug',
    (SELECT md.inn FROM medicines md WHERE md.id = m.medicine_id), psex);
  IF judged IS NULL THEN
    RETURN ARRAY[]::text[];
  ELSIF judged THEN
    RETURN ARRAY['analyte_n|' || k, 'analyte_out|' || k];
  END IF;
  RETURN ARRAY['analyte_n|' || k];
END
$$;--> statement-breakpoint
-- Every concentration of one sample (one key set per medicine: a sample holds a medicine once).
CREATE FUNCTION dashboard_probe_medicine_keys(p probes, psex text)
RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(k), ARRAY[]::text[])
  FROM probe_medicines m, unnest(dashboard_medicine_keys(m, p, psex)) AS k
  WHERE m.probe_id = p.id;
$$;--> statement-breakpoint
-- A concentration written, changed or removed: in the unit of its sample's active patient.
CREATE FUNCTION dashboard_probe_medicines_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s probes;
  psex text;
  old_unit integer;
  new_unit integer;
  old_keys text[] := ARRAY[]::text[];
  new_keys text[] := ARRAY[]::text[];
BEGIN
  IF TG_OP <> 'INSERT' THEN
    SELECT * INTO s FROM probes WHERE id = OLD.probe_id;
    IF FOUND THEN
      SELECT p.unit_id, p.sex INTO old_unit, psex FROM patients p
      WHERE p.id = s.patient_id AND p.deleted_at IS NULL;
      IF old_unit IS NOT NULL THEN
        old_keys := dashboard_medicine_keys(OLD, s, psex);
      END IF;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT * INTO s FROM probes WHERE id = NEW.probe_id;
    IF FOUND THEN
      SELECT p.unit_id, p.sex INTO new_unit, psex FROM patients p
      WHERE p.id = s.patient_id AND p.deleted_at IS NULL;
      IF new_unit IS NOT NULL THEN
        new_keys := dashboard_medicine_keys(NEW, s, psex);
      END IF;
    END IF;
  END IF;
  PERFORM dashboard_move(old_unit, old_keys, new_unit, new_keys);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER probe_medicines_dashboard AFTER INSERT OR UPDATE OR DELETE ON probe_medicines
  FOR EACH ROW EXECUTE FUNCTION dashboard_probe_medicines_count();--> statement-breakpoint
-- A sample whose laboratory ranges, qualifiers or patient change re-judges its concentrations; a
-- sample deleted takes them along BEFORE its deletion cascades to probe_medicines (whose trigger
-- then finds no sample and does nothing).
CREATE FUNCTION dashboard_probe_concentrations() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_unit integer;
  new_unit integer;
  old_sex text;
  new_sex text;
BEGIN
  SELECT p.unit_id, p.sex INTO old_unit, old_sex FROM patients p
  WHERE p.id = OLD.patient_id AND p.deleted_at IS NULL;
  IF TG_OP = 'DELETE' THEN
    IF old_unit IS NOT NULL THEN
      PERFORM dashboard_add(old_unit, dashboard_probe_medicine_keys(OLD, old_sex), -1);
    END IF;
    RETURN OLD;
  END IF;
  SELECT p.unit_id, p.sex INTO new_unit, new_sex FROM patients p
  WHERE p.id = NEW.patient_id AND p.deleted_at IS NULL;
  PERFORM dashboard_move(
    old_unit, CASE WHEN old_unit IS NULL THEN ARRAY[]::text[] ELSE dashboard_probe_medicine_keys(OLD, old_sex) END,
    new_unit, CASE WHEN new_unit IS NULL THEN ARRAY[]::text[] ELSE dashboard_probe_medicine_keys(NEW, new_sex) END);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER probes_dashboard_concentrations AFTER UPDATE ON probes
  FOR EACH ROW WHEN (OLD.lab_ranges IS DISTINCT FROM NEW.lab_ranges
    OR OLD.result_comparators IS DISTINCT FROM NEW.result_comparators
    OR OLD.patient_id IS DISTINCT FROM NEW.patient_id)
  EXECUTE FUNCTION dashboard_probe_concentrations();--> statement-breakpoint
CREATE TRIGGER probes_dashboard_concentrations_delete BEFORE DELETE ON probes
  FOR EACH ROW EXECUTE FUNCTION dashboard_probe_concentrations();--> statement-breakpoint
-- A patient's contribution now includes the concentrations of the patient's samples.
CREATE OR REPLACE FUNCTION dashboard_patient_apply(p patients, d integer) RETURNS void LANGUAGE plpgsql AS $$
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
  FOR r IN SELECT dashboard_probe_keys(s, p.sex) || dashboard_probe_medicine_keys(s, p.sex) AS k
           FROM probes s WHERE s.patient_id = p.id LOOP
    PERFORM dashboard_add(p.unit_id, r.k, d);
  END LOOP;
  FOR r IN SELECT dashboard_alert_keys(a) AS k FROM safety_alerts a WHERE a.patient_id = p.id LOOP
    PERFORM dashboard_add(p.unit_id, r.k, d);
  END LOOP;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_rebuild() RETURNS void LANGUAGE plpgsql AS $$
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
    SELECT p.unit_id, unnest(dashboard_medicine_keys(m, s, p.sex))
    FROM probe_medicines m JOIN probes s ON s.id = m.probe_id
    JOIN patients p ON p.id = s.patient_id WHERE p.deleted_at IS NULL
    UNION ALL
    SELECT p.unit_id, unnest(dashboard_alert_keys(a))
    FROM safety_alerts a JOIN patients p ON p.id = a.patient_id WHERE p.deleted_at IS NULL
  ) rows
  GROUP BY u, k;
END
$$;--> statement-breakpoint
SELECT dashboard_rebuild();
