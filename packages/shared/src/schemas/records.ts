import { z } from 'zod';
import { REASON_CODES } from '../audit.js';
import { idField, multilineText } from '../validation.js';

/** Longest reason text: a few sentences. */
export const REASON_TEXT_MAX = 1000;

/**
 * A reason for change (ADR 048): a code, and a text that `other` requires. Sent as `reason` in
 * the JSON body of a write to a record holding entered clinical data.
 */
export const changeReason = z
  .object({
    code: z.enum(REASON_CODES, { error: 'required' }),
    text: multilineText({ max: REASON_TEXT_MAX })
      .nullish()
      .transform((value) => (value ? value : null)),
  })
  .superRefine((reason, ctx) => {
    if (reason.code === 'other' && !reason.text) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'reason_text_required' });
    }
  });
export type ChangeReason = z.infer<typeof changeReason>;

/** The field every such write body adds beside its own ones. */
export const reasonField = { reason: changeReason.optional() };

/** A reason as audit entries answer it. */
export const auditReason = z
  .object({ code: z.enum(REASON_CODES), text: z.string().nullable() })
  .nullable();

export const RECORD_LOCK_TYPES = ['visit', 'probe'] as const;
export type RecordLockType = (typeof RECORD_LOCK_TYPES)[number];

/** POST /api/records/lock and /unlock. */
export const recordLockBody = z.object({
  record_type: z.enum(RECORD_LOCK_TYPES, { error: 'invalid' }),
  record_id: idField('required'),
  reason: changeReason.optional(),
});
export type RecordLockBody = z.infer<typeof recordLockBody>;

/** A record's lock as record details answer it: null while unlocked. */
export const recordLock = z
  .object({
    locked_at: z.string(),
    by: z.object({ id: z.number().int(), login: z.string().nullable() }).nullable(),
  })
  .nullable();
export const recordLockAnswer = z.object({
  status: z.literal('success'),
  record_type: z.enum(RECORD_LOCK_TYPES),
  record_id: z.number().int(),
  locked: z.boolean(),
  lock: recordLock,
});

/**
 * What the signed-in user may do with a visit's or sample's signatures and lock (ADR 045, 048,
 * 050), on its detail answer: `sign` a record holding entered data (`signatures.sign`, patient not
 * deleted); `lock` a signed record not locked now (`records.lock`; the write still answers 409
 * `not_signed` when no signature is valid any more); `unlock` a locked one; `verify` it against
 * the source (`monitor.verify`, ADR 051).
 */
export const signedRecordAbilities = z.object({
  sign: z.boolean(),
  lock: z.boolean(),
  unlock: z.boolean(),
  verify: z.boolean(),
});
export type SignedRecordAbilities = z.infer<typeof signedRecordAbilities>;

/** The setting `study_lock` and GET /api/study/lock. */
export const studyLockState = z.object({
  locked: z.boolean(),
  locked_at: z.string().nullable(),
  by: z.object({ id: z.number().int(), login: z.string().nullable() }).nullable(),
});
export type StudyLockState = z.infer<typeof studyLockState>;
/** POST /api/study/lock and /unlock (the unlock answers 422 reason_required without one). */
export const studyLockBody = z.object({ reason: changeReason.optional() });

/** GET /api/audit_trial/verify. */
export const auditVerifyAnswer = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  first_broken_id: z.number().int().nullable(),
});
export type AuditVerifyAnswer = z.infer<typeof auditVerifyAnswer>;

/** 422 of a write that may need a reason: a validation error, or `{status:"reason_required"}`. */
export const reasonOrValidationError = z.union([
  z.object({
    status: z.literal('validation_error'),
    errors: z.record(z.string(), z.array(z.string())),
  }),
  z.object({ status: z.literal('reason_required') }),
]);
