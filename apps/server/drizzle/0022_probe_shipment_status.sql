-- The samples list sorts by the shipment status of the sample's kit (ADR 039). The list's pages
-- come from the probes table alone (ADR 021, ADR 030), so the kit's status is copied onto the
-- sample, kept in step by triggers, and indexed like the list's other sorts. A copy, not patient
-- data of its own: the audit trail keeps recording the kit's status on the kit.
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "shipment_status" text;--> statement-breakpoint
DROP TRIGGER IF EXISTS probes_audit ON probes;--> statement-breakpoint
CREATE TRIGGER probes_audit AFTER INSERT OR UPDATE OR DELETE ON probes
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'shipment_status');--> statement-breakpoint
-- A sample given a kit (or another one) takes that kit's status; a kit without a waybill has
-- no shipment, as the list shows it (probe-sets/queries.ts shipmentOf).
CREATE FUNCTION probes_set_shipment_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.shipment_status := (
    SELECT CASE WHEN k.tracking_code IS NULL THEN NULL ELSE k.last_status END
    FROM probe_set_kits k
    WHERE k.id = NEW.probe_set_kit_id
  );
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER probes_shipment_status BEFORE INSERT OR UPDATE OF probe_set_kit_id ON probes
  FOR EACH ROW EXECUTE FUNCTION probes_set_shipment_status();--> statement-breakpoint
-- A kit's new status or waybill reaches its samples (a kit holds a handful).
CREATE FUNCTION probe_set_kits_share_shipment_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shown text := CASE WHEN NEW.tracking_code IS NULL THEN NULL ELSE NEW.last_status END;
BEGIN
  UPDATE probes SET shipment_status = shown
  WHERE probe_set_kit_id = NEW.id AND shipment_status IS DISTINCT FROM shown;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER probe_set_kits_shipment_status AFTER UPDATE OF last_status, tracking_code ON probe_set_kits
  FOR EACH ROW
  WHEN (OLD.last_status IS DISTINCT FROM NEW.last_status OR OLD.tracking_code IS DISTINCT FROM NEW.tracking_code)
  EXECUTE FUNCTION probe_set_kits_share_shipment_status();--> statement-breakpoint
UPDATE probes p SET shipment_status = k.last_status
FROM probe_set_kits k
WHERE k.id = p.probe_set_kit_id AND k.tracking_code IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_shipment_status_id_idx" ON "probes" ("shipment_status", "id");
